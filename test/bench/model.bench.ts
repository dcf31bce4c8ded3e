// Benchmark (issue 20 speed target): splits and the logistic baseline over 1,100 simulated days (≈ 540k rows, 5
// folds) in under 10 s and 1 GiB. modelCatalog() end to end, then its parts, each in a fresh process.
// Run: node --expose-gc --import tsx test/bench/model.bench.ts [--days 1100] [--seed 1] [--runs 1] [--no-compile]
// The catalog is the event-study bench's synthetic one (support/synthetic-catalog.ts, cached under os.tmpdir()).

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { quoteIdentifier } from '../../src/base/index.js';
import type { ModelSpec } from '../../src/analysis/index.js';
import type { FeatureMatrix, Model, ModelStudyOptions, TimeSplits } from '../../src/modelling/index.js';
import { readColumns } from '../../src/modelling/read-columns.js';
import { formatTable } from './support/format-table.js';
import { syntheticCatalog } from './support/synthetic-catalog.js';

/** The target, per scenario: wall seconds of modelCatalog() and peak RSS of its process. */
const TARGET = { seconds: 10, rssMiB: 1024 };

type SpecName = 'default' | 'all-rows';
interface Scenario {
  spec: SpecName;
  split: 'purged-k-fold' | 'walk-forward';
}
const SCENARIOS: Record<string, Scenario> = {
  'default spec (event rows), purged k-fold': { spec: 'default', split: 'purged-k-fold' },
  'default spec (event rows), walk-forward': { spec: 'default', split: 'walk-forward' },
  'all rows: up_1h on return_pct_1h ~ volume_ratio_20 + taker_buy_fraction, purged k-fold': { spec: 'all-rows', split: 'purged-k-fold' },
  'all rows: same, walk-forward': { spec: 'all-rows', split: 'walk-forward' },
};

async function scenarioOptions(scenario: Scenario): Promise<ModelStudyOptions> {
  const { defineModelSpec, derivedFeature } = await import('../../src/analysis/index.js');
  const split = { method: scenario.split } as const;
  if (scenario.spec === 'default') return { split };
  // sampleType undefined: event and control rows, as the issue's ≈ 540k rows.
  const spec = defineModelSpec({
    target: derivedFeature('up_1h', ['return_pct_1h'], 'CASE WHEN return_pct_1h IS NULL THEN NULL WHEN return_pct_1h > 0 THEN 1 ELSE 0 END'),
    predictors: ['volume_ratio_20', 'taker_buy_fraction'],
  });
  return { spec, split };
}

const peakRssMiB = () => process.resourceUsage().maxRSS / 1024;
const since = (started: number) => (performance.now() - started) / 1000;

// Child mode `--end-to-end HOME NAME`: modelCatalog() alone, timed, with this process's peak RSS.
async function endToEnd(home: string, name: string): Promise<void> {
  const { modelCatalog } = await import('../../src/modelling/index.js');
  const { openCatalog } = await import('../../src/catalog/index.js');
  const options = await scenarioOptions(SCENARIOS[name]!);
  const catalog = await openCatalog(home, { readOnly: true });
  const rssBefore = peakRssMiB();
  const started = performance.now();
  const result = await modelCatalog(catalog, options);
  const seconds = since(started);
  const peak = peakRssMiB();
  await catalog.close();
  const { pooled } = result.evaluation;
  process.stdout.write(
    `${JSON.stringify({
      scenario: name,
      seconds,
      peakRssMiB: peak,
      rssBeforeMiB: rssBefore,
      heapUsedMiB: process.memoryUsage().heapUsed / 2 ** 20,
      total: result.splits.total,
      rows: result.splits.rows.sampleTime.length,
      scored: pooled.rows,
      trainRows: result.evaluation.folds.map((fold) => fold.trainRows),
      auc: pooled.model.auc,
      aucInterval: pooled.intervals.model.auc,
      logLossDifference: pooled.logLossDifference,
    })}\n`,
  );
}

/** A model that adds the seconds spent in fit and predict to `clock`. */
function timedModel(inner: Model, clock: { fit: number; predict: number }): Model {
  return {
    name: inner.name,
    fit(x: FeatureMatrix, y: Float64Array) {
      const started = performance.now();
      inner.fit(x, y);
      clock.fit += since(started);
    },
    predict(x: FeatureMatrix) {
      const started = performance.now();
      const p = inner.predict(x);
      clock.predict += since(started);
      return p;
    },
  };
}

