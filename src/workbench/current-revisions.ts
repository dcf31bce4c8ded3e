// Which imported revision of each day studies read: the rule of the catalog's `market_events_current` view (newest
// generated_at, ties by import order), asked of the `releases` table for some days.

import type { Catalog } from '../catalog/index.js';

/** The current release ID of each of `days` (YYYY-MM-DD) that has an imported release. */
export async function currentRevisions(catalog: Catalog, days: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(days)].filter((day) => /^\d{4}-\d{2}-\d{2}$/.test(day));
  if (wanted.length === 0) return new Map();
  const rows = await catalog.query(
    `SELECT strftime(day, '%Y-%m-%d') AS day, id FROM releases WHERE day IN (${wanted.map((day) => `DATE '${day}'`).join(', ')})
     QUALIFY row_number() OVER (PARTITION BY day ORDER BY generated_at DESC, import_order DESC) = 1`,
  );
  return new Map(rows.map((row) => [String(row.day), String(row.id)]));
}
