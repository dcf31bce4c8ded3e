// store/tmp names of a release's parts stay distinct for IDs that differ only in case (case-insensitive
// file systems), and stay the ID itself for the mock's lowercase IDs.

import { describe, expect, it } from 'vitest';
import { tempName } from '../../src/catalog/pull-release.js';

const lower = `${'ab12'.repeat(15)}-_.~`;

describe('tempName', () => {
  it('is the ID itself for a lowercase ID', () => {
    expect(tempName(lower, 'parquet')).toBe(`${lower}.parquet`);
  });

  it('gives IDs that differ only in case names that differ even when case is folded', () => {
    const variants = [lower, lower.toUpperCase(), `${lower.slice(0, 32).toUpperCase()}${lower.slice(32)}`, `A${lower.slice(1)}`];
    const folded = variants.map((id) => tempName(id, 'parquet').toLowerCase());
    expect(new Set(folded).size).toBe(variants.length);
    expect(tempName('AbC'.padEnd(64, 'x'), 'csv')).toBe(`^ab^c${'x'.repeat(61)}.csv`);
  });
});
