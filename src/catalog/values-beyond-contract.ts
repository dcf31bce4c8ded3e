// What a release's inserted rows hold that the spec does not allow and rdw accepts anyway (liberal in what it
// takes, strict in what it guarantees): numbers that are not finite (NaN, ±Infinity; a service's way of saying "no
// valid observation") become NULL, missing and never a value a mean could swallow; strings outside a closed value
// set (a new outcome status) stay as they are (the analysis reads every status but `complete` as missing). Both
// are recorded in `releases.accepted` and reported by the pull.

import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier, quoteLiteral } from '../base/index.js';
import { CLOSED_VALUE_SETS, MARKET_EVENT_FIELDS } from '../contract/index.js';
import type { AcceptedBeyondContract } from './accepted-beyond-contract.js';
import type { Catalog } from './catalog.js';
import type { ReleaseFacts } from './check-release-facts.js';
import { idInListSql } from './release-id-sql.js';
import type { ReleaseImport } from './release-import.js';

const NUMBER_FIELDS = MARKET_EVENT_FIELDS.filter((field) => field.type === 'number').map((field) => field.name);
/** The fields whose value set the spec closes (an open one, e.g. derivative_status's "observed values", takes any). */
const CLOSED_SETS = new Map(
  MARKET_EVENT_FIELDS.flatMap((field) => (field.values !== undefined && CLOSED_VALUE_SETS.includes(field.values) ? [[field.name, new Set<string>(field.values)] as const] : [])),
);

/** Rows of the batch (inserted, not committed) per release whose spec number fields hold a non-finite value. */
function nonFiniteRowsSql(items: readonly ReleaseImport[]): string {
  const days = [...new Set(items.map((item) => `DATE ${quoteLiteral(item.release.day)}`))].join(', ');
  // isfinite(NULL) is NULL, so a row counts only when some value is NaN or infinite.
  const finite = NUMBER_FIELDS.map((name) => `isfinite(${quoteIdentifier(name)})`).join(' AND ');
  return `SELECT release_id, count(*)::DOUBLE AS n FROM market_events
WHERE day IN (${days}) AND ${idInListSql('release_id', items.map((item) => item.release.id))} AND NOT (${finite})
GROUP BY release_id`;
}

/**
 * Sets every non-finite value of a spec number field of the batch's inserted rows to NULL, inside the import
 * transaction (before the manifest's statements are checked, so a NaN sample_time is missing, not a day), and
 * returns per release ID the fields it changed and on how many rows. One scan; more only when something is found.
 */
export async function nullNonFiniteNumbers(connection: DuckDBConnection, items: readonly ReleaseImport[]): Promise<Map<string, { field: string; rows: number }[]>> {
  const found = new Map<string, { field: string; rows: number }[]>();
  const flagged = (await connection.runAndReadAll(nonFiniteRowsSql(items))).getRowObjectsJS();
  for (const { release_id: id } of flagged) {
    const item = items.find((candidate) => candidate.release.id === String(id))!;
    const where = `day = DATE ${quoteLiteral(item.release.day)} AND release_id = ${quoteLiteral(item.release.id)}`;
    const counts = (
      await connection.runAndReadAll(
        `SELECT ${NUMBER_FIELDS.map((name, i) => `count(*) FILTER (WHERE NOT isfinite(${quoteIdentifier(name)}))::DOUBLE AS c${i}`).join(', ')} FROM market_events WHERE ${where}`,
      )
    ).getRowObjectsJS()[0]!;
    const fields = NUMBER_FIELDS.flatMap((field, i) => (Number(counts[`c${i}`]) > 0 ? [{ field, rows: Number(counts[`c${i}`]) }] : []));
    const set = fields.map(({ field }) => `${quoteIdentifier(field)} = CASE WHEN isfinite(${quoteIdentifier(field)}) THEN ${quoteIdentifier(field)} END`);
    await connection.run(`UPDATE market_events SET ${set.join(', ')} WHERE ${where}`);
    found.set(item.release.id, fields);
  }
  return found;
}

/** Values of the counted closed-set fields (sample_type, the statuses) outside the spec's value set, with their rows. */
export function valuesOutsideSets(facts: ReleaseFacts | undefined): { field: string; value: string; rows: number }[] {
  if (facts === undefined) return [];
  return Object.entries(facts.counts).flatMap(([field, counts]) => {
    const allowed = CLOSED_SETS.get(field);
    if (allowed === undefined) return [];
    return Object.entries(counts).flatMap(([value, rows]) => (allowed.has(value) ? [] : [{ field, value, rows }]));
  });
}

/**
 * Records what the rows carried beyond the contract in `releases.accepted`, merged in SQL over what is recorded
 * (the files' findings at import; everything at a re-import by `rdw verify --repair`, whose items carry none).
 */
export async function recordValuesBeyondContract(
  connection: DuckDBConnection,
  item: ReleaseImport,
  found: Pick<AcceptedBeyondContract, 'nonFinite' | 'otherValues'>,
): Promise<void> {
  await connection.run(`UPDATE releases SET accepted = json_merge_patch(coalesce(accepted, '{}'::JSON), $found::JSON) WHERE id = $id`, {
    found: JSON.stringify(found),
    id: item.release.id,
  });
}

/** `releases.accepted` of imported releases (those with none are left out): what a pull reports, the import's findings included. */
export async function importedAccepted(catalog: Catalog, ids: readonly string[]): Promise<Map<string, AcceptedBeyondContract>> {
  if (ids.length === 0) return new Map();
  const rows = await catalog.query<{ id: string; accepted: string }>(
    `SELECT id, accepted::VARCHAR AS accepted FROM releases WHERE ${idInListSql('id', ids)} AND accepted IS NOT NULL`,
  );
  return new Map(rows.map((row) => [row.id, JSON.parse(row.accepted) as AcceptedBeyondContract]));
}
