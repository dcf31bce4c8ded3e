import { describe, expect, it } from 'vitest';
import { csvField, formatCsv } from '../../src/base/index.js';

describe('CSV text', () => {
  it.each([
    ['null', null, ''],
    ['undefined', undefined, ''],
    ['an empty string, unquoted by default', '', ''],
    ['a plain word', 'BTCUSDT', 'BTCUSDT'],
    ['a comma', 'a,b', '"a,b"'],
    ['a quote', 'say "hi"', '"say ""hi"""'],
    ['a newline', 'a\nb', '"a\nb"'],
    ['a carriage return', 'a\rb', '"a\rb"'],
    ['a comma, quotes and a newline together', 'x, "y"\nz', '"x, ""y""\nz"'],
    ['true', true, 'true'],
    ['false', false, 'false'],
    ['an integer', 1793491200, '1793491200'],
    ['a fraction in shortest round-trip form', 0.1 + 0.2, '0.30000000000000004'],
    ['a negative number', -2.5, '-2.5'],
    ['a tiny number', 1e-7, '1e-7'],
    ['negative zero', -0, '0'],
    ['NaN, by default as text', Number.NaN, 'NaN'],
    ['infinity, by default as text', Number.POSITIVE_INFINITY, 'Infinity'],
  ])('writes %s', (_name, value, expected) => {
    expect(csvField(value)).toBe(expected);
    expect(formatCsv(['v'], [{ v: value }])).toBe(`v\n${expected}\n`);
  });

  it('quotes an empty string with quoteEmpty, so it differs from null', () => {
    expect(csvField('', { quoteEmpty: true })).toBe('""');
    expect(csvField(null, { quoteEmpty: true })).toBe('');
    expect(formatCsv(['a', 'b'], [{ a: '', b: null }], { quoteEmpty: true })).toBe('a,b\n"",\n');
  });

  it('hands a non-finite number to nonFinite with its column, which may throw', () => {
    const seen: Array<[number, string]> = [];
    const nonFinite = (value: number, column: string) => {
      seen.push([value, column]);
      return 'n/a';
    };
    expect(formatCsv(['price', 'size'], [{ price: Number.NEGATIVE_INFINITY, size: 2 }], { nonFinite })).toBe('price,size\nn/a,2\n');
    expect(csvField(Number.NaN, { nonFinite }, 'oi')).toBe('n/a');
    expect(seen).toEqual([
      [Number.NEGATIVE_INFINITY, 'price'],
      [Number.NaN, 'oi'],
    ]);
    expect(() => formatCsv(['p'], [{ p: Number.NaN }], { nonFinite: () => { throw new RangeError('no'); } })).toThrow(RangeError);
  });

  it('writes the header first (quoted like any field), columns in the given order, and \\n after every line', () => {
    const rows = [
      { b: 2, a: 'x' },
      { a: null, b: true },
    ];
    expect(formatCsv(['a', 'b'], rows)).toBe('a,b\nx,2\n,true\n');
    expect(formatCsv(['a', 'b'], [])).toBe('a,b\n');
    expect(formatCsv(['a,b', 'c'], [{ 'a,b': 1, c: 'd' }])).toBe('"a,b",c\n1,d\n');
  });
});
