// Splits an Arrow table of Market Events rows into predictors and labels, joinable by row_id/release_id.

import type { Table } from 'apache-arrow';
import { IDENTITY_FIELD_NAMES, LABEL_FIELD_NAMES, PREDICTOR_FIELD_NAMES } from '../contract/index.js';
import { AnalysisOptionError } from './analysis-errors.js';
import { analysisMessages } from './messages.js';

/**
 * Two Arrow tables over the same rows: `predictors` (release_id when present, identity fields, predictor
 * fields) and `labels` (release_id when present, identity fields, label fields). Row order is kept, and
 * row_id (+ release_id) joins them. Columns that are neither (metadata, provenance) go to neither.
 * Only columns present in `table` are selected.
 * @throws AnalysisOptionError when `table` has no row_id column.
 */
export function splitPredictorsAndLabels(table: Table): { predictors: Table; labels: Table } {
  const present = new Set(table.schema.fields.map((field) => field.name));
  if (!present.has('row_id')) {
    throw new AnalysisOptionError(analysisMessages.noRowId(), { option: 'table' });
  }
  const keys = ['release_id', ...IDENTITY_FIELD_NAMES].filter((name) => present.has(name));
  const pick = (names: readonly string[]) => [...keys, ...names.filter((name) => present.has(name))];
  return {
    predictors: table.select(pick(PREDICTOR_FIELD_NAMES)),
    labels: table.select(pick(LABEL_FIELD_NAMES)),
  };
}
