// The manifest's statements checked against the `/releases` listing's statement of the same release ID (two
// statements of the service must agree), and its file sizes against what any daily byte budget could hold.

import { PLANS, type ListedRelease, type Release } from '../contract/index.js';
import { throwContradictions, type Contradiction } from './check-release-facts.js';
import { catalogMessages } from './messages.js';

/** The largest daily byte allowance of the spec's plans (Research Desk: 5 GiB). */
export const LARGEST_PLAN_DAILY_BYTES = Math.max(...Object.values(PLANS).map((plan) => plan.daily_bytes));

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Contradictions between the manifest and the listing item of the same ID, on what the spec says an item
 * carries: its day; its version and each file's `sha256` and `bytes` when the listing states them (a format
 * only one of them names is not compared; other fields of an item, "not shown" by the spec, are not compared).
 */
export function listingContradictions(release: Release, listed: ListedRelease | undefined): Contradiction[] {
  if (listed === undefined) return [];
  const says = catalogMessages.manifestSays;
  const found: Contradiction[] = [];
  if (listed.day !== release.day) found.push({ field: 'day', detail: says.listing('day', release.day, String(listed.day)) });
  if (typeof listed.version === 'string' && listed.version !== release.version) {
    found.push({ field: 'version', detail: says.listing('version', release.version, listed.version) });
  }
  const files = release.files as unknown as Record<string, { sha256: string; bytes: number }>;
  const listedFiles = (listed as { files?: unknown }).files;
  if (!isObject(listedFiles)) return found;
  for (const [format, digest] of Object.entries(files)) {
    const other = listedFiles[format];
    if (!isObject(other)) continue;
    for (const key of ['sha256', 'bytes'] as const) {
      // A digest recorded by an older rdw may be upper-case hex: case carries no meaning in one.
      const stated = other[key];
      const same = typeof stated === 'string' && key === 'sha256' ? stated.toLowerCase() === digest[key] : stated === digest[key];
      if (stated === undefined || same) continue;
      found.push({ field: `files.${format}`, detail: says.listing(`files.${format}.${key}`, String(digest[key]), String(other[key])) });
    }
  }
  return found;
}

/** Files of the manifest larger than any daily byte allowance could download (`limit` bytes). */
export function sizeContradictions(release: Release, limit: number): Contradiction[] {
  return Object.entries(release.files as unknown as Record<string, { bytes: number }>)
    .filter(([, digest]) => digest.bytes > limit)
    .map(([format, digest]) => ({ field: `files.${format}.bytes`, detail: catalogMessages.manifestSays.tooLarge(format, digest.bytes, limit) }));
}

/**
 * Throws ManifestContradictionError (exit 3) when the manifest of release `id` (already shape-checked by
 * checkManifest) disagrees with `listed`, its item in a `/releases` listing (this client's, or the catalog's
 * recorded one); nothing when `listed` is undefined.
 */
export function checkListingAgrees(id: string, release: Release, listed: ListedRelease | undefined): void {
  throwContradictions(id, listingContradictions(release, listed));
}

/**
 * Throws ManifestContradictionError (exit 3) when the manifest names a file larger than the largest daily
 * byte allowance: the spec's plans' (LARGEST_PLAN_DAILY_BYTES), or `dailyBytes`, the account's
 * (`client.limits().daily_bytes`), when larger. No budget could ever hold it, so it is an integrity failure,
 * not a limit. With `dailyBytes` undefined (unknown) no size is refused, as the client then does no budget
 * pre-check either: the service decides.
 */
export function checkFileSizes(id: string, release: Release, dailyBytes: number | undefined): void {
  if (dailyBytes === undefined) return;
  throwContradictions(id, sizeContradictions(release, Math.max(LARGEST_PLAN_DAILY_BYTES, dailyBytes)));
}
