// The model table's numbers: fixed decimals, and a value that rounds to zero printed without a minus sign.

import { describe, expect, it } from 'vitest';
import { fixedDecimals } from '../../src/cli/model-study-text.js';

describe('fixedDecimals', () => {
  it('rounds to the digits asked, keeping the sign of anything that does not round to zero', () => {
    expect(fixedDecimals(-0.00862, 4)).toBe('-0.0086');
    expect(fixedDecimals(0.54219, 3)).toBe('0.542');
    expect(fixedDecimals(-0.00005, 4)).toBe('-0.0001');
  });

  it('prints a value that rounds to zero as 0, never -0.0000', () => {
    expect(fixedDecimals(-0.00004, 4)).toBe('0.0000');
    expect(fixedDecimals(-0, 4)).toBe('0.0000');
    expect(fixedDecimals(-0.4, 0)).toBe('0');
  });
});
