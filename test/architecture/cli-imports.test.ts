// The CLI is a client of the library (issue 30): a file under src/cli imports only other CLI files, the package
// root (src/index.ts), src/workbench, src/contract, src/base and rdw/mock (src/mock/index.ts, for `rdw mock`),
// plus node: built-ins and packages. What a command needs from catalog, client, analysis, study or report comes
// through the root (when public) or a workbench use case. This walk reads every import (static, `export … from`,
// `import type`, dynamic `import()`) of every file under src/cli and names each one that breaks the rule.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleSpecifiers, REPO_ROOT, sourceFiles } from '../support/import-graph.js';

const ROOT = REPO_ROOT;
const SRC = path.join(ROOT, 'src');
const CLI = path.join(SRC, 'cli');

/** Where a file under src/cli may reach inside src: its own layer, these layers (any file), these two files. */
const ALLOWED_LAYERS = ['cli', 'workbench', 'contract', 'base'];
const ALLOWED_FILES = ['index.ts', 'mock/index.ts'];

/** Every .ts file below src/cli, as absolute paths. */
const tsFiles = (): string[] => sourceFiles('src/cli').map((file) => path.join(ROOT, file));

/** Every module specifier `file` imports: declarations (type-only too), `import()` calls and `import('…')` types. */
const importsOf = (file: string): string[] => moduleSpecifiers(file, readFileSync(file, 'utf8'), { dynamic: true });

/** Why `specifier`, imported by `file`, breaks the rule; undefined when it keeps it. */
function breach(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('<computed')) return specifier;
  if (!specifier.startsWith('.')) return specifier === 'rdw' || specifier.startsWith('rdw/') ? (specifier === 'rdw/mock' ? undefined : specifier) : undefined;
  const target = path.relative(SRC, path.resolve(path.dirname(file), specifier)).replace(/\.js$/, '.ts').split(path.sep).join('/');
  if (target.startsWith('..')) return `${specifier} (outside src)`;
  if (ALLOWED_FILES.includes(target)) return undefined;
  const [layer] = target.split('/');
  return target.includes('/') && ALLOWED_LAYERS.includes(layer!) ? undefined : `${specifier} (src/${target})`;
}

/** Each import under src/cli that breaks the rule, as "file: specifier". */
function breaches(): string[] {
  return tsFiles().flatMap((file) =>
    importsOf(file).flatMap((specifier) => {
      const why = breach(file, specifier);
      return why === undefined ? [] : [`${path.relative(ROOT, file)}: ${why}`];
    }),
  );
}

describe('src/cli imports only the package root, workbench, contract, base and rdw/mock', () => {
  it('finds no other import in any file under src/cli', () => {
    expect(breaches()).toEqual([]);
  });

  it('reads the imports it checks: every kind, and a breach is named with its file', () => {
    // The walk must see the CLI's imports at all (a walk that reads nothing would pass).
    const all = tsFiles().flatMap((file) => importsOf(file));
    expect(all).toContain('../../workbench/index.js');
    expect(all.some((specifier) => specifier.startsWith('node:'))).toBe(true);
    // Dynamic imports (commands/index.ts loads each command lazily) are read too.
    expect(importsOf(path.join(CLI, 'commands/index.ts'))).toContain('./demo.js');
    // The rule itself, on paths as a CLI file would write them.
    const command = path.join(CLI, 'commands/pull.ts');
    expect(breach(command, '../../catalog/index.js')).toBe('../../catalog/index.js (src/catalog/index.ts)');
    // No file is excepted: rdw openapi reaches the client's URL refusal through src/workbench/url-refusal.ts.
    expect(breach(path.join(CLI, 'commands/openapi.ts'), '../../client/refuse-secrets-in-urls.js')).toBe('../../client/refuse-secrets-in-urls.js (src/client/refuse-secrets-in-urls.ts)');
    expect(breach(command, '../../mock/simulator.js')).toBe('../../mock/simulator.js (src/mock/simulator.ts)');
    expect(breach(command, '../../errors.js')).toBe('../../errors.js (src/errors.ts)');
    expect(breach(command, '../../../test/x.js')).toBe('../../../test/x.js (outside src)');
    expect(breach(command, 'rdw/internal')).toBe('rdw/internal');
    for (const allowed of ['../../index.js', '../../mock/index.js', '../../workbench/index.js', '../../contract/windows.js', '../../base/index.js', '../flags.js', './lock-check.js', 'node:path', 'undici', 'rdw/mock']) {
      expect(breach(command, allowed)).toBeUndefined();
    }
  });
});
