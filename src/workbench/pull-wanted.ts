// Pulling "the latest N" or exact IDs, the one way every caller does it (rdw pull, rdw lock, rdw demo, syncHome):
// the latest N are listed and remembered in the catalog (listed_releases, so `rdw ls` can tell when a newer
// revision appears) and then pulled by their exact IDs; exact IDs are checked before any request.

import { pullReleases, recordListings, type Catalog, type PullReleasesOptions, type PullReleasesResult } from '../catalog/index.js';
import { AbortedError, type RdwClient } from '../client/index.js';
import type { ListedRelease } from '../contract/index.js';
import { listingRestatements, type ListingRestatement } from './listing-restatements.js';
import { checkReleaseIdsOrPrefixes, resolveReleaseIds } from './resolve-release-ids.js';

/** Which releases to pull: exact IDs (or prefixes of 12+ characters: resolveReleaseIds), or the latest `latest` the API lists. */
export type WantedReleases = { ids: readonly string[] } | { latest: number };

export interface PullWantedOptions extends PullReleasesOptions {
  /**
   * Called once the IDs to pull are known, before the first download (a progress bar is sized here);
   * `listed` is the listing when the latest N were asked for. Default: none.
   */
  onPlanned?: (ids: readonly string[], listed: readonly ListedRelease[] | undefined) => void;
}

export interface PulledReleases {
  /** The IDs pulled, as given or as listed (newest first). */
  ids: string[];
  /** The listing, when the latest N were asked for. */
  listed: ListedRelease[] | undefined;
  /** What that listing states otherwise about releases already imported (kept as verified). */
  restated: ListingRestatement[];
  result: PullReleasesResult;
}

/**
 * Refuses an input that is neither a whole ID nor a prefix of 12+ characters (CatalogOptionError, exit 2; the
 * contract's one sentence). pullWanted checks too; a command calls it first to refuse before it opens anything.
 */
export function checkWantedReleases(wanted: WantedReleases): void {
  if ('ids' in wanted) checkReleaseIdsOrPrefixes(wanted.ids);
}

export interface ListLatestOptions {
  /**
   * An interrupt (Ctrl-C) during the listing: its request is cut and the listing is empty and not recorded, so the
   * caller stops as it does between releases (a slow service can take seconds to build a listing). Default: none.
   */
  signal?: AbortSignal;
}

/**
 * The latest `limit` releases as the API lists them (newest first), remembered in the catalog's listings.
 * @throws the client's errors for the listing (an abort by `options.signal` is not one: an empty listing).
 */
export async function listLatestReleases(catalog: Catalog, client: RdwClient, limit: number, options: ListLatestOptions = {}): Promise<ListedRelease[]> {
  const { signal } = options;
  let listed: ListedRelease[];
  try {
    listed = await client.releases({ limit, ...(signal === undefined ? {} : { signal }) });
  } catch (error) {
    if (signal?.aborted === true && error instanceof AbortedError) return [];
    throw error;
  }
  await recordListings(catalog, listed);
  return listed;
}

/**
 * Pulls `wanted` into `catalog`: exact IDs as given (a prefix resolved to the one known ID), or the latest N listed
 * first (listLatestReleases). A
 * release that fails is in `result.failed` (pullReleases); nothing else throws once the pull has begun.
 * @throws CatalogOptionError (exit 2) for a malformed exact ID, before any request; the listing's errors.
 */
export async function pullWanted(catalog: Catalog, client: RdwClient, wanted: WantedReleases, options: PullWantedOptions = {}): Promise<PulledReleases> {
  const { onPlanned, ...pullOptions } = options;
  checkWantedReleases(wanted);
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  const listed = 'latest' in wanted ? await listLatestReleases(catalog, client, wanted.latest, signal) : undefined;
  const ids = listed === undefined ? await resolveReleaseIds(catalog, (wanted as { ids: readonly string[] }).ids) : listed.map((release) => release.id);
  onPlanned?.(ids, listed);
  const result = await pullReleases(catalog, client, ids, pullOptions);
  const restated = listed === undefined ? [] : await listingRestatements(catalog, listed);
  return { ids, listed, result, restated };
}
