// repairStore (`rdw verify --repair`) and the repair of present releases (`rdw pull`): every stored file that
// is missing or altered is fetched again by release ID and file name, verified against the digest the catalog
// recorded, and put back; for a data file, its releases' rows are re-imported from those bytes first.

import { rm } from 'node:fs/promises';
import { ApiNotFoundError, type RdwClient } from '../client/index.js';
import { EXIT_CODES, IntegrityError, environmentErrorOf, isRdwError, type DownloadFormat, type FileDigest } from '../contract/index.js';
import type { Catalog } from './catalog.js';
import { CatalogOptionError, StoreMismatchError } from './catalog-errors.js';
import { DATA_FORMATS, type DataFormat } from './release-import.js';
import { catalogMessages } from './messages.js';
import { reimportReleaseRows } from './reimport-release-rows.js';
import { tempName } from './release-temp-name.js';
import { checkStoredFiles, verifyStore, type StoredFileCheck, type StoreVerification } from './verify-store.js';
import { checkReleaseRows } from './check-release-rows.js';
import { repairReleaseRows, type ReleaseRowsRepair } from './repair-release-rows.js';

/** What the repair of one damaged stored file did. */
export interface StoreFileRepair {
  /** Path relative to the catalog home: `store/sha256/ab/ab12…`. */
  file: string;
  sha256: string;
  /** Size in bytes the catalog recorded. */
  bytes: number;
  /** Every (release, format) that names this file. */
  uses: { releaseId: string; format: string }[];
  /** What was wrong with it: `missing`, `size` or `sha256`. */
  problem: NonNullable<StoredFileCheck['problem']>;
  /**
   * `restored`: verified bytes put back; `reimported`: a data file put back after its releases' rows were
   * re-imported from it (one transaction); `failed`: nothing changed for this file (see `error`).
   */
  outcome: 'restored' | 'reimported' | 'failed';
  /** Release IDs whose rows were re-imported from the restored bytes (data files only). */
  reimported: string[];
  /** Why the file could not be repaired (`failed` only): the typed error (exit code on `exitCode`). */
  error?: Error;
}

/** `verifyStore`'s report plus what the repair did. */
export interface StoreRepair extends StoreVerification {
  /** One entry per damaged file, manifests and schemas first, then data files. */
  repairs: StoreFileRepair[];
  /** One entry per release whose rows differed from their fingerprint (or had none) once the files were repaired. */
  rowRepairs: ReleaseRowsRepair[];
  /** True when every stored file a release names is whole afterwards, and every release's rows match their fingerprint. */
  ok: boolean;
}

export interface RepairOptions {
  /** Called after each file's repair (or failure). Default: none. */
  onRepair?: (repair: StoreFileRepair) => void;
}

const isData = (use: { format: string }) => (DATA_FORMATS as readonly string[]).includes(use.format);

/** The failure as an Error: a full disk, a denied or read-only folder … as its typed environment error. */
const asError = (error: unknown): Error => environmentErrorOf(error) ?? (error instanceof Error ? error : new Error(String(error)));

/**
 * Re-hashes every stored file (`verifyStore`), then repairs each missing or altered one
 * (`repairStoredFiles`). Needs a read-write catalog. Nothing is fetched when the store is whole.
 */
export async function repairStore(catalog: Catalog, client: RdwClient, options: RepairOptions = {}): Promise<StoreRepair> {
  const verification = await verifyStore(catalog);
  const repairs = await repairStoredFiles(catalog, client, verification.bad, options);
  const rowRepairs = await repairRowsAfterFiles(catalog, verification, repairs);
  return {
    ...verification,
    repairs,
    rowRepairs,
    ok: repairs.every((repair) => repair.outcome !== 'failed') && rowRepairs.every((repair) => repair.outcome !== 'failed'),
  };
}

/**
 * After the files' repair: the releases whose rows differed from their fingerprint (or had none), checked
 * again (a repaired data file re-imported its releases' rows already), re-imported from their stored files.
 */
export async function repairRowsAfterFiles(catalog: Catalog, verification: Pick<StoreVerification, 'badRows'>, repairs: readonly StoreFileRepair[] = []): Promise<ReleaseRowsRepair[]> {
  if (verification.badRows.length === 0) return [];
  if (catalog.readOnly) throw new CatalogOptionError(catalogMessages.repairNeedsWriter(), { option: 'readOnly' });
  const reimported = new Set(repairs.flatMap((repair) => repair.reimported));
  const ids = verification.badRows.map((check) => check.releaseId).filter((id) => !reimported.has(id));
  // Checked again against the recorded fingerprints; rows that matched theirs but not their stored file's
  // (differs_from_file: both rewritten) stay bad unless a repaired file re-imported them.
  const fromFile = new Map(verification.badRows.filter((check) => check.problem === 'differs_from_file').map((check) => [check.releaseId, check]));
  const still = (await checkReleaseRows(catalog, { releaseIds: ids })).flatMap((check) => (!check.ok ? [check] : fromFile.has(check.releaseId) ? [fromFile.get(check.releaseId)!] : []));
  return repairReleaseRows(catalog, still);
}

/**
 * Repairs the damaged files `bad` (from `verifyStore` or `checkStoredFiles`), one at a time, manifests and
 * schemas first. Each is downloaded by the ID of a release that names it and its format, into store/tmp,
 * verified against the SHA-256 and size the catalog recorded (the catalog is the authority: other bytes are
 * refused, exit 3, and nothing changes). A manifest or schema is then put back. A data file (parquet, csv)
 * is first the source of a re-import of every release that names it (`reimportReleaseRows`: old rows out,
 * the file's rows in, one transaction, checked as at import), and put back only once that committed: a
 * failure, or a kill at any point, leaves the old rows and the damaged file, and the next repair starts over.
 * After a limit (exit 5: the byte budget, 429s) nothing more is fetched; the rest fail with that error.
 * Never throws for one file: see each `outcome`.
 */
