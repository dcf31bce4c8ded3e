// Student's t for rdw's intervals: the quantile, the spread of a set of replicate values, and the interval with
// its p-value from one t distribution (so "the interval excludes the null" and "p < 1 − level" never disagree).
// Shared by the block jackknife (blocks − 1 df) and the corrected resampled t over folds (folds − 1 df).

import jstatPackage from 'jstat';

const { jStat } = jstatPackage as unknown as typeof import('jstat');

/**
 * The p-quantile of Student's t with `degreesOfFreedom`: jStat's inverse (relative error up to ~1e-8, from
 * its incomplete-beta inversion) refined by two Newton steps on jStat's CDF, which agrees with scipy's
 * quantiles to ~1e-9 relative or better (checked against a table in test/analysis/block-jackknife.test.ts).
 */
export function studentTQuantile(p: number, degreesOfFreedom: number): number {
  let q = jStat.studentt.inv(p, degreesOfFreedom);
  for (let step = 0; step < 2; step += 1) {
    const density = jStat.studentt.pdf(q, degreesOfFreedom);
    if (!(density > 0)) break;
    q -= (jStat.studentt.cdf(q, degreesOfFreedom) - p) / density;
  }
  return q;
}

/** The mean of `values` and the sum of their squared deviations from it; undefined when a value is not finite. */
export function spreadOf(values: ArrayLike<number>): { mean: number; squares: number } | undefined {
  const n = values.length;
  let mean = 0;
  for (let i = 0; i < n; i += 1) {
    const value = values[i]!;
    if (!Number.isFinite(value)) return undefined;
    mean += value / n;
  }
  let squares = 0;
  for (let i = 0; i < n; i += 1) squares += (values[i]! - mean) ** 2;
  return { mean, squares };
}

/**
 * estimate ± t(df, 1 − α/2) · SE, and p = 2 · P(T(df) ≥ |estimate − nullValue| / SE) from the same t.
 * `standardError` must be > 0.
 */
export function studentTInterval(
  estimate: number,
  standardError: number,
  degreesOfFreedom: number,
  options: { readonly confidence: number; readonly nullValue: number },
): { low: number; high: number; pValue: number } {
  const critical = studentTQuantile(1 - (1 - options.confidence) / 2, degreesOfFreedom);
  const t = Math.abs(estimate - options.nullValue) / standardError;
  return {
    low: estimate - critical * standardError,
    high: estimate + critical * standardError,
    pValue: Math.min(1, 2 * jStat.studentt.cdf(-t, degreesOfFreedom)),
  };
}

/**
 * A t interval with its test, or why there is none; `Count` names what it was computed over (`blocks` of days
 * for the jackknife, `folds` for the pooled row) and `Reason` the ways it can be missing.
 */
export type StudentTResult<Count extends string, Reason extends string> =
  | ({
      readonly kind: 'interval';
      readonly low: number;
      readonly high: number;
      /** Two-sided p-value of "statistic = nullValue" from the same t distribution. */
      readonly pValue: number;
      readonly standardError: number;
      readonly degreesOfFreedom: number;
    } & { readonly [K in Count]: number })
  | ({ readonly kind: 'none'; readonly reason: Reason } & { readonly [K in Count]: number });

