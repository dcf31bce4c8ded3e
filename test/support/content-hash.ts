// Test helper: what rows hold, independent of order and of rdw's own columns (release_id, day).

import type { Catalog, CatalogRow } from '../../src/catalog/index.js';
import { MARKET_EVENT_FIELDS } from '../../src/contract/index.js';

const SPEC_COLUMNS = MARKET_EVENT_FIELDS.map((field) => `"${field.name}"`).join(', ');

/** Row count `n` and `h`, the sum of every row's hash over the spec columns, of `FROM <from>`. */
export async function contentHash(catalog: Catalog, from: string): Promise<CatalogRow | undefined> {
  const [row] = await catalog.query(`SELECT count(*)::DOUBLE AS n, sum(hash(${SPEC_COLUMNS}))::VARCHAR AS h FROM ${from}`);
  return row;
}
