// The releases in the local catalog (what `rdw ls` prints), each with whether it is the current revision
// of its day and the newest revision known from listings when that is newer.

import type { Catalog } from './catalog.js';
import { REVISION_RANK_SQL } from './current-revisions.js';

/** One imported release. Times: `imported_at` ISO UTC; `generated_at` UTC Unix seconds. */
export interface ImportedRelease {
  id: string;
  day: string;
  version: string;
  rows: number;
  generated_at: number;
  imported_at: string;
  /** True when this is the revision `market_events_current` shows for its day. */
  current: boolean;
  /** The newest known revision of the same day (listed or imported) when newer than this one. */
  newerId: string | null;
  /** Whether `newerId` is imported too. */
  newerImported: boolean;
  /**
   * Another revision of the same day seen in a listing that gave no `generated_at` (the spec does not
   * promise one), not imported: which of the two is newer is unknown. Null when none, or when `newerId` is set.
   */
  otherListedId: string | null;
}

/** Imported releases, newest day first, newest revision first within a day. */
export async function listImportedReleases(catalog: Catalog): Promise<ImportedRelease[]> {
  const rows = await catalog.query(`
WITH known AS (
  SELECT id, day, generated_at FROM listed_releases WHERE generated_at IS NOT NULL
  UNION
  SELECT id, day, generated_at FROM releases
),
newest AS (
  SELECT day, arg_max(id, generated_at) AS id, max(generated_at) AS generated_at FROM known GROUP BY day
),
unordered AS (
  SELECT day, first(id ORDER BY first_listed_at DESC, id DESC) AS id FROM listed_releases l
  WHERE generated_at IS NULL AND NOT EXISTS (SELECT 1 FROM releases i WHERE i.id = l.id) GROUP BY day
),
ranked AS (
  SELECT *, ${REVISION_RANK_SQL} AS revision_rank FROM releases
)
SELECT r.id, strftime(r.day, '%Y-%m-%d') AS day, r.version, r.rows::DOUBLE AS rows, r.generated_at,
  strftime(r.imported_at, '%Y-%m-%dT%H:%M:%SZ') AS imported_at,
  r.revision_rank = 1 AS current,
  CASE WHEN n.generated_at > r.generated_at AND n.id <> r.id THEN n.id END AS newer_id,
  EXISTS (SELECT 1 FROM releases i WHERE i.id = n.id) AS newer_imported,
  u.id AS other_listed_id
FROM ranked r LEFT JOIN newest n ON n.day = r.day LEFT JOIN unordered u ON u.day = r.day
ORDER BY r.day DESC, r.generated_at DESC, r.import_order DESC`);
  return rows.map((row) => ({
    id: String(row.id),
    day: String(row.day),
    version: String(row.version),
    rows: Number(row.rows),
    generated_at: Number(row.generated_at),
    imported_at: String(row.imported_at),
    current: row.current === true,
    newerId: row.newer_id === null || row.newer_id === undefined ? null : String(row.newer_id),
    newerImported: row.newer_id !== null && row.newer_id !== undefined && row.newer_imported === true,
    otherListedId:
      (row.newer_id === null || row.newer_id === undefined) && row.other_listed_id !== null && row.other_listed_id !== undefined
        ? String(row.other_listed_id)
        : null,
  }));
}
