// A listing that restates a release already imported otherwise: its rows, generation time or a file's digest differ
// from what rdw verified and imported under that ID. A release ID is immutable (spec), so rdw keeps what it verified
// and says that the service contradicts itself (a second server's adversary, session 35: a sync counted such a
// release "present" without a word while `rdw releases` showed the new statement beside "imported yes").

import { readReleaseRecords, type Catalog } from '../catalog/index.js';
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
  const records = await readReleaseRecords(catalog, listed.map((item) => item.id));
  const found: ListingRestatement[] = [];
  for (const record of records.values()) {
    const item = listed.find((candidate) => candidate.id === record.id)!;
    const compare = (field: string, imported: string, stated: unknown) => {
      if (stated !== undefined && stated !== null && imported !== String(stated)) found.push({ id: record.id, field, imported, listed: String(stated) });
    };
    if (typeof item.rows === 'number') compare('rows', String(record.rows), item.rows);
    if (typeof item.generated_at === 'number') compare('generated_at', String(record.generatedAt), item.generated_at);
    const stated = (item.files ?? {}) as Record<string, { sha256?: unknown } | undefined>;
    for (const [format, file] of record.files) {
      const digest = stated[format]?.sha256;
      // A digest in upper-case hex is the same digest (the client lowers it too: readListedReleases).
      if (typeof digest === 'string') compare(`files.${format}.sha256`, file.sha256, digest.toLowerCase());
    }
  }
  return found;
}
