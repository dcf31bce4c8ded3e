// knownRevisions: every release ID the catalog knows for some UTC days, imported or only seen in a
// `/releases` listing, with its generated_at when known: what a study lock's pinned day is checked against.

import type { Catalog } from './catalog.js';

/** One known revision of a day. */
export interface KnownRevision {
  /** Exact release ID. */
  id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** Generation time (UTC Unix seconds); null when only a listing without generated_at named it. */
  generatedAt: number | null;
  /** True when the release is imported. */
  imported: boolean;
}

/** The known revisions of `days` (YYYY-MM-DD), by day, newest generated_at first (unknown last). */
export async function knownRevisions(catalog: Catalog, days: readonly string[]): Promise<Map<string, KnownRevision[]>> {
  const byDay = new Map<string, KnownRevision[]>();
  const wanted = [...new Set(days)].filter((day) => /^\d{4}-\d{2}-\d{2}$/.test(day));
  if (wanted.length === 0) return byDay;
  const list = wanted.map((day) => `DATE '${day}'`).join(', ');
  const rows = await catalog.query(`
WITH known AS (
  SELECT id, day, generated_at, true AS imported FROM releases WHERE day IN (${list})
  UNION ALL
  SELECT id, day, generated_at, false AS imported FROM listed_releases l
  WHERE day IN (${list}) AND NOT EXISTS (SELECT 1 FROM releases r WHERE r.id = l.id)
)
SELECT id, strftime(day, '%Y-%m-%d') AS day, generated_at, imported FROM known ORDER BY day, generated_at DESC NULLS LAST, id`);
  for (const row of rows) {
    const revision: KnownRevision = {
      id: String(row.id),
      day: String(row.day),
      generatedAt: row.generated_at === null || row.generated_at === undefined ? null : Number(row.generated_at),
      imported: row.imported === true,
    };
    byDay.set(revision.day, [...(byDay.get(revision.day) ?? []), revision]);
  }
  return byDay;
}
