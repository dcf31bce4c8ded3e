// Benchmark: calibration of rdw's own statistics on simulated markets whose truth is known (issue 28 item 2).
// Run: node --import tsx test/bench/calibration.bench.ts [--quick] [--explore] [--markets N] [--truth-markets M]
//   [--days D] [--lengths 60,180] [--cache DIR] [--out FILE] [--write]
// --explore: the event-study interval's coverage from per-day totals under a grid of block-jackknife constants
// and for the day bootstrap before issue 28 (support/calibration-explore.ts).

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execFileSync } from 'node:child_process';
import { BLOCK_WINDOW_MULTIPLE, MIN_INTERVAL_BLOCKS } from '../../src/analysis/block-jackknife.js';
import { exploreTable, runExplore } from './support/calibration-explore-run.js';
import { measure } from './support/calibration-measure.js';
import { calibrationMarkdown, writeCalibration, type CalibrationRun } from './support/calibration-outputs.js';
import { summarize } from './support/calibration-summary.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    explore: { type: 'boolean', default: false },
    markets: { type: 'string' },
    'truth-markets': { type: 'string' },
    days: { type: 'string' },
    lengths: { type: 'string' },
    cache: { type: 'string' },
    out: { type: 'string' },
    write: { type: 'boolean', default: false },
    'model-truth-markets': { type: 'string' },
  },
});

const seedRange = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function explore(): Promise<void> {
  const markets = Number(values.markets ?? (values.quick ? 3 : 50));
  const truthMarkets = Number(values['truth-markets'] ?? (values.quick ? 3 : 50));
  const days = Number(values.days ?? (values.quick ? 60 : 180));
  const lengths = (values.lengths ?? (values.quick ? '60' : '60,180')).split(',').map(Number);
  const result = await runExplore({ seeds: seedRange(1001, markets), truthSeeds: seedRange(9001, truthMarkets), days, lengths, cacheDir: values.cache, log });
  log(exploreTable(result));
  if (values.out) {
    await mkdir(path.dirname(path.resolve(values.out)), { recursive: true });
    await writeFile(values.out, `${JSON.stringify(result, null, 1)}\n`);
  }
  console.log(JSON.stringify({ benchmark: 'calibration', mode: 'explore', ...result }));
}

/** The real event study and model evaluation over seeded markets, against the truth (support/calibration-measure.ts). */
async function calibrate(): Promise<void> {
  const quick = values.quick;
  const markets = Number(values.markets ?? (quick ? 2 : 50));
  const truthMarkets = Number(values['truth-markets'] ?? (quick ? 2 : 50));
  const modelTruthMarkets = Number(values['model-truth-markets'] ?? (quick ? 1 : 3));
  const days = Number(values.days ?? (quick ? 30 : 180));
  const lengths = (values.lengths ?? (quick ? '30' : '60,180')).split(',').map(Number);
  const started = performance.now();
  const measurement = await measure({ seeds: seedRange(1001, markets), truthSeeds: seedRange(9001, truthMarkets), modelTruthMarkets, days, lengths, cacheDir: values.cache, log });
  const summary = summarize(measurement, lengths);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const run: CalibrationRun = {
    markets,
    truthMarkets,
    modelTruthMarkets,
    modelTruthRows: measurement.modelTruthRows,
    simulatedDays: days,
    measuredOn: new Date().toISOString().slice(0, 10),
    commit,
    blockWindowMultiple: BLOCK_WINDOW_MULTIPLE,
    minIntervalBlocks: MIN_INTERVAL_BLOCKS,
    summary,
  };
  log(calibrationMarkdown(run));
  if (measurement.errors.length > 0) log(`errors (${measurement.errors.length}):\n${measurement.errors.slice(0, 20).join('\n')}`);
  if (values.write) await writeCalibration(ROOT, run);
  if (values.out) {
    await mkdir(path.dirname(path.resolve(values.out)), { recursive: true });
    await writeFile(values.out, `${JSON.stringify({ run, truth: Object.fromEntries(Object.entries(measurement.eventTruth).map(([d, t]) => [d, Object.fromEntries(t)])), events: measurement.events, models: measurement.models }, null, 1)}\n`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ benchmark: 'calibration', mode: quick ? 'quick' : 'full', seconds, errors: measurement.errors.length, timing: measurement.seconds, ...run }));
}

if (values.explore) await explore();
else await calibrate();
