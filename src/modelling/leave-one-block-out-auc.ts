// The ROC AUC of the rows without each block in turn, exactly, from one walk over the rows in score order:
// the pairs without block g are every pair, minus those with a row in g, plus those with both rows in g.

/**
 * AUC of the rows outside block g, for every g: out[g] = S₋g / (P₋g · N₋g), where S counts the pairs of a
 * positive row scored above a negative one (a tie one half), as rocAuc does. One walk over `order` gives, per
 * block, the pairs its positives make with every negative, the pairs its negatives make with every positive and
 * the pairs inside it; every sum is a whole number or a half below 2^53, so it is exact. O(n + G) after the sort.
 * NaN for a block whose removal leaves no positive or no negative row, and everywhere when a score is NaN.
 * @param order row positions by score ascending (scoreOrder(p))
 * @param block each row's block, 0 ..< blocks
 */
export function leaveOneBlockOutAuc(y: ArrayLike<number>, p: ArrayLike<number>, order: ArrayLike<number>, block: ArrayLike<number>, blocks: number): Float64Array {
  const { concordant, pairs } = leaveOneBlockOutPairs(y, p, order, block, blocks);
  return concordant.map((value, g) => (pairs[g]! > 0 ? value / pairs[g]! : Number.NaN));
}

/** The AUC's numerator and denominator over some rows, and over those rows without each block in turn. */
export interface BlockPairs {
  /** S: positive-above-negative pairs (a tie one half) of all the rows. */
  readonly totalConcordant: number;
  /** P · N: positive-negative pairs of all the rows. */
  readonly totalPairs: number;
  /** S₋g per block (NaN everywhere when a score is NaN). */
  readonly concordant: Float64Array;
  /** P₋g · N₋g per block. */
  readonly pairs: Float64Array;
}

/**
 * leaveOneBlockOutAuc's counts before the division, so that counts of separate sets of rows (e.g. folds) add up
 * to an AUC over the pairs within each set. Rows are those listed in `order`.
 */
export function leaveOneBlockOutPairs(y: ArrayLike<number>, p: ArrayLike<number>, order: ArrayLike<number>, block: ArrayLike<number>, blocks: number): BlockPairs {
  const concordantOut = new Float64Array(blocks);
  const pairsOut = new Float64Array(blocks);
  const n = order.length;
  // The rows in score order, copied once: the walks below then read memory in sequence (random reads through
  // `order` cost about half the time on 500k rows).
  const score = new Float64Array(n);
  const positive = new Uint8Array(n);
  const blockOf = new Int32Array(n);
  for (let k = 0; k < n; k += 1) {
    const row = order[k]!;
    score[k] = p[row]!;
    positive[k] = y[row] === 1 ? 1 : 0;
    blockOf[k] = block[row]!;
    if (Number.isNaN(score[k])) return { totalConcordant: Number.NaN, totalPairs: Number.NaN, concordant: concordantOut.fill(Number.NaN), pairs: pairsOut };
  }
  const positives = new Float64Array(blocks);
  const negatives = new Float64Array(blocks);
  /** Pairs a block's positives make with every negative row (full-sample ranks). */
  const positivePairs = new Float64Array(blocks);
  /** Negatives of each block below the current score, and tied with it (within-block pairs). */
  const negativesBelow = new Float64Array(blocks);
  const tied = new Float64Array(blocks);
  /** Pairs inside each block. */
  const inside = new Float64Array(blocks);
  const touched: number[] = [];
  let allNegativesBelow = 0;
  let total = 0;
  let start = 0;
  while (start < n) {
    const value = score[start]!;
    let end = start;
    let groupNegatives = 0;
    while (end < n && score[end] === value) {
      if (positive[end] === 0) {
        const g = blockOf[end]!;
        if (tied[g] === 0) touched.push(g);
        tied[g] = tied[g]! + 1;
        groupNegatives += 1;
      }
      end += 1;
    }
    // Each positive of the group pairs with the negatives below plus half the tied ones, overall and in its block.
    const pairs = allNegativesBelow + groupNegatives / 2;
    for (let k = start; k < end; k += 1) {
      if (positive[k] === 0) continue;
      const g = blockOf[k]!;
      total += pairs;
      positivePairs[g] = positivePairs[g]! + pairs;
      inside[g] = inside[g]! + negativesBelow[g]! + tied[g]! / 2;
      positives[g] = positives[g]! + 1;
    }
    for (const g of touched) {
      negativesBelow[g] = negativesBelow[g]! + tied[g]!;
      negatives[g] = negatives[g]! + tied[g]!;
      tied[g] = 0;
    }
    touched.length = 0;
    allNegativesBelow += groupNegatives;
    start = end;
  }
  let allPositives = 0;
  for (let g = 0; g < blocks; g += 1) allPositives += positives[g]!;
  // The pairs a block's negatives make with every positive: a second walk, from the top down.
  const negativePairs = new Float64Array(blocks);
  let positivesAbove = 0;
  let end = n;
  while (end > 0) {
    const value = score[end - 1]!;
    let begin = end;
    let groupPositives = 0;
    while (begin > 0 && score[begin - 1] === value) {
      begin -= 1;
      groupPositives += positive[begin]!;
    }
    const pairs = positivesAbove + groupPositives / 2;
    for (let k = begin; k < end; k += 1) {
      if (positive[k] === 1) continue;
      const g = blockOf[k]!;
      negativePairs[g] = negativePairs[g]! + pairs;
    }
    positivesAbove += groupPositives;
    end = begin;
  }
  for (let g = 0; g < blocks; g += 1) {
    concordantOut[g] = total - positivePairs[g]! - negativePairs[g]! + inside[g]!;
    pairsOut[g] = (allPositives - positives[g]!) * (allNegativesBelow - negatives[g]!);
  }
  return { totalConcordant: total, totalPairs: allPositives * allNegativesBelow, concordant: concordantOut, pairs: pairsOut };
}
