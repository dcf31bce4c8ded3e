// A listing that restates a release already imported otherwise: its rows, generation time or a file's digest differ
// from what rdw verified and imported under that ID. A release ID is immutable (spec), so rdw keeps what it verified
// and says that the service contradicts itself (a second server's adversary, session 35: a sync counted such a
// release "present" without a word while `rdw releases` showed the new statement beside "imported yes").

import { idInListSql, type Catalog } from '../catalog/index.js';
import type { ListedRelease } from '../contract/index.js';

/** One field the listing states otherwise than the import recorded. */
export interface ListingRestatement {
  id: string;
  /** `rows`, `generated_at`, or `files.<format>.sha256`. */
  field: string;
  imported: string;
  listed: string;
}

/** Every statement of `listed` about an imported release that differs from what was imported (fields it leaves out are not compared). */
export async function listingRestatements(catalog: Catalog, listed: readonly ListedRelease[]): Promise<ListingRestatement[]> {
  const ids = [...new Set(listed.map((item) => item.id))];
  if (ids.length === 0) return [];
  const releases = await catalog.query(`SELECT id, rows::DOUBLE AS rows, generated_at FROM releases WHERE ${idInListSql('id', ids)}`);
  if (releases.length === 0) return [];
  const files = await catalog.query(`SELECT release_id, format, sha256 FROM release_files WHERE ${idInListSql('release_id', releases.map((row) => String(row.id)))}`);
  const found: ListingRestatement[] = [];
  for (const release of releases) {
    const id = String(release.id);
    const item = listed.find((candidate) => candidate.id === id)!;
    const compare = (field: string, imported: unknown, stated: unknown) => {
      if (stated === undefined || stated === null || imported === undefined || imported === null) return;
      if (String(imported) !== String(stated)) found.push({ id, field, imported: String(imported), listed: String(stated) });
    };
    if (typeof item.rows === 'number') compare('rows', Number(release.rows), item.rows);
    if (typeof item.generated_at === 'number') compare('generated_at', Number(release.generated_at), item.generated_at);
    const stated = (item.files ?? {}) as Record<string, { sha256?: unknown } | undefined>;
    for (const file of files.filter((row) => String(row.release_id) === id)) {
      const format = String(file.format);
      const digest = stated[format]?.sha256;
      if (typeof digest === 'string') compare(`files.${format}.sha256`, String(file.sha256), digest.toLowerCase());
    }
  }
  return found;
}
