// The items of a `/releases` listing, read liberally: the spec names only id, day, version and files, so an
// item is kept with whatever else it carries, and only an item without a usable `id` or `day` is skipped.

import { isReleaseDay, isReleaseId, releaseWithoutNulls, withLowerCaseDigests, type ListedRelease } from '../contract/index.js';

/** An item of a listing that was left out, and why (for one notice; never fatal). */
export interface SkippedListingItem {
  /** Position in the listing's `items`, from 0. */
  index: number;
  /** Short reason: `not an object`, `no usable id`, `no usable day`. */
  reason: string;
}

/** What a listing held: the usable items, in the service's order, and the skipped ones. */
export interface ListedReleases {
  releases: ListedRelease[];
  skipped: SkippedListingItem[];
}

/**
 * Keeps every item with a release ID (isReleaseId, exactly as given: never trimmed or case-folded) and a
 * real `YYYY-MM-DD` day; every other field, known or not, is kept as given (absent stays absent), except that
 * a null is read as absent (`releaseWithoutNulls`: `version: null`, `files.schema: null`, a null `sha256`),
 * and a file's hex `sha256` is read in lower case (withLowerCaseDigests), as the manifest's is.
 * @param limit the count asked for: a longer listing is cut to its first `limit` usable items. Default: all.
 */
export function readListedReleases(items: readonly unknown[], limit?: number): ListedReleases {
  const releases: ListedRelease[] = [];
  const skipped: SkippedListingItem[] = [];
  items.map((item) => withLowerCaseDigests(releaseWithoutNulls(item))).forEach((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) skipped.push({ index, reason: 'not an object' });
    else if (!isReleaseId((item as { id?: unknown }).id)) skipped.push({ index, reason: 'no usable id' });
    else if (!isReleaseDay((item as { day?: unknown }).day)) skipped.push({ index, reason: 'no usable day' });
    else releases.push(item as ListedRelease);
  });
  return { releases: limit === undefined ? releases : releases.slice(0, limit), skipped };
}
