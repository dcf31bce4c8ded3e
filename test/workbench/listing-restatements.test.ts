// A listing that restates an imported release otherwise (a second server's adversary, session 35: rows 999, another
// generated_at and parquet digest for an ID imported with 476 rows; the sync said "present" and nothing else).
// Real releases of the mock imported into a real catalog; the listing items are the mock's own, then restated.

import { describe, expect, it } from 'vitest';
import { pullReleases } from '../../src/catalog/index.js';
import { syncWarnings } from '../../src/cli/sync-report-text.js';
import { workbenchMessages, type SyncReport } from '../../src/workbench/index.js';
import { listingRestatements } from '../../src/workbench/listing-restatements.js';
import { mockClient, withCatalog } from '../support/with-catalog.js';
import { withMockServer } from '../support/with-mock-server.js';

describe('listingRestatements', () => {
  it('names each field a listing states otherwise about an imported release, and nothing for the honest listing', async () => {
    await withMockServer({ days: 2, seed: 5 }, async (mock) => {
      await withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const listing = await client.releases({ limit: 2 });
        await pullReleases(catalog, client, [listing[0]!.id]);
        expect(await listingRestatements(catalog, listing)).toEqual([]);

        const [imported] = await catalog.query(`SELECT rows::DOUBLE AS rows, generated_at FROM releases WHERE id = '${listing[0]!.id}'`);
        const [parquet] = await catalog.query(`SELECT sha256 FROM release_files WHERE release_id = '${listing[0]!.id}' AND format = 'parquet'`);
        const restatedItem = { ...listing[0]!, rows: 999, generated_at: Number(imported!.generated_at) + 60, files: { parquet: { sha256: 'AB'.repeat(32), bytes: 1 } } };
        // The second item is not imported: nothing to compare it with.
        const found = await listingRestatements(catalog, [restatedItem, { ...listing[1]!, rows: 1 }]);
        expect(found).toEqual([
          { id: listing[0]!.id, field: 'rows', imported: String(imported!.rows), listed: '999' },
          { id: listing[0]!.id, field: 'generated_at', imported: String(imported!.generated_at), listed: String(Number(imported!.generated_at) + 60) },
          { id: listing[0]!.id, field: 'files.parquet.sha256', imported: String(parquet!.sha256), listed: 'ab'.repeat(32) },
        ]);
        // rdw sync says each on stderr (syncWarnings), in the one sentence rdw pull --latest uses too.
        const warnings = syncWarnings({ mayHaveFallenOff: null, missingDays: [], locks: [], restated: found, snapshots: [], snapshotDatasets: [] } as unknown as SyncReport);
        expect(warnings).toEqual(found.map(({ id, field, imported: was, listed }) => workbenchMessages.listingRestated(id, field, was, listed)));
        expect(warnings[0]).toBe(
          `The listing restates imported release ${listing[0]!.id.slice(0, 12)}…: rows 999, not ${String(imported!.rows)} as imported; a release ID is immutable, so rdw keeps what it verified (the service contradicts itself).`,
        );
      });
    });
  });
});
