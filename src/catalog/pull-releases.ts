// pullReleases: several releases by ID with bounded concurrency. Downloads overlap; imports are
// serialized (DuckDB has one writer) and each release is its own transaction, so a failure of one
// leaves every other release wholly imported or wholly absent.

import type { RdwClient } from '../client/index.js';
import { RdwError } from '../spec/index.js';
import type { Catalog } from './catalog.js';
import { CatalogOptionError } from './catalog-errors.js';
import { catalogMessages } from './messages.js';
import { checkReleaseIds, pullRelease, type PullProgress, type PullResult } from './pull-release.js';

export interface PullReleasesOptions {
  /** Releases in flight at once (downloads overlap; imports take turns). Default 2. */
  concurrency?: number;
  /** Progress of bytes and of releases. Default: none. */
  onProgress?: (event: PullProgress) => void;
}

/** One release that could not be pulled, with the typed error. */
export interface PullFailure {
  id: string;
  error: RdwError | Error;
}

export interface PullReleasesResult {
  /** Releases imported now or already present, in the order given. */
  pulled: PullResult[];
  /** Releases that failed; each left nothing imported. */
  failed: PullFailure[];
}

/**
 * Pulls every ID (duplicates once). Every ID is validated before any request (CatalogOptionError,
 * exit 2). Never throws for a failed release: see `failed`.
 */
export async function pullReleases(
  catalog: Catalog,
  client: RdwClient,
  ids: readonly string[],
  options: PullReleasesOptions = {},
): Promise<PullReleasesResult> {
  const concurrency = options.concurrency ?? 2;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new CatalogOptionError(catalogMessages.badOption('concurrency', 'an integer >= 1'), { option: 'concurrency' });
  }
  checkReleaseIds(ids);
  const unique = [...new Set(ids)];
  const outcomes: (PullResult | PullFailure)[] = new Array(unique.length);
  let next = 0;
  const worker = async () => {
    while (next < unique.length) {
      const index = next++;
      const id = unique[index]!;
      try {
        outcomes[index] = await pullRelease(catalog, client, id, options.onProgress === undefined ? {} : { onProgress: options.onProgress });
      } catch (error) {
        options.onProgress?.({ kind: 'release', releaseId: id, status: 'failed' });
        outcomes[index] = { id, error: error instanceof Error ? error : new Error(String(error)) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, unique.length) }, worker));
  const pulled: PullResult[] = [];
  const failed: PullFailure[] = [];
  for (const outcome of outcomes) {
    if ('error' in outcome) failed.push(outcome);
    else pulled.push(outcome);
  }
  return { pulled, failed };
}