export async function repairStoredFiles(
  catalog: Catalog,
  client: RdwClient,
  bad: readonly StoredFileCheck[],
  options: RepairOptions = {},
): Promise<StoreFileRepair[]> {
  if (bad.length > 0 && catalog.readOnly) throw new CatalogOptionError(catalogMessages.repairNeedsWriter(), { option: 'readOnly' });
  const ordered = [...bad.filter((check) => !check.uses.some(isData)), ...bad.filter((check) => check.uses.some(isData))];
  const repairs: StoreFileRepair[] = [];
  let stopped: Error | undefined;
  for (const check of ordered) {
    const repair: StoreFileRepair = {
      file: check.file,
      sha256: check.sha256,
      bytes: check.bytes,
      uses: check.uses,
      problem: check.problem ?? 'sha256',
      outcome: 'failed',
      reimported: [],
    };
    if (stopped !== undefined) repair.error = stopped;
    else {
      try {
        Object.assign(repair, await repairOne(catalog, client, check));
      } catch (error) {
        repair.error = asError(error);
        if (isRdwError(repair.error) && repair.error.exitCode === EXIT_CODES.limit) stopped = repair.error;
      }
    }
    repairs.push(repair);
    options.onRepair?.(repair);
  }
  return repairs;
}

/**
 * Checks the stored files of present releases by a stat each (exists, recorded size) and repairs the
 * damaged ones (`repairStoredFiles`): what `pullRelease(s)` does for an ID already in the catalog. Returns,
 * for each of `ids` that had a damaged file, its repairs, or the first error of a file it names (on a
 * read-only catalog, a StoreMismatchError advising `rdw verify --repair`, and nothing is fetched).
 */
export async function repairPresentReleases(catalog: Catalog, client: RdwClient, ids: readonly string[]): Promise<Map<string, StoreFileRepair[] | Error>> {
  const outcomes = new Map<string, StoreFileRepair[] | Error>();
  if (ids.length === 0) return outcomes;
  const bad = (await checkStoredFiles(catalog, { releaseIds: ids, rehash: false })).filter((check) => !check.ok);
  if (bad.length === 0) return outcomes;
  const wanted = new Set(ids);
  if (catalog.readOnly) {
    // No repair without the writer: each release names the command that does it.
    for (const check of bad) {
      for (const { releaseId } of check.uses) {
        if (wanted.has(releaseId) && !outcomes.has(releaseId)) {
          outcomes.set(releaseId, new StoreMismatchError(catalogMessages.presentFileDamaged(check.file, releaseId), { file: check.file }));
        }
      }
    }
    return outcomes;
  }
  for (const repair of await repairStoredFiles(catalog, client, bad)) {
    for (const { releaseId } of repair.uses) {
      if (!wanted.has(releaseId)) continue;
      const known = outcomes.get(releaseId) ?? [];
      if (known instanceof Error) continue;
      outcomes.set(releaseId, repair.error === undefined ? [...known, repair] : repair.error);
    }
  }
  return outcomes;
}

/** One file: download (verified), re-import when it is a data file, then put it back. */
async function repairOne(catalog: Catalog, client: RdwClient, check: StoredFileCheck): Promise<Pick<StoreFileRepair, 'outcome' | 'reimported'>> {
  const { store } = catalog;
  const expected: FileDigest = { sha256: check.sha256, bytes: check.bytes };
  await store.pin(check.sha256);
  try {
    const { temp, digest } = await downloadByUse(catalog, client, check, expected);
    let reimported: string[] = [];
    try {
      const dataUses = check.uses.filter(isData).map((use) => ({ releaseId: use.releaseId, format: use.format as DataFormat }));
      if (dataUses.length > 0) reimported = await reimportReleaseRows(catalog, dataUses, digest, temp);
      // The stored copy failed its check (missing or altered): hash again rather than trust this process's memory.
      store.forget(check.sha256);
      await store.put(temp, digest, true);
    } finally {
      await rm(temp, { force: true });
    }
    return { outcome: reimported.length > 0 ? 'reimported' : 'restored', reimported };
  } finally {
    store.unpin(check.sha256);
  }
}

/**
 * The file's bytes into store/tmp, verified by the client against `expected`, by the first release naming it
 * that the service still knows (a 404 tries the next one). Failed bytes are never kept; a cut connection
 * leaves a resumable partial for the next repair.
 */
async function downloadByUse(
  catalog: Catalog,
  client: RdwClient,
  check: StoredFileCheck,
  expected: FileDigest,
): Promise<{ temp: string; digest: FileDigest }> {
  for (const [index, use] of check.uses.entries()) {
    const temp = catalog.store.tempPath(tempName(use.releaseId, use.format));
    try {
      return { temp, digest: await client.download(use.releaseId, use.format as DownloadFormat, temp, { expected }) };
    } catch (error) {
      await rm(temp, { force: true });
      if (error instanceof IntegrityError) {
        await rm(`${temp}.partial`, { force: true });
        await rm(`${temp}.partial.json`, { force: true });
      }
      if (error instanceof ApiNotFoundError && index < check.uses.length - 1) continue;
      throw error;
    }
  }
  throw new StoreMismatchError(catalogMessages.repairNoUse(check.file), { file: check.file });
}
