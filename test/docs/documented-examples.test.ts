// Documentation that is executed (issue 29 item 1): every fenced block of README.md, docs/*.md and
// notebooks/README.md, read with marked's lexer (test/support/doc-blocks.ts says the info-string convention),
// runs as written on a fresh clone: `git clone` of this checkout (its uncommitted changes applied), `npm ci
// --offline` from the npm cache, `npm run build`. Then, in document order (README first, then docs/ by name,
// then notebooks/README), in that one clone with one scratch HOME and the embedded mock (no RDW_* variable set):
// - a `sh` block runs with `bash -e -o pipefail` in the clone's root (a failing line fails the block);
// - a `ts` block is type-checked with the repository's strict settings (tsc, tsconfig.json's options) against
//   the clone's built package, as `rdw` and `rdw/mock` (the package's own name) or `../dist/index.js`, then
//   run with tsx (`ts vitest`: by vitest); a `js` block runs with node. Each must exit 0 on its own.
// - a file's `ts cell` blocks (notebook cells) are one program, checked and run together from the file's folder.
// Blocks share what they leave behind, as a reader following the docs does: README's `npm start`, pull and
// lock come before its `rdw reproduce study.lock.json`. Each has a time limit; a failure or a hang names the
// file, the line of the opening fence and the tail of the output. `no-run`, `sketch` and shown blocks are
// counted and printed per file.

import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';
import { blockUse, infoStringProblem, notebookProgram, readDocBlocks, type BlockUse, type DocBlock, type NotebookProgram } from '../support/doc-blocks.js';
import { environmentOutsideNpm, freshClone, type FreshClone } from '../support/fresh-clone.js';
import { runBounded, type BoundedResult } from '../support/run-bounded.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MINUTES = 60_000;
/** Time limit of one block; its vitest timeout leaves room to report. */
const BLOCK_LIMIT_MS = 3 * MINUTES;
const EXAMPLES_FOLDER = 'doc-examples';

const DOC_FILES = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((file) => file.endsWith('.md')).sort().map((file) => `docs/${file}`), 'notebooks/README.md'];
const BLOCKS = DOC_FILES.flatMap((file) => readDocBlocks(ROOT, file));
const understood = BLOCKS.filter((block) => infoStringProblem(block) === undefined);
const EXECUTED: BlockUse[] = ['shell', 'typescript', 'vitest', 'javascript', 'cell'];

/** The file an example is written to, in the clone's `doc-examples/` (one level down, as docs/ and notebooks/). */
function stemOf(file: string): string {
  return file.replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-');
}

function exampleFile(block: DocBlock): string {
  const stem = `${stemOf(block.file)}-L${block.line}`;
  const use = blockUse(block);
  return use === 'vitest' ? `${stem}.test.ts` : use === 'javascript' ? `${stem}.mjs` : `${stem}.ts`;
}

let scratch: string;
let clone: FreshClone;
let env: Record<string, string>;
/** tsc's diagnostics per example file name. */
const diagnostics = new Map<string, string[]>();
/** Each file's notebook cells as one program, by Markdown file. */
const notebookPrograms = new Map<string, NotebookProgram>();
const cellsFile = (file: string) => `${stemOf(file)}-cells.ts`;

