// How far a coverage count may fall from 95% by chance alone: the central 95% band of Binomial(n, 0.95), for
// marking the calibration table's cells that chance does not explain (a cell of 100 intervals has an sd of ~2.2
// points, so 93–97% is a goal, not a test). Intervals of one market share its market-wide moves, so the band is
// the narrowest honest one, not a generous one.

/** Smallest and largest covered count of n intervals of coverage `p` with ≤ (1 − level)/2 probability beyond each. */
export function binomialBand(n: number, p = 0.95, level = 0.95): [low: number, high: number] {
  if (n <= 0) return [0, 0];
  const logFactorial = new Float64Array(n + 1);
  for (let k = 1; k <= n; k += 1) logFactorial[k] = logFactorial[k - 1]! + Math.log(k);
  const pmf = Float64Array.from({ length: n + 1 }, (_, k) => Math.exp(logFactorial[n]! - logFactorial[k]! - logFactorial[n - k]! + k * Math.log(p) + (n - k) * Math.log1p(-p)));
  const tail = (1 - level) / 2;
  let low = 0;
  for (let below = 0; low <= n && below + pmf[low]! <= tail; low += 1) below += pmf[low]!;
  let high = n;
  for (let above = 0; high >= 0 && above + pmf[high]! <= tail; high -= 1) above += pmf[high]!;
  return [low, high];
}

/** Whether `covered` of `shown` lies outside the central 95% band of a calibrated 95% interval. */
export function outsideBinomialBand(covered: number, shown: number): boolean {
  if (shown <= 0) return false;
  const [low, high] = binomialBand(shown);
  return covered < low || covered > high;
}
