// The package as a consumer's compiler and npm see it, checked fast against the built dist/ (`npm test` builds
// first): literal-union options refuse values the spec does not have, the .d.ts never name danfojs (an optional
// peer), and package.json keeps danfojs out of a consumer's install and runs no script there. The slow proof, a
// real install of the packed tarball, is consumer-install.test.ts.

import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  scripts: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  typesVersions: Record<string, Record<string, string[]>>;
  files: string[];
};

describe('option types', () => {
  it("make windows, group keys, symbols, sample types and formats outside the spec's values a type error; type catalog.query<T> rows and Market Events rows (query-types.ts)", async () => {
    // tsc fails on an `@ts-expect-error` that no longer meets an error, so each refused value is checked.
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', path.join(ROOT, 'test/package/fixtures/tsconfig.json')]).catch((error: { stdout: string }) => error);
    expect(result.stdout).toBe('');
  });
});

describe('the declarations in dist/', () => {
  it('never import danfojs, so a consumer without it (or under skipLibCheck: false) type-checks', () => {
    const declarations = readdirSync(path.join(ROOT, 'dist'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(100);
    const code = (file: string) => readFileSync(path.join(ROOT, 'dist', file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, ''); // JSDoc may name it
    const naming = declarations.filter((file) => /(from\s+|import\()\s*['"]danfojs['"]/.test(code(file)));
    expect(naming).toEqual([]);
  });
});

describe('package.json', () => {
  it('keeps danfojs an optional peer (a dev dependency here), so a consumer installs no TensorFlow.js', () => {
    expect(manifest.dependencies.danfojs).toBeUndefined();
    expect(manifest.peerDependencies.danfojs).toBeDefined();
    expect(manifest.peerDependenciesMeta.danfojs?.optional).toBe(true);
    expect(manifest.devDependencies.danfojs).toBeDefined();
  });

  it("has no script that npm runs in a consumer's install; the tarball is built by prepack", () => {
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(manifest.scripts[script]).toBeUndefined();
    expect(manifest.scripts.prepack).toContain('npm run build');
  });

  it('exports the root and rdw/mock, each with its types, and files ships dist only', () => {
    expect(Object.keys(manifest.exports)).toEqual(['.', './mock', './package.json']);
    for (const entry of ['.', './mock']) {
      const target = manifest.exports[entry] as Record<string, string>;
      expect(Object.keys(target)[0]).toBe('types'); // first: TypeScript takes the first condition that matches
      expect(readdirSync(path.join(ROOT, path.dirname(target.types!)))).toContain(path.basename(target.types!));
      expect(readdirSync(path.join(ROOT, path.dirname(target.default!)))).toContain(path.basename(target.default!));
    }
    // node10 resolution (TypeScript's default under `module: commonjs`) ignores exports: typesVersions gives rdw/mock its types.
    expect(manifest.typesVersions).toEqual({ '*': { mock: [(manifest.exports['./mock'] as Record<string, string>).types] } });
    // dist/ but its incremental build info (tsc -b's, deleted with dist/ by prepack): no compiler state ships.
    // docs/: the sentences rdw prints and README name its pages (e.g. the calibration note's docs/analysis.md).
    expect(manifest.files).toEqual(['dist', '!dist/.tsbuildinfo', 'README.md', 'docs']);
  });
});
