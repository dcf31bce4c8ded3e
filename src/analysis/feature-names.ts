// Which names a derived (or trailing) feature may take. At run time rdw computes derived features as columns
// beside every Market Events field and the columns the model's rows query adds, so a feature named like one of
// them would stand in for it (a derived feature named return_pct_1h, read by name, is the label), and a name
// DuckDB reads as a whole row (an unaliased subquery, the guard's own relation) would hand over every field.

import { fieldSpec } from '../contract/index.js';
import { RELEASE_COLUMNS } from '../catalog/index.js';

/**
 * Columns besides the Market Events fields in the rows a model reads: the catalog's RELEASE_COLUMNS, the split
 * rows' `label_end` and `reason` (src/modelling/split-rows.ts, which analysis cannot import; a test keeps this
 * list equal to the split rows' extra columns).
 */
export const RUN_TIME_COLUMNS: readonly string[] = [...RELEASE_COLUMNS, 'label_end', 'reason'];

/** Relation names DuckDB would read as a row: an unaliased subquery's, and the guard's own binding relation's. */
const ROW_NAMES: readonly string[] = ['unnamed_subquery', 'feature_row'];

/** Why `name` cannot name a derived feature, or undefined when it can. */
export function takenFeatureName(name: string): 'label' | 'field' | 'run-time' | undefined {
  const lower = String(name).toLowerCase();
  const spec = fieldSpec(lower);
  if (spec !== undefined) return spec.role === 'label' ? 'label' : 'field';
  if (RUN_TIME_COLUMNS.includes(lower) || ROW_NAMES.includes(lower) || lower.startsWith('__')) return 'run-time';
  return undefined;
}
