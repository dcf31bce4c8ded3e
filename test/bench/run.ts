// The benchmark suite (`npm run bench`): runs each benchmark script in its own child process, one after
// another, parses the JSON line each prints, and reports every figure side by side as a table and as JSON.
// Run: node --expose-gc --import tsx test/bench/run.ts [--quick] [--only NAME[,NAME]] [--out FILE]

import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_SUITE, type BenchMode, type SummaryRow } from './support/bench-suite.js';
import { formatTable } from './support/format-table.js';
import { machineInfo } from './support/machine-info.js';
import { runBench, type BenchOutcome } from './support/run-bench.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

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
  const { outcome, rows } = await runBench(bench, mode, { root: ROOT, only });
  outcomes.push(outcome);
  summary.push(...rows);
}
const totalSeconds = (performance.now() - suiteStarted) / 1000;

// 2. The figures side by side, then the run per bench, then the JSON file.
console.log(`\nrdw benchmark suite (${mode}), ${machine.date}: ${machine.nproc} x ${machine.cpuModel}, ${machine.memoryGiB} GiB, node ${machine.node}, git ${machine.gitHead}${machine.uncommitted > 0 ? ` + ${machine.uncommitted} uncommitted` : ''}, load at start ${machine.loadAverage1m}\n`);
console.log(formatTable(['bench', 'figure', 'value', 'detail'], summary.map((row) => [row.bench, row.figure, row.value, row.detail]), 'llrl'));
console.log('');
console.log(formatTable(['bench', 'status', 'wall s', 'peak RSS MiB (tree)', 'args'], outcomes.map((o) => [o.name, o.status, o.seconds.toFixed(1), o.peakTreeRssMiB, o.args.join(' ')])));
// A failure in full: the table row keeps only its start.
for (const failed of outcomes.filter((o) => o.status === 'failed' || o.status === 'timeout')) console.log(`\n${failed.status.toUpperCase()} ${failed.name}: ${failed.error}`);
console.log(`\ntotal ${totalSeconds.toFixed(1)} s; results in ${outFile}`);
const report = { suite: 'rdw-bench', mode, totalSeconds: Number(totalSeconds.toFixed(2)), machine, summary, benches: outcomes };
await writeFile(outFile, `${JSON.stringify(report, null, 2)}\n`);
console.log(JSON.stringify({ suite: 'rdw-bench', mode, totalSeconds: report.totalSeconds, out: outFile, failed: outcomes.filter((o) => o.status === 'failed' || o.status === 'timeout').map((o) => o.name) }));
process.exitCode = outcomes.some((o) => o.status === 'failed' || o.status === 'timeout') ? 1 : 0;
