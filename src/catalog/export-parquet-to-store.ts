// exportParquetToStore: the Hive-partitioned Parquet layout of exportParquet, written to an object store
// (`rdw export s3://bucket/prefix`, issue 32 item 4) so that DuckDB, Spark, Trino or polars read the team's rows
// from there. Each day partition is one object, stored only once it is complete: a reader sees whole partitions.

import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { makeTemporaryFolder, removeTree } from '../base/index.js';
import { StoreError, StoreRefusedError, StoreUnavailableError, storeFailureDetail, type ObjectStore } from '../store/index.js';
import type { Catalog } from './catalog.js';
import { CatalogOptionError } from './catalog-errors.js';
import { exportParquet, type ExportParquetOptions } from './export-parquet.js';
import { catalogMessages } from './messages.js';

/** The empty object written last: an export is complete when it exists (Hadoop's and Spark's convention). */
export const EXPORT_DONE_MARKER = '_SUCCESS';

/** Objects uploaded at once. */
const UPLOADS_IN_FLIGHT = 4;

export type ExportParquetToStoreOptions = ExportParquetOptions;

export interface ExportParquetToStoreResult {
  /** The target, `s3://bucket/prefix`. */
  url: string;
  rows: number;
  /** Partitions written (`day=YYYY-MM-DD`), sorted. */
  partitions: string[];
  /** Objects written: one Parquet file per partition, then the `_SUCCESS` marker. */
  objects: number;
  /** Bytes of the Parquet objects. */
  bytes: number;
}

/**
 * Writes Market Events rows under `store`'s prefix as `day=YYYY-MM-DD/data_0.parquet`, the same files a local
 * `exportParquet` writes (they are made by it, in a temporary folder of this machine, then uploaded), then the
 * empty `_SUCCESS` object. The prefix must hold no object (CatalogOptionError, exit 2, otherwise).
 * 1. refuse a prefix that holds objects; 2. export locally; 3. put each partition's file under its final key
 * with `If-None-Match: *` (one PUT is atomic: a reader never sees part of a partition); 4. `_SUCCESS`.
 * A failure removes the objects this call wrote, so the prefix is empty again and the same export can be rerun.
 * @throws CatalogOptionError (exit 2) for a prefix that holds objects (also when another writer got there first),
 *   StoreRefusedError / StoreUnavailableError (exit 1) for a store that refuses or cannot be reached, an
 *   EnvironmentError when the local files cannot be written.
 */
export async function exportParquetToStore(
  catalog: Catalog,
  store: ObjectStore,
  options: ExportParquetToStoreOptions = {},
): Promise<ExportParquetToStoreResult> {
  const url = store.url.href;
  // 1. Only a prefix that holds nothing: an export never mixes with other objects (as a local export's folder).
  if ((await exportCall(url, () => store.list(''))).length > 0) throw new CatalogOptionError(catalogMessages.exportStoreTarget(url), { option: 'dir' });

  const scratch = await makeTemporaryFolder('rdw-export-');
  const written: string[] = [];
  try {
    // 2. The local export's files, made by the local export.
    const local = await exportParquet(catalog, path.join(scratch, 'export'), options);
    const files: { key: string; file: string; bytes: number }[] = [];
    for (const partition of local.partitions) {
      for (const name of (await readdir(path.join(local.dir, partition))).sort()) {
        const file = path.join(local.dir, partition, name);
        files.push({ key: `${partition}/${name}`, file, bytes: (await stat(file)).size });
      }
    }

    // 3. Each file under its final key, once, conditionally: a key taken meanwhile is another writer's export.
    let next = 0;
    let failed = false;
    const upload = async (): Promise<void> => {
      while (next < files.length && !failed) {
        const item = files[next++]!;
        try {
          const outcome = await exportCall(url, () =>
            store.put(item.key, { file: item.file, bytes: item.bytes }, { ifAbsent: true, contentType: 'application/vnd.apache.parquet' }),
          );
          if (outcome === 'exists') throw new CatalogOptionError(catalogMessages.exportStoreTarget(url), { option: 'dir' });
          written.push(item.key);
        } catch (error) {
          failed = true; // the other uploads take no new file
          throw error;
        }
      }
    };
    // Every upload settles before a failure is thrown, so the clean-up below knows each object written.
    const uploads = await Promise.allSettled(Array.from({ length: Math.min(UPLOADS_IN_FLIGHT, files.length) }, upload));
    const refusal = uploads.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (refusal !== undefined) throw refusal.reason;

    // 4. The marker, last.
    if ((await exportCall(url, () => store.put(EXPORT_DONE_MARKER, new Uint8Array(0), { ifAbsent: true }))) === 'exists') {
      throw new CatalogOptionError(catalogMessages.exportStoreTarget(url), { option: 'dir' });
    }
    written.push(EXPORT_DONE_MARKER);
    const bytes = files.reduce((sum, item) => sum + item.bytes, 0);
    return { url, rows: local.rows, partitions: local.partitions, objects: files.length + 1, bytes };
  } catch (error) {
    // Best effort: what this call wrote goes again (each key was free before, so it is ours).
    for (const key of written) await store.delete(key).catch(() => undefined);
    throw error;
  } finally {
    await removeTree(scratch).catch(() => undefined);
  }
}

/** Runs a request to the export's target; a store failure is said about the export target, not the team store. */
async function exportCall<T>(url: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    const detail = storeFailureDetail(error.cause);
    const options = { cause: error.cause, storeUrl: url };
    if (error instanceof StoreUnavailableError) throw new StoreUnavailableError(catalogMessages.exportStoreUnavailable(url, detail), options);
    if (error instanceof StoreRefusedError) {
      const message = detail === 'CredentialsProviderError' ? catalogMessages.exportNoCredentials(url) : catalogMessages.exportStoreRefused(url, detail);
      throw new StoreRefusedError(message, options);
    }
    throw error;
  }
}
