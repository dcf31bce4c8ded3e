// The benchmark suite (`npm run bench`): runs each benchmark script in its own child process, one after
// another, parses the JSON line each prints, and reports every figure side by side as a table and as JSON.
// Run: node --expose-gc --import tsx test/bench/run.ts [--quick] [--only NAME[,NAME]] [--out FILE]

import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_SUITE, type BenchMode, type SummaryRow } from './support/bench-suite.js';
import { formatTable } from './support/format-table.js';
import { lastJsonLine } from './support/last-json-line.js';
import { machineInfo } from './support/machine-info.js';
import { runChild } from './support/run-child.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface BenchOutcome {
  name: string;
  script: string;
  args: readonly string[];
  status: 'ok' | 'failed' | 'timeout' | 'skipped';
  exitCode: number | null;
  seconds: number;
  peakTreeRssMiB: number;
  result?: Record<string, unknown>;
  error?: string;
}

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string', multiple: true }, out: { type: 'string' } },
});
const mode: BenchMode = values.quick ? 'quick' : 'full';
const only = (values.only ?? []).flatMap((name) => name.split(',')).map((name) => name.trim()).filter(Boolean);
const unknown = only.filter((name) => !BENCH_SUITE.some((bench) => bench.name === name));
if (unknown.length > 0) {
  console.error(`unknown bench ${unknown.join(', ')}; one of: ${BENCH_SUITE.map((bench) => bench.name).join(', ')}`);
  process.exit(2);
}
const outFile = path.resolve(values.out ?? path.join(os.tmpdir(), 'bench-results.json'));
const selected = BENCH_SUITE.filter((bench) => only.length === 0 || only.includes(bench.name));
const machine = machineInfo(ROOT, selected.map((bench) => bench.script));
console.error(`rdw bench (${mode}): ${selected.map((bench) => bench.name).join(', ')}; ${machine.nproc} CPUs, ${machine.memoryGiB} GiB, node ${machine.node}, load ${machine.loadAverage1m}`);

// 1. Each bench in its own process, one at a time (so they never compete for the two cores).
const suiteStarted = performance.now();
const outcomes: BenchOutcome[] = [];
const summary: SummaryRow[] = [];
for (const bench of selected) {
  const args = bench.args[mode];
  if (!only.includes(bench.name) && !(bench.runsIn ?? ['quick', 'full']).includes(mode)) {
    outcomes.push({ name: bench.name, script: bench.script, args: [], status: 'skipped', exitCode: null, seconds: 0, peakTreeRssMiB: 0 });
    summary.push({ bench: bench.name, figure: `skipped in ${mode} mode`, value: '-', detail: `run with --only ${bench.name}` });
    continue;
  }
  console.error(`\n== ${bench.name}: ${bench.script} ${args.join(' ')} (budget ${bench.budgetSeconds[mode]} s)`);
  const run = await runChild(process.execPath, ['--expose-gc', '--import', 'tsx', bench.script, ...args], {
    cwd: ROOT,
    env: { ...process.env, RDW_BASE_URL: undefined, RDW_API_KEY: undefined, FORCE_COLOR: '0' },
    timeoutSeconds: bench.budgetSeconds[mode],
  });
  const result = lastJsonLine(run.stdout);
  const outcome: BenchOutcome = {
    name: bench.name,
    script: bench.script,
    args,
    status: run.timedOut ? 'timeout' : run.code === 0 && result !== undefined ? 'ok' : 'failed',
    exitCode: run.code,
    seconds: Number(run.seconds.toFixed(2)),
    peakTreeRssMiB: run.peakTreeRssMiB,
    ...(result === undefined ? {} : { result }),
  };
  if (outcome.status !== 'ok') {
    const why = run.timedOut ? `over its ${bench.budgetSeconds[mode]} s budget` : run.spawnError ?? (result === undefined && run.code === 0 ? 'no JSON line on stdout' : `exit ${run.code ?? run.signal}`);
    // The last error line the script printed (not its stack), else its last line.
    const lines = run.stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('at ') && !line.startsWith('Node.js '));
    const tail = [...lines].reverse().find((line) => /error/i.test(line)) ?? lines.at(-1) ?? '';
    outcome.error = `${why}${tail ? `: ${tail}` : ''}`.slice(0, 600);
    summary.push({ bench: bench.name, figure: outcome.status.toUpperCase(), value: '-', detail: outcome.error.slice(0, 160) });
    // What finished before the failure, when the script printed progress the spec can read.
    let partial: Record<string, unknown> | undefined;
    try {
      partial = bench.partial?.(run.stdout, run.stderr);
      if (partial !== undefined) {
        outcome.result = partial;
        summary.push(...bench.summarize(partial).map((row) => ({ ...row, figure: `${row.figure} (finished before the ${outcome.status})` })));
      }
    } catch {
      // no usable partial result
    }
  } else {
    try {
      summary.push(...bench.summarize(result!));
    } catch (error) {
      outcome.status = 'failed';
      outcome.error = `unexpected JSON shape: ${(error as Error).message}`;
      summary.push({ bench: bench.name, figure: 'FAILED (output shape)', value: '-', detail: outcome.error });
    }
  }
  outcomes.push(outcome);
  console.error(`== ${bench.name}: ${outcome.status} in ${outcome.seconds} s (peak tree RSS ${outcome.peakTreeRssMiB} MiB)`);
}
const totalSeconds = (performance.now() - suiteStarted) / 1000;

// 2. The figures side by side, then the run per bench, then the JSON file.
console.log(`\nrdw benchmark suite (${mode}), ${machine.date}: ${machine.nproc} x ${machine.cpuModel}, ${machine.memoryGiB} GiB, node ${machine.node}, git ${machine.gitHead}${machine.uncommitted > 0 ? ` + ${machine.uncommitted} uncommitted` : ''}, load at start ${machine.loadAverage1m}\n`);
console.log(formatTable(['bench', 'figure', 'value', 'detail'], summary.map((row) => [row.bench, row.figure, row.value, row.detail]), 'llrl'));
console.log('');
console.log(formatTable(['bench', 'status', 'wall s', 'peak RSS MiB (tree)', 'args'], outcomes.map((o) => [o.name, o.status, o.seconds.toFixed(1), o.peakTreeRssMiB, o.args.join(' ')])));
console.log(`\ntotal ${totalSeconds.toFixed(1)} s; results in ${outFile}`);
const report = { suite: 'rdw-bench', mode, totalSeconds: Number(totalSeconds.toFixed(2)), machine, summary, benches: outcomes };
await writeFile(outFile, `${JSON.stringify(report, null, 2)}\n`);
console.log(JSON.stringify({ suite: 'rdw-bench', mode, totalSeconds: report.totalSeconds, out: outFile, failed: outcomes.filter((o) => o.status === 'failed' || o.status === 'timeout').map((o) => o.name) }));
process.exitCode = outcomes.some((o) => o.status === 'failed' || o.status === 'timeout') ? 1 : 0;
