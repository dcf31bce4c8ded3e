// modelStudy: from a catalog to a scored model in one call. Time-aware splits for the target's label window,
// the predictors and the target computed by DuckDB for exactly the split rows (same order), then
// evaluateModel over the folds.

import {
  CALIBRATED_SPLIT_METHODS,
  DEFAULT_SPLIT_METHOD,
  DEFAULT_WINDOW,
  SPLIT_METHODS,
  WINDOW_SECONDS,
  fieldSpec,
  type SampleType,
  type Window,
} from '../contract/index.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../base/index.js';
import { assertNothingShadowed, MARKET_EVENTS_TABLE } from '../catalog/index.js';
import {
  AnalysisOptionError,
  intervalBlockDays,
  intervalCalibrationNote,
  checkModelSpec,
  toAnalysisSource,
  type AnalysisSourceLike,
  labelOfTarget,
  predictorSelectSql,
  type DerivedFeature,
  type FeatureInput,
  type ModelSpec,
  resolveWindow,
  trailingFeaturesSql,
} from '../analysis/index.js';
import { defaultModelSpec } from './default-model-spec.js';
import { evaluateModel, type EvaluateModelOptions, type ModelEvaluation } from './evaluate-model.js';
import type { PurgedKFoldOptions } from './purged-k-fold-splits.js';
import type { RowKFoldOptions } from './row-k-fold-splits.js';
import { readColumns } from './read-columns.js';
import { classifiedSplitRowsSql, SPLIT_ROW_ORDER_SQL } from './split-rows.js';
import type { TimeSplitOptions, TimeSplits } from './time-splits.js';
import { runSplitMethod } from './split-methods.js';
import type { WalkForwardOptions } from './walk-forward-splits.js';
import { modellingMessages } from './messages.js';
import { walkForwardAdvisor } from './fold-advice.js';

/** The split method and its own options. `row-k-fold` is the naive, leaking comparison. */
export type ModelSplitOptions =
  | ({ method: 'purged-k-fold' } & Pick<PurgedKFoldOptions, 'folds' | 'embargoSeconds'>)
  | ({ method: 'walk-forward' } & Pick<WalkForwardOptions, 'folds' | 'testDays' | 'trainDays'>)
  | ({ method: 'row-k-fold' } & Pick<RowKFoldOptions, 'folds' | 'seed'>);

export { MODEL_SPLIT_METHODS, SPLIT_METHODS } from '../contract/index.js';

/**
 * Options of modelStudy: those of evaluateModel (model, baseline, interval) and those every split method takes
 * (TimeSplitOptions: window, releases, allowMixedCalculationVersions, sampleType), with two differences: `window`
 * only without `spec` (a spec's window is its target's), and `sampleType` defaults to `event` with the default
 * spec (both with a given spec). The interval's `blockDays` defaults to intervalBlockDays(W) here (blocks of
 * whole UTC days, at least BLOCK_WINDOW_MULTIPLE label windows long, so rows whose windows overlap share a block).
 */
export interface ModelStudyOptions extends EvaluateModelOptions, TimeSplitOptions {
  /** Target and predictors (defineModelSpec). Default: defaultModelSpec(window). */
  spec?: ModelSpec;
  /** Default `{ method: 'purged-k-fold' }` (5 folds, automatic embargo). */
  split?: ModelSplitOptions;
}

export type ResolvedModelSplit =
  | { readonly method: 'purged-k-fold'; readonly folds: number; readonly embargoSeconds: number }
  | { readonly method: 'walk-forward'; readonly folds: number; readonly testDays: number; readonly trainDays: number | undefined }
  | { readonly method: 'row-k-fold'; readonly folds: number; readonly seed: number };

export interface ModelStudyResult {
  readonly window: Window;
  /** The target's name (a label field, or a derived feature's name). */
  readonly target: string;
  readonly sampleType: SampleType | 'all';
  /** The split as run, defaults filled in: folds; embargoSeconds (purged k-fold); testDays and trainDays (walk-forward, trainDays undefined = expanding); seed (row k-fold). */
  readonly split: ResolvedModelSplit;
  readonly splits: TimeSplits;
  readonly evaluation: ModelEvaluation;
}

/**
 * Splits the eligible rows for the target's window, reads the predictors and the target of those rows
 * (DuckDB, one column per predictor), and fits and scores the model and the baseline on every fold.
 * Deterministic for a given catalog, options and seeds.
 * @throws LeakageError (a label among the predictors, declared or named in a derived feature's SQL),
 * CrossRowFeatureError (a derived feature's SQL that reads other rows), AnalysisOptionError (bad option, a text predictor, a
 * target that is not 0/1, a window that is not the target's), and the errors of the split method
 */
