// The items of a `/releases` listing, read liberally: the spec names only id, day, version and files, so an
// item is kept with whatever else it carries, and only an item without a usable `id` or `day`, or a second item
// of an ID already listed, is skipped.

import { isReleaseDay, isReleaseId, releaseWithoutNulls, withLowerCaseDigests, type ListedRelease } from '../contract/index.js';

/** An item of a listing that was left out, and why (for one notice; never fatal). */
export interface SkippedListingItem {
  /** Position in the listing's `items`, from 0. */
  index: number;
  /** Short reason: `not an object`, `no usable id`, `no usable day`, `repeats the ID of item N`. */
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
  const firstIndex = new Map<string, number>();
  items.map((item) => withLowerCaseDigests(releaseWithoutNulls(item))).forEach((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) skipped.push({ index, reason: 'not an object' });
    else if (!isReleaseId((item as { id?: unknown }).id)) skipped.push({ index, reason: 'no usable id' });
    else if (!isReleaseDay((item as { day?: unknown }).day)) skipped.push({ index, reason: 'no usable day' });
    // One ID is one immutable release: a second item of it (perhaps another day) is left out, so every reader
    // of this listing (the pull, the recorded listing, rdw releases) keeps the same, first, statement.
    else if (firstIndex.has((item as ListedRelease).id)) skipped.push({ index, reason: `repeats the ID of item ${firstIndex.get((item as ListedRelease).id)! + 1}` });
    else {
      firstIndex.set((item as ListedRelease).id, index);
      releases.push(item as ListedRelease);
    }
  });
  return { releases: limit === undefined ? releases : releases.slice(0, limit), skipped };
}
