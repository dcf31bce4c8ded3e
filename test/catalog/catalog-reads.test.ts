// The catalog's read API (the only code that names its tables): imported IDs, release records, the
// calculation versions of pinned rows, the Market Events source handed to analysis, and the ID-list SQL.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MARKET_EVENTS_CURRENT_VIEW,
  MARKET_EVENTS_TABLE,
  idInListSql,
  importedReleaseIds,
  openCatalog,
  pullReleases,
  readMarketEvents,
  readReleaseRecords,
  releaseCalculationVersions,
  type Catalog,
  type PullResult,
} from '../../src/catalog/index.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { createTempHome } from '../support/temp-home.js';
import { mockClient } from '../support/with-catalog.js';

let mock: MockServer;
let temp: Awaited<ReturnType<typeof createTempHome>>;
let catalog: Catalog;
let pulled: PullResult[];
/** Three listed IDs, newest first: the first two are pulled, the third is not. */
let listed: string[];

beforeAll(async () => {
  mock = await startMockServer({ days: 6 });
  temp = await createTempHome();
  catalog = await openCatalog(temp.home);
  const client = mockClient(mock, temp.home);
  try {
    listed = (await client.releases({ limit: 3 })).map((release) => release.id);
    // One release per pull: downloads overlap within a pull, so only separate pulls fix the import order.
    pulled = [];
    for (const id of [listed[1]!, listed[0]!]) {
      const result = await pullReleases(catalog, client, [id]);
      expect(result.failed).toEqual([]);
      pulled.push(...result.pulled);
    }
  } finally {
    await client.close();
  }
});
afterAll(async () => {
  await catalog?.close();
  await mock?.close();
  await temp?.remove();
});

describe('importedReleaseIds', () => {
  it('returns exactly the imported subset of the IDs asked about, in the order given, each once', async () => {
    const [newest, second, absent] = listed as [string, string, string];
    expect([...(await importedReleaseIds(catalog, [absent, newest, second, newest]))]).toEqual([newest, second]);
    expect([...(await importedReleaseIds(catalog, [absent]))]).toEqual([]);
    expect([...(await importedReleaseIds(catalog, []))]).toEqual([]);
  });

  it('compares IDs exactly: an ID differing only in case is not imported', async () => {
    const id = listed[0]!;
    expect(id).not.toBe(id.toUpperCase());
    expect([...(await importedReleaseIds(catalog, [id.toUpperCase(), id]))]).toEqual([id]);
  });

  it('without IDs: every imported release ID, in import order', async () => {
    expect([...(await importedReleaseIds(catalog))]).toEqual([listed[1], listed[0]]);
  });
});

describe('readReleaseRecords', () => {
  it('reads day, version, rows and file digests of the imported IDs; an absent ID has no record', async () => {
    const records = await readReleaseRecords(catalog, [...listed, listed[0]!.toUpperCase()]);
    expect([...records.keys()].sort()).toEqual([listed[0], listed[1]].sort());
    for (const result of pulled) {
      const record = records.get(result.id)!;
      expect({ day: record.day, version: record.version, rows: record.rows }).toEqual({ day: result.day, version: result.version, rows: result.rows });
      expect(record.files.get(result.format!)?.bytes).toBe(result.bytes);
      expect(record.manifestSha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});

describe('releaseCalculationVersions', () => {
  it('lists the distinct calculation versions of exactly those releases rows, sorted', async () => {
    const direct = await catalog.query(
      `SELECT DISTINCT calculation_version AS v FROM market_events WHERE release_id = $id AND calculation_version IS NOT NULL ORDER BY 1`,
      { id: listed[0]! },
    );
    expect(direct.length).toBeGreaterThan(0);
    expect(await releaseCalculationVersions(catalog, [listed[0]!])).toEqual(direct.map((row) => String(row.v)));
    expect(await releaseCalculationVersions(catalog, [listed[2]!])).toEqual([]);
    expect(await releaseCalculationVersions(catalog, [])).toEqual([]);
  });
});

describe('readMarketEvents', () => {
  it('hands over the connection and the table and view names; the current view holds the pulled rows', async () => {
    const rows = await readMarketEvents(catalog, async (source) => {
      expect([source.eventsTable, source.currentView]).toEqual([MARKET_EVENTS_TABLE, MARKET_EVENTS_CURRENT_VIEW]);
      const reader = await source.connection.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM ${source.currentView}`);
      return Number(reader.getRowObjectsJson()[0]!.n);
    });
    expect(rows).toBe(pulled.reduce((sum, result) => sum + result.rows, 0));
  });

  it('reads only: a write inside throws and changes nothing; the catalog stays usable', async () => {
    await expect(readMarketEvents(catalog, (source) => source.connection.run(`DELETE FROM ${source.eventsTable}`))).rejects.toThrow(/read-only/);
    expect([...(await importedReleaseIds(catalog))]).toHaveLength(2);
    const [row] = await catalog.query(`SELECT count(*)::DOUBLE AS n FROM market_events`);
    expect(Number(row!.n)).toBe(pulled.reduce((sum, result) => sum + result.rows, 0));
  });
});

describe('idInListSql', () => {
  it('quotes each value exactly, lists duplicates once, and is false for none', () => {
    expect(idInListSql('id', ['a', "o'b", 'a', 'A'])).toBe(`id IN ('a', 'o''b', 'A')`);
    expect(idInListSql('release_id', [])).toBe('false');
  });
});
