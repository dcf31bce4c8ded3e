// The advice of the no-interval note, by split (model-intervals-simulator.test.ts follows it on a real catalog).

import { describe, expect, it } from 'vitest';
import { sharedDaysAdvisor, walkForwardAdvisor } from '../../src/modelling/index.js';

describe('fold advice', () => {
  it('k-fold: the most folds that share out the days with enough each (at least 2), else none; J folds need J · needed days', () => {
    expect(sharedDaysAdvisor(30)(8, 5)).toEqual({ kind: 'fold-count', mostFolds: 3, daysNeeded: 40, days: 30 });
    expect(sharedDaysAdvisor(30)(16, 5)).toEqual({ kind: 'fold-count', mostFolds: undefined, daysNeeded: 80, days: 30 });
  });

  it("walk-forward: the most folds k with ⌊days / (k + 1)⌋ ≥ needed, and (J + 1) · needed days for J folds; with test days given, the test days", () => {
    expect(walkForwardAdvisor(30, 5, undefined)(8, 5)).toEqual({ kind: 'fold-count', mostFolds: 2, daysNeeded: 48, days: 30 });
    expect(walkForwardAdvisor(12, 5, undefined)(8, 5)).toEqual({ kind: 'fold-count', mostFolds: undefined, daysNeeded: 48, days: 12 });
    expect(walkForwardAdvisor(30, 4, 5)(8, 4)).toEqual({ kind: 'test-days', folds: 4, days: 30 });
  });
});
