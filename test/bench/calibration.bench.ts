// Benchmark: calibration of rdw's own statistics on simulated markets whose truth is known (issue 28 item 2).
// Run: node --import tsx test/bench/calibration.bench.ts [--quick] [--explore] [--markets N] [--truth-markets M]
//   [--model-truth-markets K] [--days D] [--lengths 60,180] [--cache DIR] [--out FILE] [--write] [--from FILE]
//   [--first-seed S] (study markets S, S+1, …; default 1001) [--splits purged-k-fold,walk-forward] (the model
//   studies' split methods; default both, --quick purged-k-fold) [--pooled-difference cross-fold|nested]
//   (evaluateModel's experimental pooled Δ log loss intervals on purged k-fold; their records are tallied against
//   their estimands)
// --write: regenerate src/analysis/interval-calibration.ts and the docs/analysis.md table; --from FILE: re-tally a
// saved --out file instead of measuring (with --truth-markets N --cache DIR: against the event truth of N truth markets).
// --explore: the event-study interval's coverage from per-day totals under a grid of block-jackknife constants
// and for the day bootstrap before issue 28 (support/calibration-explore.ts).

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execFileSync } from 'node:child_process';
import { BLOCK_WINDOW_MULTIPLE, MIN_INTERVAL_BLOCKS } from '../../src/analysis/block-jackknife.js';
import { POOLED_DIFFERENCE_METHODS, type PooledDifferenceMethod } from '../../src/contract/index.js';
import { CALIBRATION_SPLITS, measure, type CalibrationSplit, type Measurement } from './support/calibration-measure.js';
import { calibrationMarkdown, writeCalibration, type CalibrationRun } from './support/calibration-outputs.js';
import { fillPooledOverFolds } from './support/calibration-pooled.js';
import { mergeSavedRuns } from './support/calibration-saved.js';
import { truthOf, type MarketTotals } from './support/calibration-explore.js';
import { marketTotals } from './support/calibration-totals-cache.js';
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
    from: { type: 'string' },
    'first-seed': { type: 'string' },
    splits: { type: 'string' },
    'pooled-difference': { type: 'string' },
  },
});

/**
 * The last commit that changed the interval code (the event study's in src/analysis, the model's in src/modelling;
 * the generated calibration module aside): what a run measured.
 */
const analysisCommit = () =>
  execFileSync('git', ['log', '-1', '--format=%h', '--', 'src/analysis', 'src/modelling', ':!src/analysis/interval-calibration.ts'], { cwd: ROOT, encoding: 'utf8' }).trim();

const seedRange = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function explore(): Promise<void> {
  // Loaded only here: the exploration compares with the day bootstrap that issue 28 removed from src/analysis.
  const { exploreMarkdown, exploreTable, runExplore } = await import('./support/calibration-explore-run.js');
  const markets = Number(values.markets ?? (values.quick ? 3 : 50));
  const truthMarkets = Number(values['truth-markets'] ?? (values.quick ? 3 : 40));
  const days = Number(values.days ?? (values.quick ? 60 : 180));
  const lengths = (values.lengths ?? (values.quick ? '60' : '60,180')).split(',').map(Number);
  const result = await runExplore({ seeds: seedRange(Number(values['first-seed'] ?? 1001), markets), truthSeeds: seedRange(9001, truthMarkets), days, lengths, cacheDir: values.cache, log });
  log(exploreTable(result));
  if (values.out) {
    await writeFile(values.out.replace(/\.json$/, '.md'), `${exploreMarkdown(result)}\n`);
    await mkdir(path.dirname(path.resolve(values.out)), { recursive: true });
    await writeFile(values.out, `${JSON.stringify(result, null, 1)}\n`);
  }
  console.log(JSON.stringify({ benchmark: 'calibration', mode: 'explore', ...result }));
}

/** The event truth of each market length pooled over `seeds` (their per-day totals, cached under --cache). */
async function eventTruthOf(seeds: readonly number[], days: number, lengths: readonly number[]) {
  const markets: MarketTotals[] = [];
  for (const seed of seeds) markets.push(await marketTotals(seed, days, values.cache));
  return Object.fromEntries(lengths.map((length) => [length, truthOf(markets, length)]));
}

