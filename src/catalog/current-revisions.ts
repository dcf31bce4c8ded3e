// Which imported revision of a day studies read: the newest generated_at, ties by import order. The rule of the
// `market_events_current` view (catalog-schema.ts, migration 1, written out there as applied), of `rdw ls`'s
// "current" column, and of the sync's "stays current": one SQL expression, so none can drift from the others.

import type { Catalog } from './catalog.js';

/** 1 for the current revision of its day among `releases` rows (a window expression over `releases`). */
export const REVISION_RANK_SQL = 'row_number() OVER (PARTITION BY day ORDER BY generated_at DESC, import_order DESC)';

/** The current release ID of each of `days` (YYYY-MM-DD) that has an imported release. */
export async function currentRevisions(catalog: Catalog, days: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(days)].filter((day) => /^\d{4}-\d{2}-\d{2}$/.test(day));
  if (wanted.length === 0) return new Map();
  const rows = await catalog.query(
    `SELECT strftime(day, '%Y-%m-%d') AS day, id FROM releases WHERE day IN (${wanted.map((day) => `DATE '${day}'`).join(', ')})
     QUALIFY ${REVISION_RANK_SQL} = 1`,
  );
  return new Map(rows.map((row) => [String(row.day), String(row.id)]));
}