// Child mode `--parts HOME NAME`: the steps of modelStudy one by one, each timed: splits; the predictors and
// target of the split rows (the same query and reader as modelStudy's step 3); evaluateModel (fits, predictions,
// scores and their block-jackknife intervals), cold as in modelCatalog; then the scoring and intervals alone:
// evaluateModel's time minus the fits and predictions.
async function parts(home: string, name: string): Promise<void> {
  const analysis = await import('../../src/analysis/index.js');
  const modelling = await import('../../src/modelling/index.js');
  const { openCatalog, readMarketEvents } = await import('../../src/catalog/index.js');
  const scenario = SCENARIOS[name]!;
  const options = await scenarioOptions(scenario);
  const spec: ModelSpec = options.spec ?? modelling.defaultModelSpec('1h');
  const sampleType = options.spec === undefined ? 'event' : undefined;
  const catalog = await openCatalog(home, { readOnly: true });
  const figures = await readMarketEvents(catalog, async (source) => {
    // 1. splits
    let started = performance.now();
    const splitOptions = { window: '1h', sampleType } as const;
    const splits: TimeSplits =
      scenario.split === 'walk-forward' ? await modelling.walkForwardSplits(source, splitOptions) : await modelling.purgedKFoldSplits(source, splitOptions);
    const splitSeconds = since(started);
    // 2. predictors and target
    started = performance.now();
    const resolved = analysis.toAnalysisSource(source);
    const columnsSql = spec.features.predictors.map((p) => `(${typeof p === 'string' ? quoteIdentifier(p) : p.sql})::DOUBLE`);
    const target = typeof spec.target === 'string' ? quoteIdentifier(spec.target) : spec.target.sql;
    const values = await readColumns(
      resolved.connection,
      `SELECT ${columnsSql.join(', ')}, (${target})::DOUBLE
      FROM ${modelling.classifiedSplitRowsSql(resolved, '1h', undefined, { sampleType })} WHERE reason IS NULL ORDER BY ${modelling.SPLIT_ROW_ORDER_SQL}`,
      [...columnsSql.map(() => 'number' as const), 'number'],
    );
    const readSeconds = since(started);
    const data = {
      columns: Object.fromEntries(spec.features.names.map((column, j) => [column, values[j]!])),
      target: values.at(-1)!,
      dayIndex: splits.rows.dayIndex,
    };
    // 3. fits, predictions, scores and intervals (cold, as in modelCatalog)
    const clock = { fit: 0, predict: 0 };
    const model = () => timedModel(new modelling.LogisticRegression(), clock);
    started = performance.now();
    modelling.evaluateModel(data, spec.features, splits.splits, { model, interval: { blockDays: 1 } });
    const evaluateSeconds = since(started);
    return {
      splitSeconds,
      readSeconds,
      fitSeconds: clock.fit,
      predictSeconds: clock.predict,
      evaluateSeconds,
      scoreSeconds: evaluateSeconds - clock.fit - clock.predict,
      rows: splits.rows.sampleTime.length,
    };
  });
  await catalog.close();
  process.stdout.write(`${JSON.stringify({ scenario: name, ...figures, peakRssMiB: peakRssMiB() })}\n`);
}

function argument(argv: string[], name: string, fallback: number): number {
  const index = argv.indexOf(name);
  return index >= 0 ? Number(argv[index + 1]) : fallback;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const script = fileURLToPath(import.meta.url);
  if (argv[0] === '--end-to-end') return endToEnd(argv[1]!, argv[2]!);
  if (argv[0] === '--parts') return parts(argv[1]!, argv[2]!);
  const days = argument(argv, '--days', 1100);
  const seed = argument(argv, '--seed', 1);
  const runs = argument(argv, '--runs', 1);

  // 1. the cached catalog
  const built = await syntheticCatalog(days, seed, { compile: !argv.includes('--no-compile') });
  const child = (mode: string, name: string) =>
    JSON.parse(execFileSync(process.execPath, [...process.execArgv, script, mode, built.home, name], { encoding: 'utf8' }).trim().split('\n').at(-1)!);

  // 2. per scenario: `runs` end-to-end runs and one run of the parts, each in a fresh process
  const scenarios = [];
  for (const name of Object.keys(SCENARIOS)) {
    const ends = Array.from({ length: runs }, () => child('--end-to-end', name));
    const split = child('--parts', name);
    const seconds = median(ends.map((run) => run.seconds));
    const peak = Math.max(...ends.map((run) => run.peakRssMiB));
    scenarios.push({
      ...ends[0],
      seconds,
      allSeconds: ends.map((run) => run.seconds),
      peakRssMiB: peak,
      pass: seconds < TARGET.seconds && peak < TARGET.rssMiB,
      parts: split,
    });
  }

  // 3. report
  const load = (await import('node:os')).loadavg()[0]!.toFixed(2);
  console.log(
    `model benchmark: ${days} days of simulator rows (seed ${seed}); catalog ${built.reused ? 'reused from cache' : 'built'} ` +
      `(build ${built.buildSeconds.toFixed(0)} s, not timed); load ${load}; target < ${TARGET.seconds} s and < ${TARGET.rssMiB} MiB`,
  );
  console.log(
    formatTable(
      ['scenario', 'rows', 'modelCatalog s', 'peak RSS MiB', 'target', 'splits s', 'read s', 'fits s', 'evaluate s', 'scores + CIs s'],
      scenarios.map((s) => [
        s.scenario,
        s.rows,
        s.allSeconds.map((value: number) => value.toFixed(2)).join(' / '),
        s.peakRssMiB.toFixed(0),
        s.pass ? 'pass' : 'FAIL',
        s.parts.splitSeconds.toFixed(2),
        s.parts.readSeconds.toFixed(2),
        s.parts.fitSeconds.toFixed(2),
        s.parts.evaluateSeconds.toFixed(2),
        s.parts.scoreSeconds.toFixed(2),
      ]),
      'lrrrlrrrrr',
    ),
  );
  console.log(JSON.stringify({ benchmark: 'model', days, seed, runs, loadAverage1m: Number(load), target: TARGET, buildSeconds: built.buildSeconds, scenarios }));
}

await main();
