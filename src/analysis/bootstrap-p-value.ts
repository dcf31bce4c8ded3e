// The row bootstrap's two-sided p-value, from the very draws and quantile rule of its percentile interval, so
// that "the interval excludes 0" and "p < 1 - confidence" never disagree (issue 28).

/**
 * Percentile-bootstrap p-value of "statistic = nullValue": the smallest α at which the percentile interval
 * at level 1 − α (type-7 quantiles of the draws, as percentileInterval) excludes nullValue, i.e. twice the
 * smaller share of the (interpolated) draw distribution beyond it, capped at 1. So for every confidence,
 * the interval excludes nullValue exactly when p < 1 − confidence. NaN draws are dropped; null when no draw
 * is left or every draw is equal (no interval is possible).
 * @param draws bootstrap draws of the statistic
 * @param nullValue the tested value. Default 0.
 */
export function percentileBootstrapPValue(draws: Float64Array, nullValue = 0): number | null {
  const sorted = draws.filter((value) => !Number.isNaN(value)).sort();
  const n = sorted.length;
  if (n === 0 || sorted[0] === sorted[n - 1]) return null;
  // Q(p) = the type-7 quantile is continuous and non-decreasing in p; below is the largest p with
  // Q(p) <= nullValue, above the smallest p with Q(p) >= nullValue (in units of (n - 1) steps).
  const last = n - 1;
  let below: number;
  if (sorted[0]! > nullValue) below = 0;
  else if (sorted[last]! <= nullValue) below = last;
  else {
    let k = 0;
    while (sorted[k + 1]! <= nullValue) k += 1;
    below = k + (nullValue - sorted[k]!) / (sorted[k + 1]! - sorted[k]!);
  }
  let above: number;
  if (sorted[0]! >= nullValue) above = 0;
  else if (sorted[last]! < nullValue) above = last;
  else {
    let j = last;
    while (sorted[j - 1]! >= nullValue) j -= 1;
    above = j - 1 + (nullValue - sorted[j - 1]!) / (sorted[j]! - sorted[j - 1]!);
  }
  return Math.min(1, (2 * Math.min(below, last - above)) / last);
}
