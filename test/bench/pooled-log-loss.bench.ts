// Benchmark (issue 28): purged k-fold's pooled Δ log loss interval on a control without the simulator:
// independent rows (no regimes, no overlapping labels), a real evaluateModel over 5 folds of 12 days, the default
// logistic model against the base rate. The truth of each run is its fold models' Δ log loss on 100,000 fresh
// rows (exact expected loss under the planted probabilities): the estimand of the cross-fold interval
// (evaluateModel's experimental pooledDifference 'cross-fold') and of the test-rows jackknife; the corrected
// resampled t rdw shows targets its mean over the runs (the skill expected over training sets), as does the
// experimental nested cross-validation interval (pooledDifference 'nested').
// Run: node --import tsx test/bench/pooled-log-loss.bench.ts [--runs 1000]

import { parseArgs } from 'node:util';
import { defineFeatureSet } from '../../src/analysis/index.js';
import { randomStream, type RandomStream } from '../../src/base/index.js';
import { BaseRateModel, correctedResampledInterval, evaluateModel, LogisticRegression, testToTrainRatio, type FeatureMatrix, type ModelFold } from '../../src/modelling/index.js';
import { studentTInterval } from '../../src/analysis/index.js';
import { formatTable } from './support/format-table.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1000' } } });
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 10) throw new Error(`--runs must be a whole number of at least 10, not ${values.runs}`);

const DAYS = 60;
const ROWS_PER_DAY = 100;
const FOLDS = 5;
const FRESH_ROWS = 100_000;
const PREDICTORS = ['volume_ratio_20', 'taker_buy_fraction', 'oi_usd'] as const;

/** One control: `predictors` standard-normal predictors; P(target 1) = logistic(slope · first predictor). */
interface Control {
  name: string;
  predictors: number;
  slope: number;
}
const CONTROLS: Control[] = [
  { name: 'no skill, 1 predictor', predictors: 1, slope: 0 },
  { name: 'no skill, 3 predictors', predictors: 3, slope: 0 },
  { name: 'skill (AUC 0.54), 1 predictor', predictors: 1, slope: 0.15 },
  { name: 'skill (AUC 0.61), 3 predictors', predictors: 3, slope: 0.4 },
];

const logistic = (z: number) => 1 / (1 + Math.exp(-z));

function normalMatrix(random: RandomStream, rows: number, names: readonly string[]): FeatureMatrix {
  return { values: Float64Array.from({ length: rows * names.length }, () => random.normal()), rows, columns: names.length, names };
}

/** Expected log loss of predictions `q` for targets drawn with probabilities `p`. */
function expectedLogLoss(p: ArrayLike<number>, q: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < p.length; i += 1) total += -p[i]! * Math.log(q[i]!) - (1 - p[i]!) * Math.log(1 - q[i]!);
  return total / p.length;
}

/** Contiguous folds of whole days: no label spans a row's day, so nothing needs purging. */
function dayFolds(dayIndex: Int32Array): ModelFold[] {
  const size = DAYS / FOLDS;
  return Array.from({ length: FOLDS }, (_, f) => {
    const train: number[] = [];
    const test: number[] = [];
    dayIndex.forEach((day, i) => (Math.floor(day / size) === f ? test : train).push(i));
    return { fold: f + 1, train: Uint32Array.from(train), test: Uint32Array.from(test) };
  });
}

