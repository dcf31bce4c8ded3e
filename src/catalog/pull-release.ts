// pullRelease: one release by exact ID -> verified files in the store -> one import transaction.
// Checksum-gated and idempotent; never substitutes another revision of the day.

import type { ManifestResult, RdwClient } from '../client/index.js';
import { checkReleaseId, type FileDigest } from '../contract/index.js';
import type { Catalog } from './catalog.js';
import { CatalogOptionError, SchemaMismatchError } from './catalog-errors.js';
import { acceptedBeyondContract, type AcceptedBeyondContract } from './accepted-beyond-contract.js';
import { checkBundledSchema, checkManifest, type BundledSchemaFields } from './check-release-schema.js';
import { checkFileSizes, checkListingAgrees } from './check-manifest-statements.js';
import { recordedListing } from './record-listings.js';
import { readReleaseRecords } from './read-release-records.js';
import type { ColumnPlan } from './check-data-columns.js';
import { checkDataFile, importReleases } from './import-release.js';
import type { DataFormat, ReleaseImport } from './release-import.js';
import { dropUnreferenced } from './collect-garbage.js';
import { catalogMessages } from './messages.js';
import { tempName } from './release-temp-name.js';
import { importedAccepted } from './values-beyond-contract.js';
import { repairPresentReleases, type StoreFileRepair } from './repair-store.js';
import { TeamStorePull } from './team-store-pull.js';
import { accountDailyBytes, fetchDataFile, storedSchema } from './fetch-release-files.js';

export { tempName };

/** Progress of a pull, for progress bars and line logs. */
export type PullProgress =
  | { kind: 'bytes'; releaseId: string; done: number; total: number }
  | { kind: 'release'; releaseId: string; status: PullStatus | 'failed' };

/**
 * `imported`: rows added now; `present`: the ID was already in the catalog (no request sent, unless one of
 * its stored files was missing: see `PullResult.repaired`).
 */
export type PullStatus = 'imported' | 'present';

/** What a pull did for one release ID. */
export interface PullResult {
  id: string;
  status: PullStatus;
  day: string;
  version: string;
  rows: number;
  /** The data file imported (absent when already present). */
  format?: DataFormat;
  /** Bytes of the data file (absent when already present). */
  bytes?: number;
  /**
   * What the release carried beyond the contract and was accepted (a new product version, other numeric
   * types, extra or absent fields, other type words); absent when it matched the contract or was already present.
   */
  accepted?: AcceptedBeyondContract;
  /**
   * A present release whose stored files were missing or of another size (a stat per file): each fetched
   * again by ID, verified and put back (a data file after its rows were re-imported). Absent otherwise.
   */
  repaired?: StoreFileRepair[];
}

export interface PullReleaseOptions {
  /** Progress callback (bytes of the data file; the release's final status). Default: none. */
  onProgress?: (event: PullProgress) => void;
  /**
   * The release's manifest, already read and checked by the caller against what pins it (a study lock's
   * manifest SHA-256: `pinnedManifest`). Default: read by the pull (the team store's, or the API's).
   */
  manifest?: ManifestResult;
}

/** Throws CatalogOptionError (exit 2) unless every ID is a release ID (spec RELEASE_ID_PATTERN, exact). */
export function checkReleaseIds(ids: readonly string[]): void {
  for (const id of ids) {
    checkReleaseId(id, (sentence) => new CatalogOptionError(sentence, { option: 'releaseId' }));
  }
}

/** The already imported releases among `ids` (exact IDs), as `present` results. */
export async function presentReleases(catalog: Catalog, ids: readonly string[]): Promise<Map<string, PullResult>> {
  const present = new Map<string, PullResult>();
  for (const [id, record] of await readReleaseRecords(catalog, ids)) {
    present.set(id, { id, status: 'present', day: record.day, version: record.version, rows: record.rows });
  }
  return present;
}

