// Day-clustered (moving-block) bootstrap of a difference of means from per-day sums and counts: the
// default interval of the event study, since same-day rows (six correlated pairs, overlapping windows) are not independent.

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

/**
 * Default block length in days for a window: 1 + floor(window / 1 day), i.e. 1 day for 15m-4h, 2 for
 * 24h, 8 for 7d, so a block spans the days one outcome window can overlap.
 */
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
