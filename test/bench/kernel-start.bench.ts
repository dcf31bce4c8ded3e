// Benchmark: notebook kernel cold start to first result. Registers tslab in a temp prefix (as the notebook
// tests do), then (1) times nbconvert end to end on a one-cell notebook that imports ../dist/index.js,
// opens DuckDB in memory and prints a number, and (2) splits kernel start from first result with
// jupyter_client. Run: node --import tsx test/bench/kernel-start.bench.ts [--rounds 3]   (needs dist/)
// Without Jupyter it fails under CI=true (or RDW_REQUIRE_JUPYTER=1) and otherwise reports itself skipped.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';
import { findJupyterPython, installTslabKernel, JUPYTER_PACKAGES, REPO_ROOT, type TslabKernelFolder } from '../support/jupyter.js';
import { formatTable } from './support/format-table.js';

const run = promisify(execFile);
const roundsIndex = process.argv.indexOf('--rounds');
const ROUNDS = roundsIndex >= 0 ? Number(process.argv[roundsIndex + 1]) : 3;
const EXPECTED = '42';

/** The one cell: the package root, DuckDB in memory, one number printed. */
const CELL = [
  "import * as rdw from '../dist/index.js';",
  "import { DuckDBInstance } from '@duckdb/node-api';",
  "const instance = await DuckDBInstance.create(':memory:');",
  'const connection = await instance.connect();',
  "const reader = await connection.runAndReadAll('SELECT 6 * 7 AS answer');",
  "console.log(typeof rdw.openCatalog === 'function' ? String(reader.getRowObjectsJS()[0]!.answer) : 'no rdw');",
].join('\n');

const NOTEBOOK = {
  cells: [{ cell_type: 'code', execution_count: null, id: 'bench', metadata: {}, outputs: [], source: CELL }],
  metadata: { kernelspec: { display_name: 'TypeScript', language: 'typescript', name: 'tslab' } },
  nbformat: 4,
  nbformat_minor: 5,
};

