// The block length and the "can the draws vary" check of the model scores' day-clustered bootstrap
// (model-score-intervals.ts, model-study.ts). The event study's interval is the block jackknife now
// (block-jackknife.ts); its moving-block draws were removed with it.

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
