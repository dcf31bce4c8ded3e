// What gives each fold of a split enough test days for an interval, as the no-interval note advises it. Folds
// that share out the test days (k-fold) get more each when there are fewer; walk-forward's test blocks are
// ⌊days / (folds + 1)⌋ days (or the test days given, which no fold count changes).

/**
 * `fold-count`: fewer folds over the same days; `mostFolds` the most that give each fold enough, undefined when
 * none does; `daysNeeded` the days (with rows) that give each of the split's folds enough at its fold count, and
 * `days` those it has. `test-days`: walk-forward with its test days given (`folds` of them, over `days` days with rows).
 */
export type FoldAdvice =
  | { readonly kind: 'fold-count'; readonly mostFolds: number | undefined; readonly daysNeeded: number; readonly days: number }
  | { readonly kind: 'test-days'; readonly folds: number; readonly days: number };

/** What gives each of `folds` folds `neededDays` test days (evaluateModel's `foldAdvice`). */
export type FoldAdvisor = (neededDays: number, folds: number) => FoldAdvice;

/** Folds that share out `testDays` (k-fold): at most ⌊testDays / needed⌋ folds, if at least 2; J folds need J · needed days. */
export function sharedDaysAdvisor(testDays: number): FoldAdvisor {
  return (neededDays, folds) => {
    const most = Math.floor(testDays / neededDays);
    return { kind: 'fold-count', mostFolds: most >= 2 ? most : undefined, daysNeeded: folds * neededDays, days: testDays };
  };
}

/**
 * Walk-forward over `days` days with rows and `folds` folds: with its test days given, more of them; by default,
 * the most folds k with ⌊days / (k + 1)⌋ ≥ the days needed (and the (folds + 1) · needed days its folds need).
 */
export function walkForwardAdvisor(days: number, folds: number, givenTestDays: number | undefined): FoldAdvisor {
  return (neededDays) => {
    if (givenTestDays !== undefined) return { kind: 'test-days', folds, days };
    const most = Math.floor(days / neededDays) - 1;
    return { kind: 'fold-count', mostFolds: most >= 1 ? most : undefined, daysNeeded: (folds + 1) * neededDays, days };
  };
}