function measure(control: Control) {
  const names = PREDICTORS.slice(0, control.predictors);
  const features = defineFeatureSet([...names]);
  const fresh = normalMatrix(randomStream(1, 'pooled-log-loss fresh', control.predictors), FRESH_ROWS, names);
  const freshP = Float64Array.from({ length: FRESH_ROWS }, (_, i) => logistic(control.slope * fresh.values[i * names.length]!));
  const n = DAYS * ROWS_PER_DAY;
  const dayIndex = Int32Array.from({ length: n }, (_, i) => Math.floor(i / ROWS_PER_DAY));
  const folds = dayFolds(dayIndex);
  const runs: { estimate: number; truth: number; shown: readonly [number, number]; corrected: readonly [number, number]; uncorrected: readonly [number, number]; testRows: readonly [number, number]; nested: readonly [number, number] }[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    // Keyed by what the control is, not by its label: renaming a control keeps its rows.
    const random = randomStream(run + 1, 'pooled-log-loss rows', control.predictors, control.slope);
    const x = normalMatrix(random, n, names);
    const columns = Object.fromEntries(names.map((name, j) => [name, Float64Array.from({ length: n }, (_, i) => x.values[i * names.length + j]!)]));
    const target = Float64Array.from({ length: n }, (_, i) => (random.next() < logistic(control.slope * x.values[i * names.length]!) ? 1 : 0));
    const models: LogisticRegression[] = [];
    const baselines: BaseRateModel[] = [];
    const evaluation = evaluateModel({ columns, target, dayIndex }, features, folds, {
      pooledDifference: 'cross-fold',
      model: () => models[models.push(new LogisticRegression()) - 1]!,
      baseline: () => baselines[baselines.push(new BaseRateModel()) - 1]!,
    });
    // The fold models' Δ log loss on fresh rows, mixed as the pooled score mixes the folds (by test rows).
    let truth = 0;
    evaluation.folds.forEach((fold, k) => {
      const baseline = new Float64Array(FRESH_ROWS).fill(baselines[k]!.rate);
      truth += (fold.rows / evaluation.pooled.rows) * (expectedLogLoss(freshP, models[k]!.predict(fresh)) - expectedLogLoss(freshP, baseline));
    });
    const pooled = evaluation.pooled;
    // The same t over the folds' scores without Nadeau & Bengio's correction: SE² = s² / J.
    const scores = evaluation.folds.map((fold) => fold.logLossDifference);
    const foldMean = scores.reduce((a, b) => a + b, 0) / scores.length;
    const squares = scores.reduce((a, v) => a + (v - foldMean) ** 2, 0);
    const plain = studentTInterval(pooled.logLossDifference, Math.sqrt(squares / (scores.length - 1) / scores.length), scores.length - 1, { confidence: 0.95, nullValue: 0 });
    const nb = correctedResampledInterval(pooled.logLossDifference, scores, testToTrainRatio(evaluation.folds));
    const corrected = nb.kind === 'interval' ? ([nb.low, nb.high] as const) : ([Number.NaN, Number.NaN] as const);
    // The same rows and folds with the nested cross-validation interval (its own fits: the same fold models).
    const nested = evaluateModel({ columns, target, dayIndex }, features, folds, { pooledDifference: 'nested' }).pooled.intervals.logLossDifference;
    runs.push({ estimate: pooled.logLossDifference, truth, shown: pooled.intervals.logLossDifference, corrected, uncorrected: [plain.low, plain.high], testRows: pooled.testRowsOnly!.intervals.logLossDifference, nested });
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const sd = (values: number[]) => Math.sqrt(values.reduce((a, v) => a + (v - mean(values)) ** 2, 0) / (values.length - 1));
  const expected = mean(runs.map((r) => r.truth));
  const covers = (pick: (r: (typeof runs)[number]) => readonly [number, number], truth: (r: (typeof runs)[number]) => number) =>
    runs.filter((r) => pick(r)[0] <= truth(r) && truth(r) <= pick(r)[1]).length / runs.length;
  const halfWidth = (pick: (r: (typeof runs)[number]) => readonly [number, number]) => mean(runs.map((r) => (pick(r)[1] - pick(r)[0]) / 2));
  return {
    control: control.name,
    runs: RUNS,
    expectedLogLossDifference: expected,
    estimateStandardDeviation: sd(runs.map((r) => r.estimate)),
    /** The shown interval (crossFoldInterval) against the run's own fold models' skill. */
    crossFoldCoverage: covers((r) => r.shown, (r) => r.truth),
    crossFoldMeanHalfWidth: halfWidth((r) => r.shown),
    /** Nadeau & Bengio's corrected resampled t against the skill expected over training sets. */
    correctedResampledCoverage: covers((r) => r.corrected, () => expected),
    correctedResampledMeanHalfWidth: halfWidth((r) => r.corrected),
    /** The same t without the correction (s² / J), against the same truth. */
    uncorrectedCoverage: covers((r) => r.uncorrected, () => expected),
    /** Nested cross-validation's interval against the skill expected over training sets. */
    nestedCoverage: covers((r) => r.nested, () => expected),
    nestedMeanHalfWidth: halfWidth((r) => r.nested),
    /** The test-rows jackknife (fold models fixed) against each run's own fold models' skill. */
    testRowsCoverage: covers((r) => r.testRows, (r) => r.truth),
    testRowsMeanHalfWidth: halfWidth((r) => r.testRows),
  };
}

const started = performance.now();
const results = CONTROLS.map(measure);
console.error(
  formatTable(
    ['control', 'runs', 'cross-fold', '± mean', 'corrected t', '± mean', 'uncorrected', 'test rows', 'nested', '± mean'],
    results.map((r) => [
      r.control,
      String(r.runs),
      `${(100 * r.crossFoldCoverage).toFixed(1)}%`,
      r.crossFoldMeanHalfWidth.toExponential(2),
      `${(100 * r.correctedResampledCoverage).toFixed(1)}%`,
      r.correctedResampledMeanHalfWidth.toExponential(2),
      `${(100 * r.uncorrectedCoverage).toFixed(1)}%`,
      `${(100 * r.testRowsCoverage).toFixed(1)}%`,
      `${(100 * r.nestedCoverage).toFixed(1)}%`,
      r.nestedMeanHalfWidth.toExponential(2),
    ]),
    'lrrrrrrrrr',
  ),
);
console.log(JSON.stringify({ days: DAYS, rowsPerDay: ROWS_PER_DAY, folds: FOLDS, seconds: (performance.now() - started) / 1000, results }));
