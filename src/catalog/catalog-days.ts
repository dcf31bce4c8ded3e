// catalogDays: which UTC days the catalog holds a release of, and the days between its first and last that
// it holds none of (what `rdw sync` names: a day that fell off the 100-item listing is only reachable by ID).

import type { Catalog } from './catalog.js';

/** The days of the imported releases. Days are `YYYY-MM-DD` (UTC). */
export interface CatalogDays {
  /** Oldest day with an imported release; null for an empty catalog. */
  firstDay: string | null;
  /** Newest day with an imported release; null for an empty catalog. */
  lastDay: string | null;
  /** Distinct days with at least one imported release. */
  days: number;
  /** Days after `firstDay` and before `lastDay` without any imported release, oldest first. */
  missingDays: string[];
}

/** The catalog's day coverage, in one query. */
export async function catalogDays(catalog: Catalog): Promise<CatalogDays> {
  const [row] = await catalog.query(`
WITH held AS (SELECT DISTINCT day FROM releases),
bounds AS (SELECT min(day) AS first_day, max(day) AS last_day, count(*)::INTEGER AS days FROM held)
SELECT strftime(first_day, '%Y-%m-%d') AS first_day, strftime(last_day, '%Y-%m-%d') AS last_day, days,
  (SELECT coalesce(list(strftime(d::DATE, '%Y-%m-%d') ORDER BY d), []) FROM bounds b2,
     generate_series(b2.first_day::TIMESTAMP, b2.last_day::TIMESTAMP, INTERVAL 1 DAY) AS g(d)
   WHERE d::DATE NOT IN (SELECT day FROM held)) AS missing
FROM bounds`);
  const missing = row?.missing;
  return {
    firstDay: row?.first_day === null || row?.first_day === undefined ? null : String(row.first_day),
    lastDay: row?.last_day === null || row?.last_day === undefined ? null : String(row.last_day),
    days: Number(row?.days ?? 0),
    missingDays: Array.isArray(missing) ? missing.map(String) : [],
  };
}
