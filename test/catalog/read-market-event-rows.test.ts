// readMarketEventRows: the catalog's Market Events rows typed from the contract, checked against the very
// rows the fixture imported (a second source), with the current view, release IDs, a condition and a limit.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogOptionError, readMarketEventRows, type CatalogMarketEventRow } from '../../src/catalog/index.js';
import { MARKET_EVENT_FIELD_NAMES, type MarketEventRow } from '../../src/contract/index.js';
import { buildFixtureCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';
import { syntheticDays, type SyntheticDay } from '../support/synthetic-rows.js';

const byTime = (a: MarketEventRow, b: MarketEventRow) => a.sample_time - b.sample_time || (a.row_id < b.row_id ? -1 : a.row_id > b.row_id ? 1 : 0);
const withRelease = (day: SyntheticDay): CatalogMarketEventRow[] =>
  [...day.rows].sort(byTime).map((row) => ({ release_id: day.releaseId, day: day.day, ...row }));

describe('readMarketEventRows', () => {
  let fixture: FixtureCatalog;
  let days: SyntheticDay[];
  beforeAll(async () => {
    days = syntheticDays({ days: 2, seed: 5 });
    fixture = await buildFixtureCatalog(days.map((d) => ({ releaseId: d.releaseId, day: d.day, rows: d.rows })));
  }, 60_000);
  afterAll(() => fixture?.close());

  it('gives every row of the current view as imported: spec fields, release_id and day, in day and time order', async () => {
    const rows = await readMarketEventRows(fixture.catalog);
    const expected = days.flatMap(withRelease);
    expect(rows.length).toBeGreaterThan(100);
    expect(rows).toEqual(expected);
    expect(Object.keys(rows[0]!)).toEqual(['release_id', 'day', ...MARKET_EVENT_FIELD_NAMES]);
    expect(typeof rows[0]!.sample_time).toBe('number');
  });

  it('reads given releases, a condition with parameters and a limit', async () => {
    const second = days[1]!;
    const rows = await readMarketEventRows(fixture.catalog, {
      releases: [second.releaseId],
      where: 'symbol = $symbol AND sample_type = $type',
      parameters: { symbol: 'BTCUSDT', type: 'event' },
      limit: 3,
    });
    const expected = withRelease(second).filter((row) => row.symbol === 'BTCUSDT' && row.sample_type === 'event');
    expect(expected.length).toBeGreaterThan(3);
    expect(rows).toEqual(expected.slice(0, 3));
    expect(await readMarketEventRows(fixture.catalog, { releases: [] })).toEqual([]);
  });

  it.each([0, 1.5, -1])('refuses limit %s (CatalogOptionError, exit 2)', (limit) => {
    expect(() => readMarketEventRows(fixture.catalog, { limit })).toThrow(CatalogOptionError);
  });
});
