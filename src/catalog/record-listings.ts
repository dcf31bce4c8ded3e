// Remembers each day's release IDs seen in `/releases` listings (table listed_releases), so the catalog
// knows when a newer revision of an imported day exists. Listings never change what a lookup returns.

import { isReleaseDay, isReleaseId, type ListedRelease } from '../contract/index.js';
import { writeTransaction, type Catalog } from './catalog.js';
import { sqlTimestamp } from './run-migrations.js';
import { idInListSql } from './release-id-sql.js';

/**
 * What a listing item says of its files, as stored in `listed_releases.files`: per format the `sha256` and
 * `bytes` it states (as given, whatever their type: the cross-check compares them); null when it states none.
 */
function listedFiles(release: ListedRelease): string | null {
  const files = (release as { files?: unknown }).files;
  if (typeof files !== 'object' || files === null || Array.isArray(files)) return null;
  const kept: Record<string, Record<string, unknown>> = {};
  for (const [format, digest] of Object.entries(files as Record<string, unknown>)) {
    if (typeof digest !== 'object' || digest === null || Array.isArray(digest)) continue;
    const statement = Object.fromEntries(['sha256', 'bytes'].filter((key) => key in digest).map((key) => [key, (digest as Record<string, unknown>)[key]]));
    if (Object.keys(statement).length > 0) kept[format] = statement;
  }
  return Object.keys(kept).length === 0 ? null : JSON.stringify(kept);
}

/**
 * Records the listed releases (ID exactly as listed, day, and version, generated_at and the files' checksums and
 * sizes when the listing gives them, else NULL: the spec names only id, day, version and files); returns how
 * many were new. An ID listed before keeps its `first_listed_at` and takes this listing's statements (a statement
 * this listing leaves out keeps the earlier one), so the last listing that named a release is what a later pull by
 * ID, in any process, cross-checks its manifest with. Items without a release ID or a real YYYY-MM-DD day are left out.
 */
export async function recordListings(catalog: Catalog, releases: readonly ListedRelease[]): Promise<number> {
  const listedAt = sqlTimestamp(catalog.now());
  const valid = releases.filter((release) => isReleaseId(release?.id) && isReleaseDay(release.day));
  if (valid.length === 0) return 0;
  return writeTransaction(catalog, async (connection) => {
    const known = await connection.runAndReadAll(`SELECT id FROM listed_releases WHERE ${idInListSql('id', valid.map((release) => release.id))}`);
    const seen = new Set(known.getRowObjectsJson().map((row) => String(row.id)));
    let added = 0;
    for (const release of valid) {
      if (!seen.has(release.id)) added += 1;
      seen.add(release.id);
      await connection.run(
        `INSERT INTO listed_releases (id, day, version, generated_at, first_listed_at, files, last_listed_at)
         VALUES ($id, $day::DATE, $version, $generated_at, $at::TIMESTAMP, $files::JSON, $at::TIMESTAMP)
         ON CONFLICT (id) DO UPDATE SET day = excluded.day, version = coalesce(excluded.version, listed_releases.version),
           generated_at = coalesce(excluded.generated_at, listed_releases.generated_at),
           files = coalesce(excluded.files, listed_releases.files), last_listed_at = excluded.last_listed_at`,
        {
          id: release.id,
          day: release.day,
          version: typeof release.version === 'string' ? release.version : null,
          generated_at: typeof release.generated_at === 'number' && Number.isFinite(release.generated_at) ? release.generated_at : null,
          at: listedAt,
          files: listedFiles(release),
        },
      );
    }
    return added;
  });
}

/**
 * The catalog's recorded listing item of this exact ID (`listed_releases`: id, day, and version and the files'
 * checksums and sizes when the last listing naming it gave them), or undefined when no recorded listing held it.
 */
export async function recordedListing(catalog: Catalog, id: string): Promise<ListedRelease | undefined> {
  const [row] = await catalog.sideQuery(`SELECT strftime(day, '%Y-%m-%d') AS day, version, files::VARCHAR AS files FROM listed_releases WHERE id = $id`, { id });
  if (row === undefined) return undefined;
  return {
    id,
    day: String(row.day),
    ...(typeof row.version === 'string' ? { version: row.version } : {}),
    ...(typeof row.files === 'string' ? { files: JSON.parse(row.files) as unknown } : {}),
  } as ListedRelease;
}
