// releaseIdsWithPrefix: the whole IDs a copied prefix can mean, among the releases this catalog knows: imported
// (`releases`) or listed (`listed_releases`, recorded by rdw releases, pull --latest and sync).

import type { Catalog } from './catalog.js';

/** Up to `limit` distinct known release IDs starting with `prefix` (compared exactly, never case-folded), sorted. */
export async function releaseIdsWithPrefix(catalog: Catalog, prefix: string, limit = 3): Promise<string[]> {
  const rows = await catalog.query<{ id: string }>(
    `SELECT id FROM (SELECT id FROM releases UNION SELECT id FROM listed_releases) WHERE starts_with(id, $prefix) ORDER BY id LIMIT $limit`,
    { prefix, limit },
  );
  return rows.map((row) => String(row.id));
}