/** A release verified and stored (steps 3–6 and the data file's column check), ready for step 7. */
export interface PreparedRelease {
  item: ReleaseImport;
  /** The result to report once the import committed. */
  result: PullResult;
  /**
   * The store digests this release uses (manifest, schema, data file), pinned in the store until
   * `settleRelease` so no clean-up removes them before the import's outcome is known.
   */
  pinned: string[];
}

/**
 * Ends a prepared release's use of the store once its import's outcome is known: unpins its files and,
 * when it did not commit, removes those of them no release references and no other in-flight pull uses
 * (a refused release leaves nothing in the store; a file shared with an imported release stays).
 */
export async function settleRelease(catalog: Catalog, prepared: Pick<PreparedRelease, 'pinned'>, committed: boolean): Promise<void> {
  for (const sha256 of prepared.pinned) catalog.store.unpin(sha256);
  if (!committed) await dropUnreferenced(catalog, prepared.pinned);
}

/**
 * Pulls release `id` into the catalog. Steps:
 * 1. validate the ID (UsageError before any request) 2. already imported => no-op success (its stored
 *    files missing or cut short: fetched again by ID, `repairPresentReleases`)
 * 3. manifest 4. bundled schema (checksum, version, fields vs src/contract) 5. data file (parquet, else csv)
 * into store/tmp, verified by the client 6. into the store 7. one import transaction with a row count.
 * Integrity failures (exit 3) leave nothing imported and no unverified bytes in the store.
 */
export async function pullRelease(catalog: Catalog, client: RdwClient, id: string, options: PullReleaseOptions = {}): Promise<PullResult> {
  // 1. the ID's shape, before any request
  checkReleaseIds([id]);
  // 2. an imported release is immutable: nothing to do
  const present = (await presentReleases(catalog, [id])).get(id);
  if (present !== undefined) {
    // ... whose stored files must still be there (a stat each); a missing one is fetched again by ID
    const repaired = (await repairPresentReleases(catalog, client, [id])).get(id);
    if (repaired instanceof Error) throw repaired;
    options.onProgress?.({ kind: 'release', releaseId: id, status: 'present' });
    return repaired === undefined ? present : { ...present, repaired };
  }
  const prepared = await prepareRelease(catalog, client, id, options);
  // 7. one transaction: metadata, files, rows; the row count must equal the manifest's (the data file was
  // checked by prepareRelease, so not again as importRelease would)
  const [outcome] = await importReleases(catalog, [prepared.item]).catch((error: unknown) => [error instanceof Error ? error : new Error(String(error))]);
  await settleRelease(catalog, prepared, !(outcome instanceof Error));
  if (outcome instanceof Error) throw outcome;
  options.onProgress?.({ kind: 'release', releaseId: id, status: 'imported' });
  // the rows' own findings (non-finite numbers, values outside a value set) join the files' in releases.accepted
  const accepted = outcome === true ? (await importedAccepted(catalog, [id])).get(id) : undefined;
  return accepted === undefined ? prepared.result : { ...prepared.result, accepted };
}

/**
 * Steps 3–6 of a pull and the data file's column check, without touching the catalog's tables: the
 * manifest, the bundled schema, the verified data file in the store. Step 7 is `importRelease(s)`.
 */
export async function prepareRelease(catalog: Catalog, client: RdwClient, id: string, options: PullReleaseOptions = {}): Promise<PreparedRelease> {
  // Every store file this release touches is pinned first; a failure unpins them and removes what no
  // release references (a refused release leaves nothing in the store).
  const pinned: string[] = [];
  const pin = async (sha256: string) => {
    await catalog.store.pin(sha256);
    pinned.push(sha256);
  };
  try {
    return { ...(await prepareUnpinned(catalog, client, id, pin, options)), pinned };
  } catch (error) {
    await settleRelease(catalog, { pinned }, false);
    throw error;
  }
}