/** jupyter_client: seconds to a ready kernel, then to the cell's first printed output; one JSON line. */
const DRIVER = `
import json, sys, time
from jupyter_client.manager import start_new_kernel
code = open(sys.argv[1]).read()
t0 = time.perf_counter()
km, kc = start_new_kernel(kernel_name='tslab', startup_timeout=120)
t1 = time.perf_counter()
msg_id = kc.execute(code)
first, text, status = None, '', 'ok'
while True:
    msg = kc.get_iopub_msg(timeout=120)
    if msg['parent_header'].get('msg_id') != msg_id: continue
    kind = msg['msg_type']
    if kind == 'stream':
        first = first or time.perf_counter(); text += msg['content']['text']
    elif kind == 'error': status = 'error'; text += msg['content']['evalue']
    elif kind == 'status' and msg['content']['execution_state'] == 'idle': break
t2 = time.perf_counter()
kc.stop_channels(); km.shutdown_kernel(now=True)
print(json.dumps({'kernelReadySeconds': t1 - t0, 'firstOutputSeconds': (first or t2) - t1, 'cellIdleSeconds': t2 - t1, 'totalSeconds': t2 - t0, 'text': text.strip(), 'status': status}))
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function main(): Promise<void> {
  const python = await findJupyterPython();
  if (python === undefined) {
    const missing = `Jupyter not found: apt-get install ${JUPYTER_PACKAGES}`;
    if (process.env.CI === 'true' || process.env.RDW_REQUIRE_JUPYTER === '1') throw new Error(missing);
    console.log(JSON.stringify({ benchmark: 'kernel-start', skipped: missing }));
    return;
  }
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'index.js'))) throw new Error('dist/index.js missing: run npm run build first');

  const scratch = await makeTemporaryFolder('rdw-kernel-bench-');
  let kernel: TslabKernelFolder | undefined;
  const nbconvert: number[] = [];
  const split: { kernelReadySeconds: number; firstOutputSeconds: number; totalSeconds: number }[] = [];
  let registerSeconds = 0;
  try {
    // 1. A scratch project: notebooks/ next to symlinks to dist/ and node_modules/, so '../dist/index.js'
    // and '@duckdb/node-api' resolve exactly as in the repo's notebooks.
    await symlink(path.join(REPO_ROOT, 'dist'), path.join(scratch, 'dist'));
    await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(scratch, 'node_modules'));
    await mkdir(path.join(scratch, 'notebooks'));
    const notebook = path.join(scratch, 'notebooks', 'kernel-start.ipynb');
    await writeFile(notebook, JSON.stringify(NOTEBOOK));
    await writeFile(path.join(scratch, 'cell.ts'), CELL);
    await writeFile(path.join(scratch, 'driver.py'), DRIVER);
    const registerStarted = performance.now();
    kernel = await installTslabKernel(python);
    registerSeconds = (performance.now() - registerStarted) / 1000;
    // Jupyter's and IPython's own folders (connection files, config, `migrated`) in the scratch folder, not in
    // ~/.local/share/jupyter, ~/.jupyter or ~/.ipython: the bench writes nothing in the home folder.
    const env = {
      ...process.env,
      JUPYTER_PATH: kernel.dataDir,
      JUPYTER_RUNTIME_DIR: path.join(scratch, 'jupyter-runtime'),
      JUPYTER_CONFIG_DIR: path.join(scratch, 'jupyter-config'),
      IPYTHONDIR: path.join(scratch, 'ipython'),
      PYDEVD_DISABLE_FILE_VALIDATION: '1',
      RDW_BASE_URL: '',
      RDW_API_KEY: '',
    };

    for (let round = 0; round < ROUNDS; round += 1) {
      // 2. nbconvert end to end (Python start, kernel start, the cell, shutdown, the output written).
      const out = path.join(scratch, `out-${round}`);
      let started = performance.now();
      await run(python, ['-m', 'nbconvert', '--to', 'notebook', '--execute', '--ExecutePreprocessor.timeout=300', '--output-dir', out, notebook], {
        cwd: path.dirname(notebook),
        env,
      });
      nbconvert.push((performance.now() - started) / 1000);
      const executed = JSON.parse(await readFile(path.join(out, 'kernel-start.ipynb'), 'utf8')) as { cells: { outputs: { text?: string | string[] }[] }[] };
      const printed = [executed.cells[0]?.outputs[0]?.text ?? ''].flat().join('').trim();
      if (printed !== EXPECTED) throw new Error(`nbconvert cell printed ${JSON.stringify(printed)}, expected ${EXPECTED}`);

      // 3. The same cell through jupyter_client: kernel ready vs first output.
      started = performance.now();
      const { stdout } = await run(python, [path.join(scratch, 'driver.py'), path.join(scratch, 'cell.ts')], { cwd: path.dirname(notebook), env });
      const timing = JSON.parse(stdout.trim().split('\n').at(-1)!) as { kernelReadySeconds: number; firstOutputSeconds: number; totalSeconds: number; text: string; status: string };
      if (timing.status !== 'ok' || timing.text !== EXPECTED) throw new Error(`kernel cell printed ${JSON.stringify(timing.text)} (${timing.status})`);
      split.push(timing);
      console.error(`round ${round + 1}: nbconvert ${nbconvert.at(-1)!.toFixed(2)} s; kernel ready ${timing.kernelReadySeconds.toFixed(2)} s, first output +${timing.firstOutputSeconds.toFixed(2)} s`);
    }
  } finally {
    // Each folder removes only itself (the scratch's dist/ and node_modules/ are links: removed as links).
    try {
      await removeTree(scratch);
    } finally {
      await kernel?.dispose();
    }
  }

  const result = {
    benchmark: 'kernel-start',
    rounds: ROUNDS,
    registerSeconds: Number(registerSeconds.toFixed(2)),
    nbconvertSeconds: Number(median(nbconvert).toFixed(2)),
    kernelReadySeconds: Number(median(split.map((s) => s.kernelReadySeconds)).toFixed(2)),
    firstOutputSeconds: Number(median(split.map((s) => s.firstOutputSeconds)).toFixed(2)),
    coldStartToFirstResultSeconds: Number(median(split.map((s) => s.kernelReadySeconds + s.firstOutputSeconds)).toFixed(2)),
    allNbconvertSeconds: nbconvert.map((s) => Number(s.toFixed(2))),
  };
  console.log(
    formatTable(
      ['measure (median of rounds)', 'seconds'],
      [
        ['tslab kernel registration (once)', result.registerSeconds],
        ['nbconvert end to end (one cell)', result.nbconvertSeconds],
        ['kernel start to ready', result.kernelReadySeconds],
        ['ready to first result (import, DuckDB, print)', result.firstOutputSeconds],
        ['kernel cold start to first result', result.coldStartToFirstResultSeconds],
      ],
    ),
  );
  console.log(JSON.stringify(result));
}

await main();
