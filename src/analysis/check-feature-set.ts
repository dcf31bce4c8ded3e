// The guard's second reading, with DuckDB: every derived feature's SQL is parsed and bound in an empty in-memory
// database (no catalog, view or macro to reach) against the fields its role allows, before any of it runs.

import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { isChecked, markChecked, readingOf, trailingSpecOf } from './feature-trust.js';
import { checkFeatureSql, type FeatureScope } from './check-feature-sql.js';
import type { FeatureInput } from './derived-feature.js';
import { assertPredictors, defineFeatureSet, labelOfTarget, type FeatureSet, type ModelSpec } from './leakage-guard.js';

/**
 * Reads the SQL of every derived predictor (and derived input) with DuckDB: a label named anywhere in it, or a
 * construct that can see other rows, is refused whatever its declared inputs. predictorSelectSql needs this first.
 * @throws LeakageError, CrossRowFeatureError, UnknownColumnError, AnalysisOptionError
 */
export async function checkFeatureSet(features: FeatureSet | readonly FeatureInput[]): Promise<FeatureSet> {
  const set = isFeatureSet(features) ? features : defineFeatureSet(features);
  assertPredictors(set.predictors);
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
  assertPredictors(spec.features.predictors);
  labelOfTarget(spec.target);
  await withEmptyDatabase(async (connection) => {
    for (const predictor of spec.features.predictors) await checkInput(connection, predictor, 'predictor');
    await checkInput(connection, spec.target, 'target');
  });
  return spec;
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
  for (const inner of input.inputs) await checkInput(connection, inner, scope);
  const key = `${scope} ${readingOf(input)}`;
  if (!passed.has(key)) {
    await checkFeatureSql(await connection(), input, scope);
    passed.add(key);
  }
  if (scope === 'predictor') markChecked(input);
}

/** Runs `run` with a connection to an empty in-memory DuckDB, opened only when a feature needs reading. */
async function withEmptyDatabase(run: (connection: () => Promise<DuckDBConnection>) => Promise<void>): Promise<void> {
  let instance: DuckDBInstance | undefined;
  let opened: DuckDBConnection | undefined;
  const connection = async () => {
    instance ??= await DuckDBInstance.create(':memory:', { threads: '1' });
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
