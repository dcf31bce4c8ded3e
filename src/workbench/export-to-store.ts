// `rdw export s3://…` as one operation: the catalog's Market Events as Hive-partitioned Parquet under an object
// store's prefix (issue 32 item 4). The store URL is read first (checkExportStoreUrl), before the catalog opens,
// as a bad flag is; the store is reached only after.

import { catalogMessages, exportParquetToStore, type Catalog, type ExportParquetToStoreResult } from '../catalog/index.js';
import { parseStoreUrl, S3ObjectStore, type StoreUrl } from '../store/index.js';

/** `s3://…` (any case) names an object store's prefix; anything else is a folder. */
export function isStoreTarget(target: string): boolean {
  return /^s3:\/\//i.test(target);
}

/** The export target `s3://bucket/prefix` as a StoreUrl; StoreUrlError (exit 2) naming `option` when malformed. */
export function checkExportStoreUrl(target: string, option = 'dir'): StoreUrl {
  return parseStoreUrl(target, { option, describe: catalogMessages.exportStoreUrl });
}

export interface ExportToStoreOptions {
  /** Only the current revision of each day (`market_events_current`). Default false. */
  current?: boolean;
  /** Where the AWS SDK's variables are read (endpoint, region, credentials). Default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Writes `catalog`'s rows under `url` (each day's object complete or absent; `_SUCCESS` last) and closes the store. */
export async function exportToStore(catalog: Catalog, url: StoreUrl, options: ExportToStoreOptions = {}): Promise<ExportParquetToStoreResult> {
  const store = await S3ObjectStore.open(url, { env: options.env ?? process.env });
  try {
    return await exportParquetToStore(catalog, store, { current: options.current === true });
  } finally {
    store.close();
  }
}
