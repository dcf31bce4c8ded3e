// releaseCalculationVersions: which formula versions the imported rows of exact release IDs carry (a study
// lock pins them; verifying a lock compares them).

import type { Catalog } from './catalog.js';
import { MARKET_EVENTS_TABLE } from './market-events-source.js';
import { idInListSql } from './release-id-sql.js';

/** Distinct non-null `calculation_version` of the rows of `ids` (exact IDs), sorted; empty for no IDs. */
export async function releaseCalculationVersions(catalog: Catalog, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await catalog.query(
    `SELECT DISTINCT calculation_version AS v FROM ${MARKET_EVENTS_TABLE}
     WHERE ${idInListSql('release_id', ids)} AND calculation_version IS NOT NULL ORDER BY 1`,
  );
  return rows.map((row) => String(row.v));
}
