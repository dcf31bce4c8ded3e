// useTeamStore: when RDW_STORE_URL is set, the catalog's pulls read the team store first and publish to it
// (issue 32, docs/catalog.md "Team store"). Unset: nothing is loaded and nothing changes.

import type { Catalog } from '../catalog/index.js';
import { openTeamStore, parseStoreUrl, S3ObjectStore, type TeamStore } from '../store/index.js';

export interface UseTeamStoreOptions {
  /** RDW_STORE_URL and the AWS SDK's variables. */
  env: Readonly<Record<string, string | undefined>>;
  /** One sentence per notice of the team store (an object refused, the store down). Default: none. */
  onNotice?: (sentence: string) => void;
}

/**
 * Checks RDW_STORE_URL without loading anything (StoreUrlError, exit 2, for a malformed one): call it before
 * the catalog is opened, so a bad URL creates nothing.
 */
export function checkStoreUrl(env: Readonly<Record<string, string | undefined>>): void {
  const text = env.RDW_STORE_URL?.trim();
  if (text !== undefined && text !== '') parseStoreUrl(text);
}

/** Puts the team store of RDW_STORE_URL under `catalog`'s pulls; returns it (close it with the catalog), or undefined. */
export async function useTeamStore(catalog: Catalog, options: UseTeamStoreOptions): Promise<TeamStore | undefined> {
  const team = await openTeamStore({ env: options.env, ...(options.onNotice === undefined ? {} : { onNotice: options.onNotice }) });
  if (team !== undefined) catalog.store.useTeamStore(team);
  return team;
}

/** What `rdw doctor` learned from the team store: it answered a signed listing of the manifests it holds. */
export interface TeamStoreProbe {
  /** `s3://bucket/prefix` (never a credential). */
  url: string;
  /** Release manifests stored under the prefix. */
  manifests: number;
}

/**
 * Lists the store's manifests once (a signed read: the bucket, the credentials and the endpoint all checked,
 * nothing written); undefined when RDW_STORE_URL is unset.
 * @throws StoreUrlError (exit 2) for a malformed URL; StoreUnavailableError / StoreRefusedError (exit 1).
 */
export async function probeTeamStore(env: Readonly<Record<string, string | undefined>>): Promise<TeamStoreProbe | undefined> {
  const text = env.RDW_STORE_URL?.trim();
  if (text === undefined || text === '') return undefined;
  const url = parseStoreUrl(text);
  const store = await S3ObjectStore.open(url, { env });
  try {
    const keys = await store.list('releases/');
    return { url: url.href, manifests: keys.filter((item) => item.key.endsWith('/manifest.json')).length };
  } finally {
    store.close();
  }
}
