// The CLI is a client of the library (issue 30): a file under src/cli imports only other CLI files, the package
// root (src/index.ts), src/workbench, src/contract, src/base and rdw/mock (src/mock/index.ts, for `rdw mock`),
// plus node: built-ins and packages. What a command needs from catalog, client, analysis, study or report comes
// through the root (when public) or a workbench use case. This walk reads every import (static, `export … from`,
// `import type`, dynamic `import()`) of every file under src/cli and names each one that breaks the rule.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');
const CLI = path.join(SRC, 'cli');

/** Where a file under src/cli may reach inside src: its own layer, these layers (any file), these two files. */
const ALLOWED_LAYERS = ['cli', 'workbench', 'contract', 'base'];
const ALLOWED_FILES = ['index.ts', 'mock/index.ts'];
/**
 * The one exception, by file: `rdw openapi` refuses a key in the URLs it writes into its document with the
 * client's own refusal, a file of sentences and errors only; through the workbench's index it would load the
 * transport and DuckDB (test/cli/cli-manners.test.ts keeps it light). Moving the refusal into src/contract
 * would end the exception.
 */
const EXCEPTIONS: Record<string, string> = { 'cli/commands/openapi.ts': 'client/refuse-secrets-in-urls.ts' };

/** Every .ts file below `folder`, as paths relative to the repository. */
function tsFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(folder, name))
    .sort();
}

/** Every module specifier `file` imports: import/export declarations (type-only too) and literal `import()` calls. */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      // A computed specifier cannot be checked here: it is reported as such so it cannot slip past the rule.
      found.push(argument !== undefined && ts.isStringLiteralLike(argument) ? argument.text : `<computed import() ${argument?.getText(source)}>`);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Why `specifier`, imported by `file`, breaks the rule; undefined when it keeps it. */
function breach(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('<computed')) return specifier;
  if (!specifier.startsWith('.')) return specifier === 'rdw' || specifier.startsWith('rdw/') ? (specifier === 'rdw/mock' ? undefined : specifier) : undefined;
  const target = path.relative(SRC, path.resolve(path.dirname(file), specifier)).replace(/\.js$/, '.ts').split(path.sep).join('/');
  if (target.startsWith('..')) return `${specifier} (outside src)`;
  if (ALLOWED_FILES.includes(target)) return undefined;
  if (EXCEPTIONS[path.relative(SRC, file).split(path.sep).join('/')] === target) return undefined;
  const [layer] = target.split('/');
  return target.includes('/') && ALLOWED_LAYERS.includes(layer!) ? undefined : `${specifier} (src/${target})`;
}

/** Each import under src/cli that breaks the rule, as "file: specifier". */
function breaches(): string[] {
  return tsFiles(CLI).flatMap((file) =>
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
    const all = tsFiles(CLI).flatMap((file) => importsOf(file));
    expect(all).toContain('../../workbench/index.js');
    expect(all.some((specifier) => specifier.startsWith('node:'))).toBe(true);
    // Dynamic imports (commands/index.ts loads each command lazily) are read too.
    expect(importsOf(path.join(CLI, 'commands/index.ts'))).toContain('./demo.js');
    // The rule itself, on paths as a CLI file would write them.
    const command = path.join(CLI, 'commands/pull.ts');
    expect(breach(command, '../../catalog/index.js')).toBe('../../catalog/index.js (src/catalog/index.ts)');
    // The exception holds for its one file only.
    expect(breach(command, '../../client/refuse-secrets-in-urls.js')).toBe('../../client/refuse-secrets-in-urls.js (src/client/refuse-secrets-in-urls.ts)');
    expect(breach(path.join(CLI, 'commands/openapi.ts'), '../../client/refuse-secrets-in-urls.js')).toBeUndefined();
    expect(breach(path.join(CLI, 'commands/openapi.ts'), '../../client/index.js')).toBe('../../client/index.js (src/client/index.ts)');
    expect(breach(command, '../../mock/simulator.js')).toBe('../../mock/simulator.js (src/mock/simulator.ts)');
    expect(breach(command, '../../errors.js')).toBe('../../errors.js (src/errors.ts)');
    expect(breach(command, '../../../test/x.js')).toBe('../../../test/x.js (outside src)');
    expect(breach(command, 'rdw/internal')).toBe('rdw/internal');
    for (const allowed of ['../../index.js', '../../mock/index.js', '../../workbench/index.js', '../../contract/windows.js', '../../base/index.js', '../flags.js', './lock-check.js', 'node:path', 'undici', 'rdw/mock']) {
      expect(breach(command, allowed)).toBeUndefined();
    }
  });
});
