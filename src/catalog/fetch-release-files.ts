// Steps of a pull that fetch a release's files (pullRelease, pull-release.ts): the account's daily allowance for
// the size check, the data file (a verified stored copy, the team store's, else a download; parquet, else csv),
// and a bundled schema read back from the store.

import { readFile, rm } from 'node:fs/promises';
import { parseJsonText } from '../base/index.js';
import { ApiNotFoundError, ServiceUnavailableError, type RdwClient } from '../client/index.js';
import { IntegrityError, type FileDigest, type SchemaDocument } from '../contract/index.js';
import type { Catalog } from './catalog.js';
import { ManifestInvalidError, SchemaMismatchError } from './catalog-errors.js';
import type { DataFormat } from './release-import.js';
import { catalogMessages } from './messages.js';
import { tempName } from './release-temp-name.js';
import type { TeamStorePull } from './team-store-pull.js';

/** The account's daily byte allowance, reported or assumed (cached by the client after the manifest); undefined when unknown. */
export async function accountDailyBytes(client: RdwClient): Promise<number | undefined> {
  try {
    return (await client.limits()).daily_bytes;
  } catch {
    return undefined;
  }
}

/** Steps 5 and 6 for the data file: reuse a verified stored copy, else download into store/tmp and move it in. */
export async function fetchDataFile(
  catalog: Catalog,
  client: RdwClient,
  id: string,
  files: { parquet?: FileDigest; csv?: FileDigest },
  pin: (sha256: string) => Promise<void>,
  onBytes: ((done: number, total: number) => void) | undefined,
  team?: TeamStorePull,
): Promise<{ format: DataFormat; digest: FileDigest; path: string }> {
  const formats = (['parquet', 'csv'] as const).filter((format) => files[format] !== undefined);
  for (const [index, format] of formats.entries()) {
    const expected = files[format]!;
    await pin(expected.sha256);
    if (await catalog.store.holds(expected)) return { format, digest: expected, path: catalog.store.pathOf(expected.sha256) };
    const temp = catalog.store.tempPath(tempName(id, format));
    // the team store's copy, hashed on the way in (a refused one is said and fetched from the API)
    if (team !== undefined && (await team.dataFile(format, expected, temp))) return { format, digest: expected, path: await catalog.store.put(temp, expected) };
    try {
      const digest = await client.download(id, format, temp, { expected, ...(onBytes === undefined ? {} : { onProgress: onBytes }) });
      // The client fsyncs a download before naming it `temp`.
      return { format, digest, path: await catalog.store.put(temp, digest, true) };
    } catch (error) {
      await rm(temp, { force: true });
      // Bytes that failed a check are never kept; only a transient failure leaves a resumable partial.
      if (error instanceof IntegrityError) {
        await rm(`${temp}.partial`, { force: true });
        await rm(`${temp}.partial.json`, { force: true });
      }
      // Parquet unavailable (404; 413 or a 503 past its retries: the spec's "file unavailable or failing its
      // checksum"): fall back to the csv file of the same release, never another release.
      if ((error instanceof ApiNotFoundError || error instanceof ServiceUnavailableError) && index < formats.length - 1) continue;
      throw error;
    }
  }
  throw new ManifestInvalidError(catalogMessages.noDataFile(id));
}

/** A bundled schema read back from the store (its bytes were verified by `holds`). */
export async function storedSchema(catalog: Catalog, id: string, expected: FileDigest): Promise<{ document: SchemaDocument; bytes: Uint8Array; sha256: string }> {
  const bytes = await readFile(catalog.store.pathOf(expected.sha256));
  try {
    return { document: parseJsonText<SchemaDocument>(bytes), bytes, sha256: expected.sha256 };
  } catch (error) {
    throw new SchemaMismatchError(catalogMessages.schemaColumnsMismatch(id, 'bundled schema', 'not JSON'), { cause: error });
  }
}
