// A group's two-sided p-value for "difference = 0" from the bootstrap draws its interval already uses:
// a normal approximation with the bootstrap standard error (why not a count of draws: docs/analysis.md).

/**
 * Two-sided p-value of `estimate` against 0 with the standard deviation of `draws` as its standard error:
 * p = 2 · (1 − Φ(|estimate| / sd(draws))) = erfc(|z| / √2). NaN draws are dropped. Null when there is no
 * estimate, fewer than two draws, or a zero standard error (nothing varies: no test is possible).
 * @param estimate the point estimate (difference_pct, percentage points)
 * @param draws bootstrap draws of the same statistic (same units)
 */
export function bootstrapPValue(estimate: number | null, draws: Float64Array): number | null {
  if (estimate === null || !Number.isFinite(estimate)) return null;
  let n = 0;
  let mean = 0;
  let squares = 0;
  for (const draw of draws) {
    if (Number.isNaN(draw)) continue;
    // Welford's running mean and sum of squared deviations.
    n += 1;
    const delta = draw - mean;
    mean += delta / n;
    squares += delta * (draw - mean);
  }
  if (n < 2) return null;
  const standardError = Math.sqrt(squares / (n - 1));
  if (!(standardError > 0)) return null;
  return Math.min(1, normalTwoSidedPValue(estimate / standardError));
}

/**
 * P(|Z| >= |z|) for a standard normal Z, i.e. erfc(|z| / √2); relative error < 1.2e-7 (the Chebyshev fit
 * of erfc in Numerical Recipes, 2nd ed., §6.2), so tiny p-values keep their magnitude.
 */
export function normalTwoSidedPValue(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const poly =
    -x * x -
    1.26551223 +
    t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  return t * Math.exp(poly);
}