export async function modelStudy(source: AnalysisSourceLike, options: ModelStudyOptions = {}): Promise<ModelStudyResult> {
  // 1. the spec, its window, the rows
  const given = options.spec ?? defaultModelSpec(options.window ?? DEFAULT_WINDOW);
  const window = targetWindow(given.target, options.window);
  for (const predictor of given.features.predictors) assertNumeric(predictor);
  // The SQL of every derived predictor and of the target, read by DuckDB before any of it runs (in an empty
  // database: a user macro of the catalog named like a built-in would run instead of it, so none may exist).
  // The spec returned holds the copies read (feature-trust.ts): what was checked is what runs.
  const spec = await checkModelSpec(given);
  const resolved = toAnalysisSource(source);
  await assertNothingShadowed(resolved.connection, resolved.eventsTable === MARKET_EVENTS_TABLE ? resolved.eventsTable : undefined);
  const sampleType = options.sampleType ?? (options.spec === undefined ? 'event' : undefined);
  const split: ModelSplitOptions = options.split ?? { method: DEFAULT_SPLIT_METHOD };
  const common = { window, releases: options.releases, allowMixedCalculationVersions: options.allowMixedCalculationVersions, sampleType };
  // 2. splits (an unknown method: AnalysisOptionError on option split.method)
  const splits = await runSplitMethod(source, { ...split, ...common }, 'split.method');
  // 3. predictors and target of the same rows, in the same order, one array per column
  const classified = classifiedSplitRowsSql(resolved, window, options.releases === undefined ? undefined : [...splits.releaseIds], {
    allowMixedCalculationVersions: options.allowMixedCalculationVersions,
    sampleType,
  });
  // Trailing features are computed over every point-in-time row of the releases (both sample types), before the
  // split's rules keep the eligible ones. Read as Float64Arrays, NULL as NaN (missing to evaluateModel alike):
  // getColumnsJS took ~0.5 s per 500k rows.
  const relation = withTargetInputs(trailingFeaturesSql(classified, spec.features.predictors), spec);
  await assertNumberColumns(resolved.connection, `SELECT ${predictorSelectSql(spec.features.predictors)}, (${targetSql(spec.target)}) FROM ${relation}`, [
    ...spec.features.names,
    nameOf(spec.target),
  ]);
  const values = await readColumns(
    resolved.connection,
    `SELECT ${predictorSelectSql(spec.features.predictors, { cast: 'DOUBLE' })}, (${targetSql(spec.target)})::DOUBLE AS "__target"
    FROM ${relation} WHERE reason IS NULL ORDER BY ${SPLIT_ROW_ORDER_SQL}`,
    [...spec.features.names.map(() => 'number' as const), 'number'],
  ).catch((error: unknown) => {
    // A derived feature's own failure (error('…'), a value out of range): the user's SQL, said as such.
    const first = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    if (/^(Invalid Input|Conversion|Out of Range) Error/.test(first)) throw new AnalysisOptionError(modellingMessages.modelColumnsFailed(first), { option: 'spec', cause: error });
    throw error;
  });
  const target = values[values.length - 1]!;
  const columns = Object.fromEntries(spec.features.names.map((name, j) => [name, values[j]!]));
  // 4. fit and score
  const asked = options.interval ?? options.bootstrap ?? {};
  const interval = {
    confidence: asked.confidence,
    blockDays: asked.blockDays ?? intervalBlockDays(WINDOW_SECONDS[window]),
  };
  // The split's pooled interval (contract's SPLIT_METHODS): walk-forward's fold models train on the past only, on
  // growing sets, so their scores are not exchangeable and its pooled row takes the jackknife over every fold's test days.
  const method = SPLIT_METHODS[split.method];
  const evaluated = evaluateModel({ columns, target, targetName: nameOf(spec.target), dayIndex: calendarDays(splits.rows) }, spec.features, splits.splits, {
    ...options,
    pooledInterval: options.pooledInterval ?? method.pooledInterval,
    interval,
    // Walk-forward's folds do not share out the days (evaluateModel's default advice assumes they do).
    ...(split.method === 'walk-forward' ? { foldAdvice: walkForwardAdvisor(splits.rows.days.length, splits.splits.length, split.testDays) } : {}),
  });
  // Each calibrated split quotes its own figures; row k-fold (the naive, leaking comparison) has none and must not
  // borrow purged k-fold's silently.
  const calibrated = CALIBRATED_SPLIT_METHODS.find((one) => one === split.method);
  const calibration =
    calibrated !== undefined
      ? intervalCalibrationNote('model', undefined, calibrated)
      : modellingMessages.calibrationOtherSplit(evaluated.interval.calibration, split.method);
  const evaluation = { ...evaluated, interval: { ...evaluated.interval, calibration } };
  return { window, target: nameOf(spec.target), sampleType: sampleType ?? 'all', split: resolvedSplit(split, splits), splits, evaluation };
}

