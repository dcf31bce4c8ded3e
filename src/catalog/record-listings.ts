// Remembers each day's release IDs seen in `/releases` listings (table listed_releases), so the catalog
// knows when a newer revision of an imported day exists. Listings never change what a lookup returns.

import { isReleaseDay, isReleaseId, type ListedRelease } from '../contract/index.js';
import type { Catalog } from './catalog.js';
import { sqlTimestamp } from './run-migrations.js';

/**
 * Records the listed releases (ID exactly as listed, day, and version and generated_at when the listing
 * gives them, else NULL: the spec names only id, day, version and files); returns how many were new.
 * Items without a release ID or a real YYYY-MM-DD day are left out.
 */
export async function recordListings(catalog: Catalog, releases: readonly ListedRelease[]): Promise<number> {
  const listedAt = sqlTimestamp(catalog.now());
  const valid = releases.filter((release) => isReleaseId(release?.id) && isReleaseDay(release.day));
  if (valid.length === 0) return 0;
  return catalog.transaction(async (connection) => {
    let added = 0;
    for (const release of valid) {
      const result = await connection.run(
        `INSERT OR IGNORE INTO listed_releases VALUES ($id, $day::DATE, $version, $generated_at, $at::TIMESTAMP)`,
        {
          id: release.id,
          day: release.day,
          version: typeof release.version === 'string' ? release.version : null,
          generated_at: typeof release.generated_at === 'number' && Number.isFinite(release.generated_at) ? release.generated_at : null,
          at: listedAt,
        },
      );
      added += result.rowsChanged;
    }
    return added;
  });
}

/**
 * The catalog's recorded listing item of this exact ID (`listed_releases`: id, day, and version when the
 * listing gave one; files are not kept), or undefined when no recorded listing held it.
 */
export async function recordedListing(catalog: Catalog, id: string): Promise<ListedRelease | undefined> {
  const [row] = await catalog.sideQuery(`SELECT strftime(day, '%Y-%m-%d') AS day, version FROM listed_releases WHERE id = $id`, { id });
  if (row === undefined) return undefined;
  return { id, day: String(row.day), ...(typeof row.version === 'string' ? { version: row.version } : {}) } as ListedRelease;
}
