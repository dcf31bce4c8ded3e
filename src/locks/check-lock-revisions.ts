// checkLockRevisions: which releases a study lock pins have a newer revision of their day, in a `/releases`
// listing or in the catalog (spec: freshness rule 3, a revision gets a new ID). The lock is never changed.

import { knownRevisions, type Catalog } from '../catalog/index.js';
import type { ListedRelease } from '../contract/index.js';
import type { StudyLock } from './study-lock.js';

/**
 * One pinned release checked: `revised` (a newer revision of its day is known), `current` (the listing
 * names it as its day's release, or nothing newer is known), `unlisted` (the listing does not name it and
 * nothing newer is known: its day fell off the listing, or the service no longer lists it; reported, not an error),
 * `unknown` (the listing names another release for its day, and the pinned ID is in neither the listing nor the
 * catalog: with no time of its own, "newer" cannot be known; a mistyped ID, another case, or a revision never seen
 * here; reported, not an error). IDs are compared exactly (case-sensitive).
 */
export interface PinnedReleaseCheck {
  /** The pinned release ID, exact. */
  id: string;
  /** Its UTC day, YYYY-MM-DD. */
  day: string;
  status: 'current' | 'revised' | 'unlisted' | 'unknown';
  /** The newest known revision of the day, when newer than the pinned one; null otherwise. */
  newerId: string | null;
  /** When the newer revision was generated (published), UTC Unix seconds; null when unknown or none. */
  newerGeneratedAt: number | null;
  /** Where the newer revision was seen; null when none. */
  seenIn: 'listing' | 'catalog' | null;
  /**
   * For `unlisted`: the release the listing names for that day instead, when it names one (a revision that is not
   * newer by generated_at); absent when the listing names none of that day. For `unknown`: the release the listing
   * names for that day.
   */
  listedId?: string;
}

interface Candidate {
  id: string;
  generatedAt: number | null;
  seenIn: 'listing' | 'catalog';
}

const timeOf = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/**
 * Checks every release of `lock` against `listing` (a `/releases` answer, newest first; empty when none
 * was read) and the revisions the catalog knows (imported or recorded from earlier listings).
 * A listed revision of the day other than the pinned one counts as newer unless both generation times are
 * known and say otherwise (the listing names each day's current release); a revision known only to the
 * catalog counts when both times are known and it is later. Reads only; one query.
 */
export async function checkLockRevisions(catalog: Catalog, lock: StudyLock, listing: readonly ListedRelease[]): Promise<PinnedReleaseCheck[]> {
  const known = await knownRevisions(catalog, lock.releases.map((release) => release.day));
  const listedIds = new Set(listing.map((item) => item.id));
  return lock.releases.map(({ id, day }) => {
    const listedOfDay = listing.filter((item) => item.day === day);
    const knownOfDay = known.get(day) ?? [];
    const pinnedAt =
      timeOf(listedOfDay.find((item) => item.id === id)?.generated_at) ?? knownOfDay.find((revision) => revision.id === id)?.generatedAt ?? null;
    const pinnedListed = listedIds.has(id);
    // Unknown to both the listing and the catalog: nothing says when it was made, so a listed revision of its day
    // is not "newer", only other (a mistyped or re-cased ID is as unknown as a revision never seen here).
    const listedOther = listedOfDay.find((item) => item.id !== id);
    if (!pinnedListed && listedOther !== undefined && !knownOfDay.some((revision) => revision.id === id)) {
      return { id, day, status: 'unknown' as const, newerId: null, newerGeneratedAt: null, seenIn: null, listedId: listedOther.id };
    }
    const candidates: Candidate[] = [
      ...listedOfDay.filter((item) => item.id !== id).map((item) => ({ id: item.id, generatedAt: timeOf(item.generated_at), seenIn: 'listing' as const })),
      ...knownOfDay.filter((revision) => revision.id !== id).map((revision) => ({ id: revision.id, generatedAt: revision.generatedAt, seenIn: 'catalog' as const })),
    ];
    const newer = candidates.filter((candidate) => {
      if (candidate.generatedAt !== null && pinnedAt !== null) return candidate.generatedAt > pinnedAt;
      return candidate.seenIn === 'listing' && !pinnedListed;
    });
    newer.sort((a, b) => (b.generatedAt ?? -Infinity) - (a.generatedAt ?? -Infinity) || (a.seenIn === 'listing' ? -1 : 1));
    const newest = newer[0];
    if (newest !== undefined) {
      // The listing's item of the same ID may carry the time the catalog's record lacks.
      const generatedAt = newest.generatedAt ?? timeOf(listing.find((item) => item.id === newest.id)?.generated_at);
      return { id, day, status: 'revised' as const, newerId: newest.id, newerGeneratedAt: generatedAt, seenIn: newest.seenIn };
    }
    const status = pinnedListed ? ('current' as const) : ('unlisted' as const);
    const listedInstead = pinnedListed ? undefined : listedOfDay[0]?.id;
    return { id, day, status, newerId: null, newerGeneratedAt: null, seenIn: null, ...(listedInstead === undefined ? {} : { listedId: listedInstead }) };
  });
}
