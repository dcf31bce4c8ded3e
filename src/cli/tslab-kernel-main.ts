// The program the "TypeScript" kernel runs (`rdw kernel install` registers it): tslab's kernel, with its
// compiler resolving packages by their package.json `exports` as Node does (see resolveModulesLikeNode).

import { createRequire } from 'node:module';

/** TypeScript's API as far as this file uses it. */
interface TypeScriptApi {
  ModuleResolutionKind: { Node10: number; Bundler: number };
  createWatchCompilerHost: (rootFiles: unknown, options: { moduleResolution?: number }, ...rest: unknown[]) => unknown;
}

/**
 * tslab 1.0.22 compiles every cell with `moduleResolution: Node10` (converter.js, fixed, no tsconfig is read),
 * which reads a package's `types`/`main` and ignores `exports`: a package that declares its types only under
 * `exports` (danfojs 1.2) is "Cannot find module" in a cell, and a library function returning its types
 * (toDataFrame) comes out untyped. This hands tslab the same TypeScript module, except that a Node10 program
 * is built with `Bundler` resolution (`exports` with the `types`/`import` conditions, relative paths as
 * before; tslab already compiles with `module: ESNext`, which Bundler needs). Node runs the code as before.
 */
function resolveModulesLikeNode(require: NodeJS.Require, tslabMain: string): void {
  const typescriptPath = createRequire(tslabMain).resolve('@tslab/typescript-for-tslab');
  const ts = require(typescriptPath) as TypeScriptApi;
  const { Node10, Bundler } = ts.ModuleResolutionKind;
  const createWatchCompilerHost: TypeScriptApi['createWatchCompilerHost'] = (rootFiles, options, ...rest) =>
    ts.createWatchCompilerHost(rootFiles, options.moduleResolution === Node10 ? { ...options, moduleResolution: Bundler } : options, ...rest);
  // TypeScript's exports are non-configurable getters: tslab gets a view of the module instead.
  const view = new Proxy(ts, { get: (target, key) => (key === 'createWatchCompilerHost' ? createWatchCompilerHost : Reflect.get(target, key)) });
  require.cache[typescriptPath]!.exports = view;
}

/** tslab's kernel entry: `startKernel` is what its `kernel` command calls. */
interface TslabMain {
  main(): void;
  startKernel(options: { configPath: string; enableFindLocal: boolean; jsKernel: boolean }): void;
}

const require = createRequire(import.meta.url);
const tslabMain = require.resolve('tslab/dist/main.js');
resolveModulesLikeNode(require, tslabMain);
const tslab = require(tslabMain) as TslabMain;
const [command, ...rest] = process.argv.slice(2);
if (command === 'kernel') {
  // tslab's own `kernel` command looks upward from the notebook's folder for another tslab and starts that one
  // instead (enableFindLocal): a notebook in another checkout then ran that checkout's tslab, without this
  // launcher's resolution, and `import type … from 'danfojs'` failed. This kernel is this checkout's, always.
  const at = rest.indexOf('--config-path');
  tslab.startKernel({ configPath: at >= 0 ? (rest[at + 1] ?? '') : '', enableFindLocal: false, jsKernel: rest.includes('--js') });
} else {
  tslab.main();
}
