// How the mock writes every CSV it serves: an empty string is `""` (not null) and a non-finite number is refused.

import { describe, expect, it } from 'vitest';
import { csvField, formatCsv } from '../../../src/base/index.js';
import { IntegrityError } from '../../../src/contract/index.js';
import { RELEASE_CSV_OPTIONS, ReleaseValueError } from '../../../src/mock/releases/index.js';

describe('the mock CSV options', () => {
  it('quotes an empty string so readers can tell it from null', () => {
    expect(csvField('', RELEASE_CSV_OPTIONS)).toBe('""');
    expect(formatCsv(['a', 'b'], [{ a: '', b: null }], RELEASE_CSV_OPTIONS)).toBe('a,b\n"",\n');
  });

  it.each([[Number.NaN], [Number.POSITIVE_INFINITY]])('refuses %s with an integrity error', (value) => {
    for (const write of [() => csvField(value, RELEASE_CSV_OPTIONS, 'price'), () => formatCsv(['price'], [{ price: value }], RELEASE_CSV_OPTIONS)]) {
      let error: unknown;
      try {
        write();
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ReleaseValueError);
      expect(error).toBeInstanceOf(IntegrityError);
      expect((error as ReleaseValueError).code).toBe('RDW_RELEASE_VALUE');
      expect((error as Error).message).toContain('price');
    }
  });
});
