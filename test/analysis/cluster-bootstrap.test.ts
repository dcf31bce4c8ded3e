// What is left of cluster-bootstrap.ts: the block length and "can the draws vary" check of the model scores'
// day-clustered bootstrap (the event study's moving-block draws went with the block jackknife).

import { describe, expect, it } from 'vitest';
import { clustersCanVary, defaultBlockDays } from '../../src/analysis/index.js';

describe('the model bootstrap\'s day blocks', () => {
  it('says when draws cannot differ: one day, or one block holding every day (the interval would be a point)', () => {
    expect([clustersCanVary(0, 1), clustersCanVary(1, 1), clustersCanVary(2, 2), clustersCanVary(8, 8), clustersCanVary(3, 9)]).toEqual([false, false, false, false, false]);
    expect([clustersCanVary(2, 1), clustersCanVary(3, 2), clustersCanVary(9, 8), clustersCanVary(2, 0.5)]).toEqual([true, true, true, true]);
  });

  it('default block length spans the days an outcome window overlaps', () => {
    expect([900, 3600, 14_400, 86_400, 604_800].map(defaultBlockDays)).toEqual([1, 1, 1, 2, 8]);
  });
});
