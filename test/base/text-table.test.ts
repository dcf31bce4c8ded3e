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
});
