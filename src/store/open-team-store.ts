// openTeamStore: the team store named by RDW_STORE_URL, or undefined when the variable is unset or empty
// (the local store alone: nothing loaded, nothing sent). A malformed URL is refused (StoreUrlError, exit 2)
// before any request; the SDK is loaded only here.

import { S3ObjectStore } from './s3-object-store.js';
import { parseStoreUrl } from './store-url.js';
import { TeamStore } from './team-store.js';

export interface OpenTeamStoreOptions {
  /** RDW_STORE_URL and the AWS SDK's variables (openS3Client). Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** One sentence per notice (an object refused, the store down). Default: none. */
  onNotice?: (sentence: string) => void;
}

/** The team store of RDW_STORE_URL, or undefined without one. Sends no request. */
export async function openTeamStore(options: OpenTeamStoreOptions = {}): Promise<TeamStore | undefined> {
  const env = options.env ?? process.env;
  const text = env.RDW_STORE_URL?.trim();
  if (text === undefined || text === '') return undefined;
  const url = parseStoreUrl(text);
  const objects = await S3ObjectStore.open(url, { env });
  return new TeamStore(objects, options.onNotice === undefined ? {} : { onNotice: options.onNotice });
}
