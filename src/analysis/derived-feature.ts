// A derived feature: a SQL expression over a row's fields, declared with its inputs (its lineage). Its own file so
// the guard (leakage-guard.ts) and its record of the features it has read (feature-trust.ts) both import it.

/** A feature computed from other columns by a SQL expression; its inputs are its lineage. */
export interface DerivedFeature {
  readonly name: string;
  /** Row fields or other derived features the expression reads. */
  readonly inputs: readonly FeatureInput[];
  /** SQL expression over the inputs, e.g. `ln(quote_volume_5m)`. */
  readonly sql: string;
}

/** A column offered as a feature: a row field name or a derived feature. */
export type FeatureInput = string | DerivedFeature;

/**
 * Declares a derived feature. Declaring never throws; using one as a predictor checks its declared lineage, and
 * checkFeatureSet (modelStudy calls it) reads its SQL: it must be one expression of the row's own fields.
 */
export function derivedFeature(name: string, inputs: readonly FeatureInput[], sql: string): DerivedFeature {
  return Object.freeze({ name, inputs: Object.freeze([...inputs]), sql });
}
