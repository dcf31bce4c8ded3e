// The event study's day bootstrap as it was before issue 28 (moving-block percentile interval and normal-approximation
// p-value, src/analysis at eb650a2), kept only so the calibration exploration can show before vs after.

/** Per-cluster totals of complete returns, aligned by cluster (UTC day) index, days in calendar order. */
export interface ClusterTotals {
  /** Sum of the returns of each cluster, percentage points. */
  readonly sums: Float64Array;
  /** Number of returns of each cluster. */
  readonly counts: Float64Array;
}

/** Event totals per cluster, plus the sum of the events' direction signs (+1 up, -1 down). */
export interface EventClusterTotals extends ClusterTotals {
  /** Per cluster: (up events) - (down events) among the counted returns. */
  readonly signed: Float64Array;
}

/**
 * Bootstrap draws of `mean(events) - share * mean(controls)`, where share = mean direction sign of the
 * drawn events (each event compared with the control return signed by its own direction; exactly +1 or
 * -1 for a one-direction group), resampling whole clusters: each draw picks
 * ceil(K / blockLength) blocks of `blockLength` consecutive clusters (circular, start uniform over the K
 * clusters) with replacement, and takes the events **and** the controls of the drawn clusters together.
 * A mean is the ratio of the drawn sums to the drawn counts. A draw with no event or no control return is
 * NaN (the caller drops it). mulberry32 from `seed` (seededRandom of src/base), inlined as in bootstrapMeans.
 * @param events per-cluster totals and direction signs of the group's complete event returns (length K)
 * @param controls per-cluster totals of the complete control returns (length K, same clusters)
 * @param blockLength clusters per block, >= 1 (1 = plain day clusters). Default 1.
 */
export function clusterBootstrapDifferences(
  events: EventClusterTotals,
  controls: ClusterTotals,
  samples: number,
  seed: number,
  blockLength = 1,
): Float64Array {
  const k = events.sums.length;
  const draws = new Float64Array(samples);
  if (k === 0 || controls.sums.length !== k) return draws.fill(Number.NaN);
  const length = Math.max(1, Math.min(Math.floor(blockLength), k));
  const blocks = Math.ceil(k / length);
  const { sums: eSums, counts: eCounts, signed: eSigned } = events;
  const { sums: cSums, counts: cCounts } = controls;
  let state = seed >>> 0;
  for (let b = 0; b < samples; b += 1) {
    let eSum = 0;
    let eCount = 0;
    let eSign = 0;
    let cSum = 0;
    let cCount = 0;
    for (let j = 0; j < blocks; j += 1) {
      state = (state + 0x6d2b79f5) | 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      let index = ((((t ^ (t >>> 14)) >>> 0) * k) / 4294967296) | 0;
      for (let step = 0; step < length; step += 1) {
        eSum += eSums[index]!;
        eCount += eCounts[index]!;
        eSign += eSigned[index]!;
        cSum += cSums[index]!;
        cCount += cCounts[index]!;
        index = index + 1 === k ? 0 : index + 1;
      }
    }
    draws[b] = eCount > 0 && cCount > 0 ? eSum / eCount - (eSign / eCount) * (cSum / cCount) : Number.NaN;
  }
  return draws;
}

/** The old default block length in days for a window: 1 + floor(window / 1 day) (1 day for 15m-4h, 2 for 24h, 8 for 7d). */
export function defaultBlockDays(windowSeconds: number): number {
  return 1 + Math.floor(windowSeconds / 86_400);
}

/**
 * Whether a block bootstrap over `clusters` days can give draws that differ: at least two days, and blocks
 * shorter than the sample (a block as long as the sample covers every day, circularly, in every draw). When
 * false, every draw is the sample itself and a "95% interval" would be a point: callers give no interval.
 */
export function clustersCanVary(clusters: number, blockLength: number): boolean {
  return clusters >= 2 && Math.max(1, Math.floor(blockLength)) < clusters;
}

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