async function prepareUnpinned(
  catalog: Catalog,
  client: RdwClient,
  id: string,
  pin: (sha256: string) => Promise<void>,
  options: PullReleaseOptions,
): Promise<Omit<PreparedRelease, 'pinned'>> {
  // The team store (RDW_STORE_URL), when in use, is read first and published to at the end.
  const team = TeamStorePull.of(catalog, client, id);
  // 3. the manifest (the client checks release.id === id); the team store's only when the listing vouches for it
  const manifest = options.manifest ?? (team === undefined ? await client.manifest(id) : await team.manifest());
  const { release } = manifest;
  checkManifest(id, release);
  // no file beyond every daily budget (an integrity failure before any download, not a limit)
  checkFileSizes(id, release, await accountDailyBytes(client));

  // 4. the bundled schema, when the release has one
  let schema: FileDigest | undefined;
  let schemaBytes: Uint8Array | undefined;
  let declared: BundledSchemaFields | undefined;
  if (release.files.schema !== undefined) {
    const expected = release.files.schema;
    await pin(expected.sha256);
    // The bundled schema is one file per product version: a stored copy with the manifest's sha256 is
    // re-hashed and reused instead of fetched again.
    const bundled = (await catalog.store.holds(expected))
      ? await storedSchema(catalog, id, expected)
      : ((await team?.bundledSchema(expected)) ?? (await client.bundledSchema(id)));
    if (bundled === undefined || bundled.sha256 !== expected.sha256) {
      throw new SchemaMismatchError(catalogMessages.schemaChecksumMismatch(id, bundled?.sha256 ?? 'missing', expected.sha256));
    }
    declared = checkBundledSchema(id, bundled.document, release.version);
    schema = { sha256: bundled.sha256, bytes: bundled.bytes.length };
    schemaBytes = bundled.bytes;
  }

  // 5. the data file: parquet preferred, csv when parquet is not offered or not available
  const onBytes = options.onProgress === undefined ? undefined : (done: number, total: number) => options.onProgress?.({ kind: 'bytes', releaseId: id, done, total });
  const { format, digest, path: dataPath } = await fetchDataFile(catalog, client, id, release.files, pin, onBytes, team);
  await pin(manifest.sha256);

  // 6. the manifest joins the data file in the store while the data file's columns are checked against
  // the spec and the bundled schema. Both settle before any failure is thrown, so no temp file is still
  // being written afterwards. The bundled schema is stored only once its data file agreed with it (a stored
  // schema is reused without a download by the next release naming its sha256); usually it is there already.
  const settled = await Promise.allSettled([
    catalog.store.putBytes(manifest.bytes, { sha256: manifest.sha256, bytes: manifest.bytes.length }, tempName(id, 'manifest')),
    checkDataFile(catalog, id, format, dataPath, release.rows, declared),
  ]);
  const failure = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
  const columns = (settled[1] as PromiseFulfilledResult<ColumnPlan>).value;
  // the manifest against the listing's statement of the same ID (this client's listing, else the catalog's
  // recorded one), once the file gates named any file that fails its own checksum
  checkListingAgrees(id, release, client.listedRelease(id) ?? (await recordedListing(catalog, id)));
  if (schema !== undefined && schemaBytes !== undefined) await catalog.store.putBytes(schemaBytes, schema, tempName(id, 'schema'));
  // what came from the API joins the team store only now, every check passed
  await team?.publish(manifest, schemaBytes, { path: dataPath, digest });
  const accepted = acceptedBeyondContract(release, declared, columns);
  const item: ReleaseImport = {
    release,
    manifestSha256: manifest.sha256,
    manifestBytes: manifest.bytes.length,
    schema,
    format,
    data: digest,
    dataPath,
    columns,
    ...(accepted === undefined ? {} : { accepted }),
  };
  const result: PullResult = { id, status: 'imported', day: release.day, version: release.version, rows: release.rows, format, bytes: digest.bytes };
  return { item, result: accepted === undefined ? result : { ...result, accepted } };
}
