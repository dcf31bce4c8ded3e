// importedReleaseIds: the one answer to "which of these release IDs are imported?".

import type { Catalog } from './catalog.js';
import { idInListSql } from './release-id-sql.js';

/**
 * The IDs among `ids` that the catalog has imported, compared exactly (never case-folded), in the order
 * given, each once; without `ids`, every imported release ID in import order. One query.
 */
export async function importedReleaseIds(catalog: Catalog, ids?: readonly string[]): Promise<Set<string>> {
  if (ids !== undefined && ids.length === 0) return new Set();
  const where = ids === undefined ? '' : ` WHERE ${idInListSql('id', ids)}`;
  const found = new Set((await catalog.query(`SELECT id FROM releases${where} ORDER BY import_order`)).map((row) => String(row.id)));
  return ids === undefined ? found : new Set(ids.filter((id) => found.has(id)));
}
