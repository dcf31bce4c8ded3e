// The catalog's history of fetched Research snapshots (table `snapshots`): one row per dataset and
// generated_at, first fetch wins, read back oldest first with the full body; bad snapshots are refused.

import { describe, expect, it } from 'vitest';
import { CatalogOptionError, recordSnapshot, snapshotHistory } from '../../src/catalog/index.js';
import type { ResearchSnapshot } from '../../src/client/index.js';
import { breadthSnapshot } from '../support/research-snapshot.js';
import { withCatalog } from '../support/with-catalog.js';

const snapshot = breadthSnapshot;

describe('snapshot records', () => {
  it('keeps one row per generated_at (a re-fetch adds nothing) and reads them back oldest first', async () => {
    await withCatalog(async (catalog) => {
      expect(await recordSnapshot(catalog, snapshot(1_793_491_500, 2.5))).toBe(true);
      expect(await recordSnapshot(catalog, snapshot(1_793_491_200, null), { fetchedAt: new Date('2026-11-01T00:06:00Z') })).toBe(true);
      expect(await recordSnapshot(catalog, snapshot(1_793_491_500, 9.9))).toBe(false);
      const history = await snapshotHistory(catalog, 'market-breadth');
      expect(history.map((entry) => [entry.dataset_id, entry.generated_at, entry.updated, entry.stale, entry.calculation_version])).toEqual([
        ['market-breadth', 1_793_491_200, 1_793_490_900, false, 'breadth-2'],
        ['market-breadth', 1_793_491_500, 1_793_491_200, false, 'breadth-2'],
      ]);
      // First fetch wins: the body recorded first, not the re-fetch's 9.9.
      expect(history[1]!.snapshot.items[0]).toEqual({ symbol: 'BTCUSDT', change_24h: 2.5 });
      expect(history[0]!.snapshot).toEqual(snapshot(1_793_491_200, null));
      expect(await snapshotHistory(catalog, 'funding-pressure')).toEqual([]);
      const [row] = await catalog.query(`SELECT strftime(fetched_at, '%Y-%m-%dT%H:%M:%SZ') AS at FROM snapshots WHERE generated_at = 1793491200`);
      expect(row).toEqual({ at: '2026-11-01T00:06:00Z' });
    });
  });

  it('keeps nulls as null (missing, never zero or false)', async () => {
    await withCatalog(async (catalog) => {
      const bare = { ...snapshot(1_793_491_800, 1), updated: null, stale: null, calculation_version: null } as unknown as ResearchSnapshot;
      expect(await recordSnapshot(catalog, bare)).toBe(true);
      const [entry] = await snapshotHistory(catalog, 'market-breadth');
      expect([entry!.updated, entry!.stale, entry!.calculation_version]).toEqual([null, null, null]);
    });
  });

  it('refuses a snapshot without a key or generated_at (exit 2, one sentence) and records nothing', async () => {
    await withCatalog(async (catalog) => {
      const bad = { ...snapshot(1, 1), generated_at: undefined } as unknown as ResearchSnapshot;
      await expect(recordSnapshot(catalog, bad)).rejects.toMatchObject({
        code: 'RDW_CATALOG_OPTION',
        exitCode: 2,
        message: 'The snapshot cannot be recorded: it has no numeric generated_at.',
      });
      await expect(recordSnapshot(catalog, { ...snapshot(1, 1), key: '' })).rejects.toBeInstanceOf(CatalogOptionError);
      expect(await catalog.query('SELECT count(*)::INTEGER AS n FROM snapshots')).toEqual([{ n: 0 }]);
    });
  });
});
