// The ROC AUC by brute force, for tests of rdw's sorted, leave-one-block-out and within-fold AUCs.

/**
 * AUC over every (positive, negative) pair of the kept rows, a tie one half: no sort, no ranks. `paired` limits
 * the pairs counted (e.g. rows of the same fold). NaN without a pair.
 */
export function pairAuc(
  y: ArrayLike<number>,
  p: ArrayLike<number>,
  keep: (i: number) => boolean = () => true,
  paired: (i: number, j: number) => boolean = () => true,
): number {
  let pairs = 0;
  let count = 0;
  for (let i = 0; i < y.length; i += 1) {
    if (!keep(i) || y[i] !== 1) continue;
    for (let j = 0; j < y.length; j += 1) {
      if (!keep(j) || y[j] === 1 || !paired(i, j)) continue;
      count += 1;
      pairs += p[i]! > p[j]! ? 1 : p[i] === p[j] ? 0.5 : 0;
    }
  }
  return count === 0 ? Number.NaN : pairs / count;
}
