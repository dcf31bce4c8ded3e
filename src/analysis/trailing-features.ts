// Point-in-time history of a predictor, built by rdw: the mean, change or rank of a numeric predictor field over
// the previous N hours of the same symbol, from point-in-time rows with a strictly earlier sample_time only.
// The guard refuses window functions in a researcher's SQL (a window can reach later rows); these windows are
// rdw's own SQL, so they are trusted — the guard still checks that their field is a predictor.

import { fieldSpec } from '../contract/index.js';
import { quoteIdentifier } from '../base/index.js';
import { AnalysisOptionError, UnknownColumnError } from './analysis-errors.js';
import { checkedFeature, markBuiltByRdw, trailingSpecOf, type TrailingSpec } from './feature-trust.js';
import { LeakageError } from './leakage-error.js';
import { derivedFeature, type DerivedFeature, type FeatureInput } from './derived-feature.js';
import { analysisMessages } from './messages.js';
import { pointInTimeConditionSql } from './point-in-time.js';
import { takenFeatureName } from './feature-names.js';

/**
 * The longest trailing window, in hours (about 11 years, beyond any history a catalog holds). With the one-second
 * minimum it keeps String(hours), and so the default name, free of an exponent (1e-7, 1e+21).
 */
export const TRAILING_HOURS_MAX = 100_000;

export interface TrailingFeatureOptions {
  /**
   * Length of the look-back, in hours, from 1/3600 (one second) to TRAILING_HOURS_MAX: rows with sample_time in
   * [t − hours, t), t excluded.
   */
  hours: number;
  /** Column name. Default `trailing_<statistic>_<field>_<hours>h`, e.g. `trailing_mean_volume_ratio_20_6h`. */
  name?: string;
}

/** Mean of `field` over the earlier rows of the window (null when there are none). */
export function trailingMean(field: string, options: TrailingFeatureOptions): DerivedFeature {
  return trailingFeature('mean', field, options);
}

/** `field` now minus `field` at the earliest earlier row of the window (null when there is none). */
export function trailingChange(field: string, options: TrailingFeatureOptions): DerivedFeature {
  return trailingFeature('change', field, options);
}

/** Share of the window's earlier values below `field` now, ties counted half, 0..1 (null when there are none). */
export function trailingRank(field: string, options: TrailingFeatureOptions): DerivedFeature {
  return trailingFeature('rank', field, options);
}

function trailingFeature(statistic: TrailingSpec['statistic'], field: string, options: TrailingFeatureOptions): DerivedFeature {
  const spec = fieldSpec(String(field).toLowerCase());
  if (spec === undefined) throw new UnknownColumnError(analysisMessages.unknownColumn(String(field)), { option: String(field) });
  if (spec.role === 'label') {
    const window = spec.window ?? 'unknown';
    throw new LeakageError(analysisMessages.labelAsPredictor(spec.name, window), { column: spec.name, window, label: spec.name });
  }
  if (spec.role !== 'predictor' || spec.type !== 'number') throw new AnalysisOptionError(analysisMessages.trailingFieldNotPredictor(spec.name), { option: 'field' });
  const hours = options?.hours;
  if (typeof hours !== 'number') throw new AnalysisOptionError(analysisMessages.trailingHoursNotNumber(hours), { option: 'hours' });
  // From one second to TRAILING_HOURS_MAX: String(hours) then has no exponent, so the default name is well formed.
  if (!(hours * 3600 >= 1 && hours <= TRAILING_HOURS_MAX)) {
    throw new AnalysisOptionError(analysisMessages.trailingHoursOutOfRange(hours, TRAILING_HOURS_MAX), { option: 'hours' });
  }
  const name = options.name ?? `trailing_${statistic}_${spec.name}_${String(hours).replace('.', '_')}h`;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || takenFeatureName(name) !== undefined) {
    throw new AnalysisOptionError(analysisMessages.badTrailingName(name), { option: 'name' });
  }
  // Its SQL is the column trailingFeaturesSql adds: the window itself runs there, once, over the whole relation.
  const feature = derivedFeature(name, [spec.name, 'symbol', 'sample_time'], quoteIdentifier(name));
  markBuiltByRdw(feature, { statistic, field: spec.name, hours });
  return feature;
}