/** Re-tallies a saved run (--out of an earlier run) with the current summary and writers: --from FILE [--write]. */
async function fromSaved(files: string): Promise<void> {
  // Several files (comma-separated, runs of other seeds with the same truth): their records together.
  const all = await Promise.all(files.split(',').map(async (file) => JSON.parse(await readFile(file, 'utf8'))));
  const saved = mergeSavedRuns(all);
  const file = files;
  const lengths: number[] = saved.run.summary.map((length: { days: number }) => length.days);
  // A run recorded before the pooled row showed an interval: filled from its folds as the current code computes it.
  const pooled = fillPooledOverFolds(saved.models);
  if (pooled.recomputed > 0) log(`pooled rows whose intervals were recomputed from their recorded folds: ${pooled.recomputed}`);
  // --truth-markets N with --cache: the event truth pooled over N truth markets from their cached per-day totals
  // (built and cached when absent) instead of the saved run's; the records' intervals are unchanged.
  const truthMarkets = values['truth-markets'] === undefined ? undefined : Number(values['truth-markets']);
  const eventTruth =
    truthMarkets === undefined
      ? Object.fromEntries(Object.entries(saved.truth).map(([days, t]) => [days, new Map(Object.entries(t as object))]))
      : await eventTruthOf(seedRange(9001, truthMarkets), saved.run.simulatedDays as number, lengths);
  const measurement = {
    events: saved.events,
    models: pooled.models,
    eventTruth,
    modelTruthRows: saved.run.modelTruthRows,
    errors: [],
    seconds: { truth: 0, study: 0 },
  };
  // The interval code is today's only where pooled rows were recomputed; otherwise the runs' own.
  const talliedAt = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const run: CalibrationRun = {
    ...saved.run,
    ...(truthMarkets === undefined ? {} : { truthMarkets }),
    commit: saved.commits.join(', '),
    analysisCommit: pooled.recomputed > 0 ? analysisCommit() : saved.analysisCommits.join(', '),
    pooledRecomputed: pooled.recomputed,
    talliedAt,
    markets: new Set(saved.events.map((e: { seed: number }) => e.seed)).size,
    summary: summarize(measurement, lengths),
  };
  log(calibrationMarkdown(run));
  if (values.write) await writeCalibration(ROOT, run);
  console.log(JSON.stringify({ benchmark: 'calibration', mode: 'from', file, ...run }));
}

/** The real event study and model evaluation over seeded markets, against the truth (support/calibration-measure.ts). */
async function calibrate(): Promise<void> {
  const quick = values.quick;
  const markets = Number(values.markets ?? (quick ? 2 : 50));
  const truthMarkets = Number(values['truth-markets'] ?? (quick ? 1 : 40));
  const modelTruthMarkets = Number(values['model-truth-markets'] ?? (quick ? 1 : 3));
  const days = Number(values.days ?? (quick ? 30 : 180));
  const lengths = (values.lengths ?? (quick ? '30' : '60,180')).split(',').map(Number);
  const started = performance.now();
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  // Once, at the start: the code this process loaded (later commits during a long run are not what it measured).
  const measuredAnalysisCommit = analysisCommit();
  const runOf = (measurement: Measurement, markets: number): CalibrationRun => ({
    markets,
    truthMarkets,
    modelTruthMarkets,
    modelTruthRows: measurement.modelTruthRows,
    simulatedDays: days,
    measuredOn: new Date().toISOString().slice(0, 10),
    commit,
    analysisCommit: measuredAnalysisCommit,
    blockWindowMultiple: BLOCK_WINDOW_MULTIPLE,
    minIntervalBlocks: MIN_INTERVAL_BLOCKS,
    summary: summarize(measurement, lengths),
  });
  // The records so far, after every market (a run stopped early can be re-tallied with --from).
  const save = async (measurement: Measurement, run: CalibrationRun) => {
    if (!values.out) return;
    await mkdir(path.dirname(path.resolve(values.out)), { recursive: true });
    const truth = Object.fromEntries(Object.entries(measurement.eventTruth).map(([d, t]) => [d, Object.fromEntries(t)]));
    await writeFile(values.out, `${JSON.stringify({ run, truth, events: measurement.events, models: measurement.models, errors: measurement.errors })}\n`);
  };
  const splits = (values.splits ?? (quick ? 'purged-k-fold' : 'purged-k-fold,walk-forward')).split(',') as CalibrationSplit[];
  const unknown = splits.filter((split) => !CALIBRATION_SPLITS.includes(split));
  if (unknown.length > 0) throw new Error(`--splits: ${unknown.join(', ')} is not one of ${CALIBRATION_SPLITS.join(', ')}`);
  const pooledDifference = values['pooled-difference'] as PooledDifferenceMethod | undefined;
  if (pooledDifference !== undefined && !POOLED_DIFFERENCE_METHODS.includes(pooledDifference)) {
    throw new Error(`--pooled-difference: ${pooledDifference} is not one of ${POOLED_DIFFERENCE_METHODS.join(', ')}`);
  }
  const measurement = await measure({
    splits,
    ...(pooledDifference ? { pooledDifference } : {}),
    seeds: seedRange(Number(values['first-seed'] ?? 1001), markets),
    truthSeeds: seedRange(9001, truthMarkets),
    modelTruthMarkets,
    days,
    lengths,
    cacheDir: values.cache,
    log,
    onMarket: async (partial) => save(partial, runOf(partial, new Set(partial.events.map((e) => e.seed)).size)),
  });
  const run = runOf(measurement, markets);
  log(calibrationMarkdown(run));
  if (measurement.errors.length > 0) log(`errors (${measurement.errors.length}):\n${measurement.errors.slice(0, 20).join('\n')}`);
  if (values.write) await writeCalibration(ROOT, run);
  await save(measurement, run);
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ benchmark: 'calibration', mode: quick ? 'quick' : 'full', seconds, errors: measurement.errors.length, timing: measurement.seconds, ...run }));
}

if (values.explore) await explore();
else if (values.from) await fromSaved(values.from);
else await calibrate();