/** Each row's UTC day as days since 1970-01-01 (the jackknife's blocks count calendar days, gaps included). */
function calendarDays(rows: TimeSplits['rows']): Int32Array {
  const numbers = rows.days.map((day) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000));
  const out = new Int32Array(rows.dayIndex.length);
  for (let i = 0; i < out.length; i += 1) out[i] = numbers[rows.dayIndex[i]!]!;
  return out;
}

function resolvedSplit(split: ModelSplitOptions, splits: TimeSplits): ResolvedModelSplit {
  const folds = splits.splits.length;
  if (split.method === 'walk-forward') return { method: split.method, folds, testDays: splits.splits[0]?.testDays.length ?? 0, trainDays: split.trainDays };
  if (split.method === 'row-k-fold') return { method: split.method, folds, seed: split.seed ?? 1 };
  return { method: 'purged-k-fold', folds, embargoSeconds: splits.embargoSeconds };
}

function nameOf(input: FeatureInput): string {
  return typeof input === 'string' ? input : input.name;
}

function targetWindow(target: FeatureInput, asked: Window | undefined): Window {
  const window = resolveWindow(labelOfTarget(target).window);
  if (asked !== undefined && resolveWindow(asked) !== window) {
    throw new AnalysisOptionError(modellingMessages.windowNotTargets(asked, nameOf(target), window), { option: 'window' });
  }
  return window;
}

/**
 * `from` with one more column per derived input of a derived target (inputs first), from the copies
 * checkModelSpec read, as trailingFeaturesSql adds the predictors' inputs; a name it added already is that same
 * feature (checkModelSpec refuses two features of one name) and is not added twice.
 */
function withTargetInputs(from: string, spec: ModelSpec): string {
  if (typeof spec.target === 'string') return from;
  const added = new Set<string>();
  const addedByPredictors = (input: FeatureInput, asInput: boolean): void => {
    if (typeof input === 'string') return;
    if (asInput) added.add(input.name.toLowerCase());
    input.inputs.forEach((inner) => addedByPredictors(inner, true));
  };
  spec.features.predictors.forEach((predictor) => addedByPredictors(predictor, false));
  let out = from;
  const add = (feature: DerivedFeature): void => {
    for (const input of feature.inputs) {
      if (typeof input === 'string' || added.has(input.name.toLowerCase())) continue;
      add(input);
      added.add(input.name.toLowerCase());
      out = `(SELECT *, (${input.sql}) AS ${quoteIdentifier(input.name)} FROM ${out} AS ${quoteIdentifier(`__target_${input.name}`)})`;
    }
  };
  add(spec.target);
  return out;
}

function targetSql(target: FeatureInput): string {
  return typeof target === 'string' ? quoteIdentifier(target) : target.sql;
}

/** DuckDB's types a model column may have: numbers and booleans (a NULL constant binds as "NULL"). */
const NUMBER_COLUMN_TYPE = /^(BOOLEAN|U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|FLOAT|DOUBLE|DECIMAL\(\d+,\d+\)|"?NULL"?)$/;

/** Every predictor and the target bind as numbers (a derived text, list or interval would fail in the cast). */
async function assertNumberColumns(connection: DuckDBConnection, sql: string, names: readonly string[]): Promise<void> {
  const columns = (await connection.runAndReadAll(`DESCRIBE ${sql}`)).getRowObjectsJS();
  columns.forEach((column, j) => {
    const type = String(column.column_type);
    if (!NUMBER_COLUMN_TYPE.test(type)) throw new AnalysisOptionError(modellingMessages.notANumberColumn(names[j]!, type), { option: names[j]! });
  });
}

/** A text field cannot be a predictor as it is; derive a number from it. */
function assertNumeric(predictor: FeatureInput): void {
  if (typeof predictor !== 'string') return;
  if (fieldSpec(predictor.toLowerCase())?.type === 'string') {
    throw new AnalysisOptionError(modellingMessages.textPredictor(predictor), { option: predictor });
  }
}
