import { describe, expect, it } from 'vitest';
import { researchDataset } from '../../src/contract/index.js';
import { parseCsv, researchTableFromCsv } from '../../src/client/index.js';

describe('parseCsv', () => {
  it('reads quoted cells, doubled quotes, CRLF and a missing final newline', () => {
    const { header, records } = parseCsv('a,b,c\r\n"x, y","say ""hi""",\r\n1,2,3');
    expect(header).toEqual(['a', 'b', 'c']);
    expect(records).toEqual([
      ['x, y', 'say "hi"', ''],
      ['1', '2', '3'],
    ]);
  });

  it('reads a header-only file as zero records', () => {
    expect(parseCsv('a,b\n')).toEqual({ header: ['a', 'b'], records: [] });
  });
});

describe('researchTableFromCsv', () => {
  const columns = researchDataset('market-breadth')!.columns;

  it('types declared columns, keeps unknown columns as strings and empty cells as null', () => {
    const csv = 'symbol,price,change_24h,extra\nBTCUSDT,65000.5,-1.25,abc\nETHUSDT,,3,\n';
    const { columns: names, rows, table } = researchTableFromCsv(csv, columns);
    expect(names).toEqual(['symbol', 'price', 'change_24h', 'extra']);
    expect(rows).toEqual([
      { symbol: 'BTCUSDT', price: 65000.5, change_24h: -1.25, extra: 'abc' },
      { symbol: 'ETHUSDT', price: null, change_24h: 3, extra: null },
    ]);
    expect(table.numRows).toBe(2);
    expect(String(table.schema.fields.find((f) => f.name === 'price')!.type)).toBe('Float64');
    expect(String(table.schema.fields.find((f) => f.name === 'extra')!.type)).toBe('Utf8');
    expect(table.getChild('price')!.toArray()[0]).toBe(65000.5);
    expect(table.getChild('price')!.get(1)).toBeNull();
  });
});