/**
 * `from` (a table name or a parenthesised subquery of Market Events rows) with one more column per trailing
 * feature among `predictors` (and their inputs), computed over the point-in-time rows of `from` with the same
 * symbol and a sample_time in [t − hours, t): rows at t itself (the row and its peers) never count; then one more
 * column per derived feature that is another's input (inputs first), from its own SQL, so the name a predictor's
 * SQL reads is that column, as when the guard read it (predictorSelectSql computes the predictors themselves).
 * Every layer is aliased (an unaliased subquery's name reads as its whole row). Rows are not filtered; `from` is
 * returned as it is when there is neither.
 * @throws AnalysisOptionError for a derived input checkFeatureSet has not read (as it is now), or two inputs of one name
 */
export function trailingFeaturesSql(from: string, predictors: readonly FeatureInput[]): string {
  const built = new Map<string, TrailingSpec>();
  const inputs = new Map<string, DerivedFeature>();
  const collect = (given: FeatureInput, asInput: boolean): void => {
    if (typeof given === 'string') return;
    const spec = trailingSpecOf(given);
    if (spec !== undefined) {
      built.set(given.name, spec);
      return;
    }
    // The copy the guard read (its inputs are copies too); a predictor's own SQL is predictorSelectSql's.
    const input = checkedFeature(given);
    if (input === undefined) throw new AnalysisOptionError(analysisMessages.featureNotChecked(given.name), { option: given.name });
    input.inputs.forEach((inner) => collect(inner, true));
    if (!asInput) return;
    const same = inputs.get(input.name);
    if (same !== undefined && same.sql !== input.sql) throw new AnalysisOptionError(analysisMessages.inputNameTwice(input.name), { option: input.name });
    inputs.set(input.name, input);
  };
  predictors.forEach((predictor) => collect(predictor, false));
  let out = from;
  if (built.size > 0) {
    const columns = [...built].map(([name, spec]) => `${trailingValueSql(spec)} AS ${quoteIdentifier(name)}`);
    out = `(SELECT *, ${columns.join(', ')} FROM ${out} AS "__rows")`;
  }
  for (const [name, input] of inputs) out = `(SELECT *, (${input.sql}) AS ${quoteIdentifier(name)} FROM ${out} AS ${quoteIdentifier(`__with_${name}`)})`;
  return out;
}

function trailingValueSql(spec: TrailingSpec): string {
  const value = quoteIdentifier(spec.field);
  // RANGE over sample_time (Unix seconds): [t − hours, t]; EXCLUDE GROUP drops t's own rows (the row and its peers).
  const window = `OVER (PARTITION BY symbol ORDER BY sample_time ASC RANGE BETWEEN ${spec.hours * 3600} PRECEDING AND CURRENT ROW EXCLUDE GROUP)`;
  const earlier = `FILTER (WHERE ${value} IS NOT NULL AND ${pointInTimeConditionSql()})`;
  if (spec.statistic === 'mean') return `avg(${value}) ${earlier} ${window}`;
  // The earliest earlier row; among rows at that time, the smallest value (same symbol and time: one candle's value).
  // A struct key ordered by time then value (a list key was ~35% slower on 1.1M rows).
  if (spec.statistic === 'change') return `(${value} - arg_min(${value}, {'t': sample_time, 'v': ${value}}) ${earlier} ${window})`;
  // The window's values as a list per row: O(rows × values in a window), the one helper that is not a running aggregate.
  const score = `list_avg(list_transform(list(${value}) ${earlier} ${window}, lambda earlier_value: CASE WHEN earlier_value < ${value} THEN 1.0 WHEN earlier_value = ${value} THEN 0.5 ELSE 0.0 END))`;
  return `(CASE WHEN ${value} IS NULL THEN NULL ELSE ${score} END)`;
}
