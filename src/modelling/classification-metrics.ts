// Scores of binary predictions: log loss, ROC AUC (ties count one half) and accuracy at 0.5, each with
// optional per-row weights (the day-clustered bootstrap weights a row by how often its day was drawn).

/** Probabilities are clipped to [EPSILON, 1 - EPSILON] in the log loss, as scikit-learn does. */
export const LOG_LOSS_EPSILON = 1e-15;

/** Mean negative log-likelihood, natural log. NaN for no rows (or zero total weight). */
export function logLoss(y: ArrayLike<number>, p: ArrayLike<number>, weights?: ArrayLike<number>): number {
  let total = 0;
  let weightSum = 0;
  for (let i = 0; i < y.length; i += 1) {
    const w = weights ? weights[i]! : 1;
    if (w === 0) continue;
    total += w * rowLogLoss(y[i]!, p[i]!);
    weightSum += w;
  }
  return weightSum > 0 ? total / weightSum : Number.NaN;
}

/** The log loss of one row: -ln(p) for target 1, -ln(1 - p) otherwise, p clipped by LOG_LOSS_EPSILON. */
export function rowLogLoss(y: number, p: number): number {
  const q = Math.min(1 - LOG_LOSS_EPSILON, Math.max(LOG_LOSS_EPSILON, p));
  return y === 1 ? -Math.log(q) : -Math.log(1 - q);
}

/** Share of rows whose class at threshold 0.5 (1 when p > 0.5) equals the target. NaN for no rows. */
export function accuracy(y: ArrayLike<number>, p: ArrayLike<number>, weights?: ArrayLike<number>): number {
  let right = 0;
  let weightSum = 0;
  for (let i = 0; i < y.length; i += 1) {
    const w = weights ? weights[i]! : 1;
    if ((p[i]! > 0.5 ? 1 : 0) === y[i]!) right += w;
    weightSum += w;
  }
  return weightSum > 0 ? right / weightSum : Number.NaN;
}

/** Row positions sorted by score ascending (ties by position): pass to rocAuc to sort once for many calls. */
export function scoreOrder(p: ArrayLike<number>): Uint32Array {
  const n = p.length;
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) order[i] = i;
  const scores = Float64Array.from(p);
  if (!scores.every(Number.isFinite)) return order.sort((a, b) => p[a]! - p[b]! || a - b); // NaN or ±Infinity: the comparator's own order
  // A stable radix sort (LSD, four 16-bit digits) of the scores' bits made monotone: no comparator call per pair
  // (~10 times faster on 500k rows); stable, so ties keep position order. -0 becomes 0 first (they tie).
  const bits = new Uint32Array(scores.buffer);
  for (let i = 0; i < n; i += 1) {
    scores[i] = scores[i]! + 0;
    const high = bits[2 * i + 1]!;
    if (high >>> 31 === 1) {
      bits[2 * i] = ~bits[2 * i]! >>> 0;
      bits[2 * i + 1] = ~high >>> 0;
    } else bits[2 * i + 1] = (high | 0x80000000) >>> 0;
  }
  let spare = new Uint32Array(n);
  const counts = new Uint32Array(65_537);
  for (let digit = 0; digit < 4; digit += 1) {
    const word = digit >> 1; // 0: low 32 bits, 1: high 32 bits (little-endian doubles)
    const shift = (digit & 1) * 16;
    counts.fill(0);
    for (let i = 0; i < n; i += 1) {
      const bucket = ((bits[2 * i + word]! >>> shift) & 0xffff) + 1;
      counts[bucket] = counts[bucket]! + 1;
    }
    if (counts.includes(n)) continue; // every row has this digit: the order stays
    for (let value = 1; value < counts.length; value += 1) counts[value] = counts[value]! + counts[value - 1]!;
    for (let position = 0; position < n; position += 1) {
      const row = order[position]!;
      const bucket = (bits[2 * row + word]! >>> shift) & 0xffff;
      spare[counts[bucket]!] = row;
      counts[bucket] = counts[bucket]! + 1;
    }
    [order, spare] = [spare, order];
  }
  return order;
}

/**
 * Area under the ROC curve: the probability that a random positive row scores above a random negative
 * one, a tie counting one half (the Mann–Whitney U / (n1·n0)). With weights, every pair counts w_pos·w_neg.
 * NaN when there is no positive or no negative row, or a score is NaN.
 * @param order positions sorted by score ascending (scoreOrder(p)); computed when omitted.
 */
export function rocAuc(y: ArrayLike<number>, p: ArrayLike<number>, weights?: ArrayLike<number>, order: Uint32Array = scoreOrder(p)): number {
  let negativesBelow = 0;
  let pairs = 0;
  let positives = 0;
  let start = 0;
  while (start < order.length) {
    // One group of equal scores at a time (a NaN score equals nothing, not even itself: no AUC).
    const score = p[order[start]!]!;
    if (Number.isNaN(score)) return Number.NaN;
    let end = start;
    let groupPositive = 0;
    let groupNegative = 0;
    while (end < order.length && p[order[end]!]! === score) {
      const i = order[end]!;
      const w = weights ? weights[i]! : 1;
      if (y[i]! === 1) groupPositive += w;
      else groupNegative += w;
      end += 1;
    }
    pairs += groupPositive * (negativesBelow + groupNegative / 2);
    negativesBelow += groupNegative;
    positives += groupPositive;
    start = end;
  }
  return positives > 0 && negativesBelow > 0 ? pairs / (positives * negativesBelow) : Number.NaN;
}
