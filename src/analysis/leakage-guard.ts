// The leakage guard, first reading: feature sets, model specs and predictor queries refuse any label column, and
// any feature that declares (through derivedFeature) a label among its inputs. Roles come only from src/contract.
// The second reading, of the SQL itself, needs DuckDB: checkFeatureSet (check-feature-set.ts).

import { fieldSpec } from '../contract/index.js';
import { AnalysisOptionError, UnknownColumnError } from './analysis-errors.js';
import { checkedFeature } from './feature-trust.js';
import { takenFeatureName } from './feature-names.js';
import type { DerivedFeature, FeatureInput } from './derived-feature.js';
import { LeakageError } from './leakage-error.js';
import { analysisMessages } from './messages.js';
import { quoteIdentifier } from '../base/index.js';

/** The label field behind a column (itself, or the first label in its lineage), or undefined. */
export function labelBehind(column: FeatureInput): { label: string; window: string } | undefined {
  if (typeof column !== 'string') {
    for (const input of column.inputs) {
      const found = labelBehind(input);
      if (found) return found;
    }
    return undefined;
  }
  const spec = fieldSpec(column.toLowerCase());
  if (!spec) throw new UnknownColumnError(analysisMessages.unknownColumn(column), { option: column });
  return spec.role === 'label' ? { label: spec.name, window: spec.window ?? 'unknown' } : undefined;
}

/**
 * Throws LeakageError when any column is a label or derives from one.
 * @throws LeakageError (code RDW_LABEL_LEAKAGE) naming the column and window; UnknownColumnError for a
 * name that is no row field.
 */
export function assertPredictors(columns: readonly FeatureInput[]): void {
  for (const column of columns) assertFeatureNames(column);
  for (const column of columns) {
    const found = labelBehind(column);
    if (!found) continue;
    const name = typeof column === 'string' ? column : column.name;
    const message =
      typeof column === 'string'
        ? analysisMessages.labelAsPredictor(name, found.window)
        : analysisMessages.derivedFromLabel(name, found.label, found.window);
    throw new LeakageError(message, { column: name, window: found.window, label: found.label });
  }
}

/** Every derived feature in `column`'s lineage has a name of its own (takenFeatureName). @throws LeakageError, AnalysisOptionError */
function assertFeatureNames(column: FeatureInput): void {
  if (typeof column === 'string') return;
  const taken = takenFeatureName(column.name);
  if (taken === 'label') {
    const spec = fieldSpec(column.name.toLowerCase())!;
    throw new LeakageError(analysisMessages.featureNameTaken(column.name, taken), { column: column.name, window: spec.window ?? 'unknown', label: spec.name });
  }
  if (taken !== undefined) throw new AnalysisOptionError(analysisMessages.featureNameTaken(column.name, taken), { option: column.name });
  column.inputs.forEach(assertFeatureNames);
}

/** A checked list of predictors. */
export interface FeatureSet {
  readonly predictors: readonly FeatureInput[];
  /** Names of the predictor columns, in order. */
  readonly names: readonly string[];
}

/** A feature set: every predictor checked by the leakage guard. @throws LeakageError */
export function defineFeatureSet(predictors: readonly FeatureInput[]): FeatureSet {
  assertPredictors(predictors);
  return Object.freeze({
    predictors: Object.freeze([...predictors]),
    names: Object.freeze(predictors.map((p) => (typeof p === 'string' ? p : p.name))),
  });
}

/** A model: one label (or label-derived) target and leak-free predictors. */
export interface ModelSpec {
  readonly target: FeatureInput;
  readonly features: FeatureSet;
}

/**
 * A model spec. The target must be (or derive from) a label; predictors must not.
 * @throws LeakageError for a label among predictors; UnknownColumnError for a target that is no label.
 */
export function defineModelSpec(spec: { target: FeatureInput; predictors: readonly FeatureInput[] }): ModelSpec {
  const features = defineFeatureSet(spec.predictors);
  labelOfTarget(spec.target);
  return Object.freeze({ target: spec.target, features });
}

/**
 * The label a model's target is (or derives from), with its window: checked again where a spec may have been
 * built by hand rather than by defineModelSpec.
 * @throws UnknownColumnError for a target that is no label
 */
export function labelOfTarget(target: FeatureInput): { label: string; window: string } {
  const found = labelBehind(target);
  if (found === undefined) {
    throw new UnknownColumnError(analysisMessages.targetNotLabel(typeof target === 'string' ? target : target.name), { option: 'target' });
  }
  return found;
}

/**
 * SELECT list of the given predictors (derived ones as `expr AS name`), after the leakage guard. With
 * `{ cast: 'DOUBLE' }` every column is cast and named after its predictor (booleans become 1/0): a model's matrix.
 * Derived features must have been read by checkFeatureSet first; trailing features (trailingMean, …) are columns
 * that trailingFeaturesSql adds to the FROM relation.
 * @throws LeakageError; AnalysisOptionError for a derived feature checkFeatureSet has not read
 */
export function predictorSelectSql(predictors: readonly FeatureInput[], options: { cast?: 'DOUBLE' } = {}): string {
  assertPredictors(predictors);
  // The copy the guard read is spliced, never the object's SQL read again (feature-trust.ts).
  const trusted = predictors.map((p) => {
    if (typeof p === 'string') return p;
    const copy = checkedFeature(p);
    if (copy === undefined) throw new AnalysisOptionError(analysisMessages.featureNotChecked(p.name), { option: p.name });
    return copy;
  });
  return trusted
    .map((p) => {
      const name = quoteIdentifier(typeof p === 'string' ? p : p.name);
      const value = typeof p === 'string' ? name : `(${p.sql})`;
      if (options.cast !== undefined) return `(${value})::${options.cast} AS ${name}`;
      return typeof p === 'string' ? name : `${value} AS ${name}`;
    })
    .join(', ');
}
