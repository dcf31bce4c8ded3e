import { describe, expect, it } from 'vitest';
import { textTableLines } from '../../src/base/index.js';

describe('textTableLines', () => {
  const header = ['symbol', 'n', 'mean'];
  const rows = [
    ['BTCUSDT', '120', '0.25'],
    ['ETH', '8', '-0.01'],
  ];

  it('pads every column to its widest cell, two spaces apart, trailing spaces trimmed', () => {
    expect(textTableLines(header, rows)).toEqual(['symbol   n    mean', 'BTCUSDT  120  0.25', 'ETH      8    -0.01']);
  });

  it('right-aligns the columns asked for and draws a rule under the header', () => {
    expect(textTableLines(header, rows, { rightAligned: [false, true, true], rule: true })).toEqual([
      'symbol     n   mean',
      '-------  ---  -----',
      'BTCUSDT  120   0.25',
      'ETH        8  -0.01',
    ]);
  });

  it('is the header alone for no rows', () => {
    expect(textTableLines(['a', 'bb'], [], { rule: true })).toEqual(['a  bb', '-  --']);
  });

  describe('wider than maxWidth: blocks of columns, each starting with the key columns', () => {
    const wideHeader = ['window', 'kind', 'alpha', 'beta', 'gamma', 'delta'];
    const wideRows = [
      ['1h', 'breakout', '0.1234', '12.5', '0.000001', 'true'],
      ['24h', 'momentum', '-1.5', '3', '0.2', 'false'],
    ];

    it('splits where the next column would pass maxWidth, repeats the keys, a blank line between blocks', () => {
      const lines = textTableLines(wideHeader, wideRows, { rightAligned: [false, false, true, true, true, false], maxWidth: 30, keyColumns: 2 });
      expect(lines).toEqual([
        'window  kind       alpha  beta',
        '1h      breakout  0.1234  12.5',
        '24h     momentum    -1.5     3',
        '',
        'window  kind         gamma',
        '1h      breakout  0.000001',
        '24h     momentum       0.2',
        '',
        'window  kind      delta',
        '1h      breakout  true',
        '24h     momentum  false',
      ]);
    });

    it('every line fits where it can; the blocks hold every column once, in order; one table when it fits', () => {
      for (const maxWidth of [20, 30, 40, 50]) {
        const lines = textTableLines(wideHeader, wideRows, { maxWidth, keyColumns: 1 });
        const headers = lines.filter((line, i) => i === 0 || lines[i - 1] === '').map((line) => line.split(/\s+/));
        expect(headers.every((names) => names[0] === 'window')).toBe(true);
        expect(headers.flatMap((names) => names.slice(1))).toEqual(wideHeader.slice(1));
        // A block is the key and at least one column, however narrow maxWidth is.
        for (const line of lines) if (headers.every((names) => names.length > 2)) expect(line.length).toBeLessThanOrEqual(maxWidth);
      }
      expect(textTableLines(wideHeader, wideRows, { maxWidth: 200 })).toEqual(textTableLines(wideHeader, wideRows));
    });

    it('gives a column wider than the rest of the line a block of its own', () => {
      const lines = textTableLines(['k', 'a', 'long'], [['x', '1', 'y'.repeat(40)]], { maxWidth: 20 });
      expect(lines).toEqual(['k  a', 'x  1', '', `k  long`, `x  ${'y'.repeat(40)}`]);
    });
  });
});
