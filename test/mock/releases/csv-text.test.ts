import { describe, expect, it } from 'vitest';
import { ByteLru, ReleaseValueError, csvField, formatCsv } from '../../../src/mock/releases/index.js';
import { IntegrityError } from '../../../src/contract/index.js';

describe('CSV text', () => {
  it.each([
    ['null', null, ''],
    ['undefined', undefined, ''],
    ['an empty string, quoted so it differs from null', '', '""'],
    ['a plain word', 'BTCUSDT', 'BTCUSDT'],
    ['a comma', 'a,b', '"a,b"'],
    ['a quote', 'say "hi"', '"say ""hi"""'],
    ['a newline', 'a\nb', '"a\nb"'],
    ['a carriage return', 'a\rb', '"a\rb"'],
    ['true', true, 'true'],
    ['false', false, 'false'],
    ['an integer', 1793491200, '1793491200'],
    ['a fraction in shortest round-trip form', 0.1 + 0.2, '0.30000000000000004'],
    ['a negative number', -2.5, '-2.5'],
    ['a tiny number', 1e-7, '1e-7'],
    ['negative zero', -0, '0'],
  ])('writes %s', (_name, value, expected) => {
    expect(csvField(value)).toBe(expected);
    if (typeof value === 'number') expect(Number(csvField(value))).toBe(value === 0 ? 0 : value);
  });

  it.each([[Number.NaN], [Number.POSITIVE_INFINITY]])('refuses %s with an integrity error', (value) => {
    let error: unknown;
    try {
      csvField(value, 'price');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ReleaseValueError);
    expect(error).toBeInstanceOf(IntegrityError);
    expect((error as ReleaseValueError).code).toBe('RDW_RELEASE_VALUE');
  });

  it('writes the header first, columns in the given order, and \\n after every line', () => {
    const rows = [
      { b: 2, a: 'x' },
      { a: null, b: true },
    ];
    expect(formatCsv(['a', 'b'], rows)).toBe('a,b\nx,2\n,true\n');
    expect(formatCsv(['a', 'b'], [])).toBe('a,b\n');
  });
});

describe('byte-bounded LRU', () => {
  it('evicts the least recently used values once the byte total exceeds the capacity', () => {
    const lru = new ByteLru<string>(10);
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    expect(lru.get('a')).toBe('A');
    lru.set('c', 'C', 4);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe('A');
    expect(lru.get('c')).toBe('C');
    expect(lru.bytes).toBe(8);
    lru.set('big', 'X', 11);
    expect(lru.get('big')).toBeUndefined();
    expect(lru.bytes).toBe(8);
    lru.set('a', 'A2', 2);
    expect([lru.get('a'), lru.bytes, lru.size]).toEqual(['A2', 6, 2]);
  });
});