beforeAll(async () => {
  scratch = await makeTemporaryFolder('rdw-docs-');
  const cache = (await promisify(execFile)('npm', ['config', 'get', 'cache'], { env: environmentOutsideNpm() })).stdout.trim();
  clone = await freshClone(ROOT, path.join(scratch, 'clone'));
  console.log(`fresh clone: git ${clone.seconds.clone.toFixed(1)} s, npm ci --offline ${clone.seconds.install.toFixed(1)} s, npm run build ${clone.seconds.build.toFixed(1)} s`);
  const home = path.join(scratch, 'home');
  mkdirSync(path.join(home, 'tmp'), { recursive: true });
  // A scratch HOME (Jupyter's user kernels, npm's logs) and TMPDIR; the npm cache stays the one `npm ci` read,
  // offline, so a documented `npm install` never asks a registry.
  env = environmentOutsideNpm({ HOME: home, TMPDIR: path.join(home, 'tmp'), npm_config_cache: cache, npm_config_offline: 'true', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' });
  for (const name of Object.keys(env)) if (/^(XDG_|JUPYTER_)/.test(name)) delete env[name];

  // The TypeScript examples, type-checked in one tsc run with the repository's compiler options.
  const examples = path.join(clone.dir, EXAMPLES_FOLDER);
  mkdirSync(examples, { recursive: true });
  for (const block of understood) if (['typescript', 'vitest', 'javascript'].includes(blockUse(block))) writeFileSync(path.join(examples, exampleFile(block)), block.text);
  for (const file of DOC_FILES) {
    const cells = understood.filter((block) => block.file === file && blockUse(block) === 'cell');
    if (cells.length === 0) continue;
    const program = notebookProgram(cells);
    notebookPrograms.set(file, program);
    writeFileSync(path.join(examples, cellsFile(file)), program.text);
  }
  writeFileSync(path.join(examples, 'tsconfig.json'), `${JSON.stringify({ extends: '../tsconfig.json', compilerOptions: { noEmit: true, incremental: false, declaration: false, rootDir: '.', moduleDetection: 'force' }, include: ['*.ts'] }, null, 2)}\n`);
  writeFileSync(path.join(examples, 'vitest.config.mjs'), 'export default { test: { include: ["*.test.ts"] } };\n');
  const checked = await runBounded(process.execPath, ['node_modules/typescript/bin/tsc', '-p', `${EXAMPLES_FOLDER}/tsconfig.json`], { cwd: clone.dir, env, timeoutMs: BLOCK_LIMIT_MS, keepChars: 1_000_000 });
  if (checked.timedOut) throw new Error(`tsc over the documented examples did not finish within ${BLOCK_LIMIT_MS / 1000} s`);
  for (const line of checked.output.split('\n')) {
    const [, file, at] = /^(?:doc-examples\/)?([^(/]+\.ts)\((\d+)/.exec(line) ?? [];
    if (file === undefined) continue;
    // A notebook program's lines are named by their Markdown line.
    const program = [...notebookPrograms].find(([markdown]) => cellsFile(markdown) === file)?.[1];
    const said = program === undefined ? line : `${program.origins[Number(at) - 1] ?? '?'}: ${line}`;
    diagnostics.set(file, [...(diagnostics.get(file) ?? []), said]);
  }
  if (checked.code !== 0 && diagnostics.size === 0) throw new Error(`tsc over the documented examples failed:\n${checked.output}`);
}, 10 * MINUTES);

afterAll(async () => {
  if (scratch) await removeTree(scratch);
});

/** What a failed block says: where it is written, how it ended, the tail of its output. */
function failure(block: DocBlock, result: BoundedResult): string {
  const ending = result.timedOut ? `did not finish within ${BLOCK_LIMIT_MS / 1000} s (killed)` : `exited ${result.code ?? result.signal} after ${result.seconds.toFixed(1)} s`;
  const tail = result.output.split('\n').slice(-40).join('\n');
  return `${block.file}:${block.line} (\`\`\`${block.info}) ${ending}; output tail:\n${tail}`;
}

async function runBlock(block: DocBlock): Promise<BoundedResult> {
  const use = blockUse(block);
  if (use === 'shell') {
    const script = path.join(scratch, `${exampleFile(block).replace(/\.ts$/, '')}.sh`);
    writeFileSync(script, `${block.text}\n`);
    return runBounded('bash', ['-e', '-o', 'pipefail', script], { cwd: clone.dir, env, timeoutMs: BLOCK_LIMIT_MS });
  }
  if (use === 'cell') {
    const program = path.join(clone.dir, EXAMPLES_FOLDER, cellsFile(block.file));
    return runBounded(process.execPath, ['--import', 'tsx', program], { cwd: path.join(clone.dir, path.dirname(block.file)), env, timeoutMs: BLOCK_LIMIT_MS });
  }
  const file = path.join(EXAMPLES_FOLDER, exampleFile(block));
  if (use === 'vitest') return runBounded(process.execPath, ['../node_modules/vitest/vitest.mjs', 'run', exampleFile(block)], { cwd: path.join(clone.dir, EXAMPLES_FOLDER), env, timeoutMs: BLOCK_LIMIT_MS });
  if (use === 'javascript') return runBounded(process.execPath, [file], { cwd: clone.dir, env, timeoutMs: BLOCK_LIMIT_MS });
  return runBounded(process.execPath, ['--import', 'tsx', file], { cwd: clone.dir, env, timeoutMs: BLOCK_LIMIT_MS });
}

describe('the documentation blocks', () => {
  it('each has a language and known markers (```sh, ```ts, ```text …; sh no-run, ts sketch, ts vitest, ts cell)', () => {
    const problems = BLOCKS.flatMap((block) => {
      const problem = infoStringProblem(block);
      return problem === undefined ? [] : [`${block.file}:${block.line}: ${problem}`];
    });
    const counts = DOC_FILES.map((file) => {
      const uses = understood.filter((block) => block.file === file).map(blockUse);
      const count = (wanted: BlockUse[]) => uses.filter((use) => wanted.includes(use)).length;
      const cells = count(['cell']) > 0 ? ` (${count(['cell'])} of them notebook cells, run as one program)` : '';
      return `${file}: ${count(EXECUTED)} run${cells}, ${count(['no-run'])} no-run, ${count(['sketch'])} sketch, ${count(['shown'])} shown`;
    });
    console.log(`documentation blocks (${BLOCKS.length}):\n${counts.join('\n')}`);
    expect(problems).toEqual([]);
  });
});

for (const file of DOC_FILES) {
  // A file's notebook cells are one test, at the place of its first cell.
  const firstCell = understood.find((block) => block.file === file && blockUse(block) === 'cell');
  const runnable = understood.filter((block) => block.file === file && EXECUTED.includes(blockUse(block)) && (blockUse(block) !== 'cell' || block === firstCell));
  if (runnable.length === 0) continue;
  describe(file, () => {
    for (const block of runnable) {
      const isCells = blockUse(block) === 'cell';
      const title = isCells ? `${block.file}:${block.line} the ts cell blocks, as one program` : `${block.file}:${block.line} \`\`\`${block.info}: ${block.text.split('\n')[0]!.slice(0, 60)}`;
      it(title, async () => {
        if (block.language === 'ts') expect(diagnostics.get(isCells ? cellsFile(block.file) : exampleFile(block)) ?? [], `${block.file}:${block.line} does not type-check`).toEqual([]);
        const result = await runBlock(block);
        expect(result.timedOut || result.code !== 0 ? failure(block, result) : 'exit 0').toBe('exit 0');
      }, BLOCK_LIMIT_MS + MINUTES);
    }
  });
}
