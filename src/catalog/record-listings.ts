// Remembers each day's release IDs seen in `/releases` listings (table listed_releases), so the catalog
// knows when a newer revision of an imported day exists. Listings never change what a lookup returns.

import { isReleaseId, type Release } from '../spec/index.js';
import type { Catalog } from './catalog.js';
import { sqlTimestamp } from './run-migrations.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Records the listed releases (ID, day, version, generated_at); returns how many were new. */
export async function recordListings(catalog: Catalog, releases: readonly Release[]): Promise<number> {
  const listedAt = sqlTimestamp(catalog.now());
  const valid = releases.filter((release) => isReleaseId(release?.id) && typeof release.day === 'string' && DAY.test(release.day));
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
          generated_at: typeof release.generated_at === 'number' ? release.generated_at : null,
          at: listedAt,
        },
      );
      added += result.rowsChanged;
    }
    return added;
  });
}
