// The guard's second reading, with DuckDB: every derived feature's SQL is parsed and bound in an empty in-memory
// database (no catalog, view or macro to reach) against the fields its role allows, before any of it runs.

import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { isChecked, markChecked, trailingSpecOf } from './feature-trust.js';
import { checkFeatureSql, type FeatureScope } from './feature-sql-check.js';
import { assertPredictors, defineFeatureSet, labelOfTarget, type FeatureInput, type FeatureSet, type ModelSpec } from './leakage-guard.js';

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

async function checkInput(connection: DuckDBConnection, input: FeatureInput, scope: FeatureScope): Promise<void> {
  if (typeof input === 'string') return;
  const trailing = trailingSpecOf(input);
  if (trailing !== undefined) {
    if (scope === 'predictor') assertPredictors([trailing.field]);
    return;
  }
  if (scope === 'predictor' && isChecked(input)) return;
  for (const inner of input.inputs) await checkInput(connection, inner, scope);
  await checkFeatureSql(connection, input, scope);
  if (scope === 'predictor') markChecked(input);
}

async function withEmptyDatabase(run: (connection: DuckDBConnection) => Promise<void>): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  try {
    await run(connection);
  } finally {
    connection.disconnectSync();
    instance.closeSync();
  }
}

function isFeatureSet(value: FeatureSet | readonly FeatureInput[]): value is FeatureSet {
  return !Array.isArray(value);
}
