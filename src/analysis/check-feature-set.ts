// The guard's second reading, with DuckDB: every derived feature's SQL is parsed and bound in an empty in-memory
// database (no catalog, view or macro to reach) against the fields its role allows, before any of it runs.

import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { checkedFeature, isChecked, markChecked, readingOf, snapshotOf, trailingSpecOf } from './feature-trust.js';
import { AnalysisOptionError } from './analysis-errors.js';
import { analysisMessages } from './messages.js';
import { checkFeatureSql, type FeatureScope } from './check-feature-sql.js';
import type { DerivedFeature, FeatureInput } from './derived-feature.js';
import { assertPredictors, defineFeatureSet, labelOfTarget, type FeatureSet, type ModelSpec } from './leakage-guard.js';

/**
 * Reads the SQL of every derived predictor (and derived input) with DuckDB: a label named anywhere in it, or a
 * construct that can see other rows, is refused whatever its declared inputs. predictorSelectSql needs this first.
 * @throws LeakageError, CrossRowFeatureError, UnknownColumnError, AnalysisOptionError
 */
export async function checkFeatureSet(features: FeatureSet | readonly FeatureInput[]): Promise<FeatureSet> {
  const set = isFeatureSet(features) ? features : defineFeatureSet(features);
  assertPredictors(set.predictors);
  assertDistinctNames(set.predictors);
  await withEmptyDatabase(async (connection) => {
    for (const predictor of set.predictors) await checkInput(connection, predictor, 'predictor');
  });
  return set;
}

/**
 * checkFeatureSet for a model spec's predictors, and its target's SQL read the same way (labels allowed there,
 * constructs that see other rows not).
 * @throws as checkFeatureSet; UnknownColumnError for a target that is no label
 */
export async function checkModelSpec(spec: ModelSpec): Promise<ModelSpec> {
  // The predictors and the target read once: what was checked is what runs. A spec built by hand may answer each
  // reading of features.predictors or features.names differently (getters); the spec returned holds frozen copies
  // only, its names those of the predictors read, so no later reading can add a column (the target's) as a predictor.
  const predictors = Array.from(spec.features.predictors);
  assertPredictors(predictors);
  const target = typeof spec.target === 'string' ? spec.target : snapshotOf(spec.target);
  labelOfTarget(target);
  assertDistinctNames([...predictors, target]);
  await withEmptyDatabase(async (connection) => {
    for (const predictor of predictors) await checkInput(connection, predictor, 'predictor');
    await checkInput(connection, target, 'target');
  });
  const copies = predictors.map((predictor) => {
    if (typeof predictor === 'string') return predictor;
    const copy = checkedFeature(predictor);
    if (copy === undefined) throw new AnalysisOptionError(analysisMessages.featureNotChecked(String(predictor.name)), { option: String(predictor.name) });
    return copy;
  });
  return Object.freeze({ target, features: defineFeatureSet(copies) });
}

/** Features already read, by what the reading depends on (scope, SQL, derived inputs): a spec rebuilt per call is read once. */
const passed = new Set<string>();

async function checkInput(connection: () => Promise<DuckDBConnection>, input: FeatureInput, scope: FeatureScope): Promise<void> {
  if (typeof input === 'string') return;
  const trailing = trailingSpecOf(input);
  if (trailing !== undefined) {
    if (scope === 'predictor') assertPredictors([trailing.field]);
    return;
  }
  if (scope === 'predictor' && isChecked(input)) return;
  // Each property read once: the guard reads this copy, and rdw's SQL splices it (feature-trust.ts).
  const snapshot = snapshotOf(input);
  for (const inner of snapshot.inputs) await checkInput(connection, inner, scope);
  const key = `${scope} ${readingOf(snapshot)}`;
  if (!passed.has(key)) {
    await checkFeatureSql(await connection(), snapshot, scope);
    passed.add(key);
  }
  if (scope === 'predictor') markChecked(input, snapshot);
}

/**
 * Derived and trailing features of one model are columns of one query, named without regard to case (DuckDB's
 * way): two different features of one name would let one stand in for the other (the first predictor replaced by
 * the second, an input read as another input of the same name). The same feature twice is one column.
 * @throws AnalysisOptionError
 */
function assertDistinctNames(features: readonly FeatureInput[]): void {
  const readings = new Map<string, string>();
  const visit = (input: FeatureInput): void => {
    if (typeof input === 'string') return;
    const feature = input as DerivedFeature;
    const reading = readingOf(feature);
    const key = String(feature.name).toLowerCase();
    const seen = readings.get(key);
    if (seen !== undefined && seen !== reading) throw new AnalysisOptionError(analysisMessages.featureNameTwice(String(feature.name)), { option: String(feature.name) });
    readings.set(key, reading);
    if (trailingSpecOf(feature) === undefined) for (const inner of feature.inputs ?? []) visit(inner);
  };
  features.forEach(visit);
}

/** Runs `run` with a connection to an empty in-memory DuckDB, opened only when a feature needs reading. */
async function withEmptyDatabase(run: (connection: () => Promise<DuckDBConnection>) => Promise<void>): Promise<void> {
  let instance: DuckDBInstance | undefined;
  let opened: DuckDBConnection | undefined;
  const connection = async () => {
    // Reading a feature touches nothing outside: no extension installed or loaded (stem() would fetch fts), no
    // file or network, and a bounded memory (DuckDB folds constant parts such as range(2e8) while it binds).
    instance ??= await DuckDBInstance.create(':memory:', {
      threads: '1',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      enable_external_access: 'false',
      memory_limit: '512MB',
    });
    opened ??= await instance.connect();
    return opened;
  };
  try {
    await run(connection);
  } finally {
    opened?.disconnectSync();
    instance?.closeSync();
  }
}

function isFeatureSet(value: FeatureSet | readonly FeatureInput[]): value is FeatureSet {
  return !Array.isArray(value);
}
