// orderedRows: spec-ordered rows kept as they are (no copy), others copied into spec order; NaN refused.

import { describe, expect, it } from 'vitest';
import { ReleaseArchive, ReleaseValueError, freezeRows, orderedRow, orderedRows, releaseCsv } from '../../../src/mock/releases/index.js';
import { MarketSimulator } from '../../../src/mock/simulator/index.js';
import { MARKET_EVENT_FIELD_NAMES, type MarketEventRow } from '../../../src/contract/index.js';

const simulator = new MarketSimulator({ seed: 1, days: 2 });
const [day] = simulator.days() as [string];
const rows = simulator.dayRows(day, simulator.options.now).slice(0, 40);

describe('orderedRows', () => {
  it('keeps rows already in spec order (the simulator builds them so) and matches orderedRow', () => {
    const result = orderedRows(rows);
    expect(result.every((row, index) => row === rows[index])).toBe(true);
    expect(result).toEqual(rows.map(orderedRow));
    expect(Object.keys(result[0]!)).toEqual(MARKET_EVENT_FIELD_NAMES);
  });

  it('copies rows in another key order or with absent fields into spec order', () => {
    const reversed = Object.fromEntries(Object.entries(rows[0]!).reverse()) as unknown as MarketEventRow;
    const partial = { ...rows[1]!, price: undefined } as unknown as MarketEventRow;
    const [a, b] = orderedRows([reversed, partial]);
    expect(a).not.toBe(reversed);
    expect(Object.keys(a!)).toEqual(MARKET_EVENT_FIELD_NAMES);
    expect(a).toEqual(rows[0]);
    expect(b!.price).toBeNull();
    expect(Object.keys(b!)).toEqual(MARKET_EVENT_FIELD_NAMES);
    expect(releaseCsv([a!])).toEqual(releaseCsv([rows[0]!]));
  });

  it('refuses non-finite numbers with ReleaseValueError', () => {
    const bad = { ...rows[0]!, price: Number.NaN } as MarketEventRow;
    expect(() => orderedRows([bad])).toThrow(ReleaseValueError);
  });

  it('freezeRows freezes every row in place', () => {
    const copies = rows.map((row) => ({ ...row }));
    expect(freezeRows(copies)).toBe(copies);
    expect(copies.every((row) => Object.isFrozen(row))).toBe(true);
  });

  it('the archive serves frozen rows, the same as the simulator gives', () => {
    const archive = new ReleaseArchive(new MarketSimulator({ seed: 1, days: 1 }));
    const [release] = archive.currentReleases(1);
    const served = archive.rows(release!.id);
    expect(served.every((row) => Object.isFrozen(row))).toBe(true);
    expect(served).toEqual(simulator.dayRows(release!.day, release!.generated_at));
  });
});
