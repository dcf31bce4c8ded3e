// repairReleaseRows (`rdw verify --repair`): releases whose rows differ from their recorded fingerprint, or have
// none, get their rows re-imported from their verified stored data file (one transaction per release).

import { environmentErrorOf } from '../contract/index.js';
import type { Catalog } from './catalog.js';
import { StoreMismatchError } from './catalog-errors.js';
import type { ReleaseRowsCheck } from './check-release-rows.js';
import type { DataFormat } from './release-import.js';
import { catalogMessages } from './messages.js';
import { reimportReleaseRows } from './reimport-release-rows.js';
import { checkStoredFiles } from './verify-store.js';

/** What the repair of one release's rows did. */
export interface ReleaseRowsRepair {
  releaseId: string;
  /** What was wrong: `differs`, `unrecorded` or `differs_from_file` (ReleaseRowsCheck.problem). */
  problem: NonNullable<ReleaseRowsCheck['problem']>;
  /** `reimported`: its rows were replaced by its stored file's, and their fingerprint recorded; `failed`: nothing changed (see `error`). */
  outcome: 'reimported' | 'failed';
  error?: Error;
}

/**
 * Re-imports the rows of each release of `bad` from its stored data file (re-hashed first: a damaged file is
 * `failed` with StoreMismatchError, which the store's repair fixes), checked as at import, and records their
 * fingerprint. Needs a read-write catalog. Never throws for one release: see each `outcome`.
 */
export async function repairReleaseRows(catalog: Catalog, bad: readonly ReleaseRowsCheck[]): Promise<ReleaseRowsRepair[]> {
  if (bad.length === 0) return [];
  const files = await catalog.query<{ release_id: string; format: DataFormat; sha256: string }>(
    `SELECT release_id, format, sha256 FROM release_files WHERE format IN ('parquet', 'csv') ORDER BY release_id, format`,
  );
  const stored = new Map((await checkStoredFiles(catalog, { releaseIds: bad.map((check) => check.releaseId) })).map((check) => [check.sha256, check]));
  const repairs: ReleaseRowsRepair[] = [];
  for (const check of bad) {
    const repair: ReleaseRowsRepair = { releaseId: check.releaseId, problem: check.problem ?? 'differs', outcome: 'failed' };
    try {
      const file = files.find((row) => row.release_id === check.releaseId);
      const stat = file === undefined ? undefined : stored.get(file.sha256);
      if (file === undefined || stat === undefined || !stat.ok) {
        const where = stat?.file ?? 'its data file';
        throw new StoreMismatchError(catalogMessages.rowsSourceDamaged(check.releaseId, where), { file: where });
      }
      await reimportReleaseRows(catalog, [{ releaseId: check.releaseId, format: file.format }], { sha256: stat.sha256, bytes: stat.bytes }, catalog.store.pathOf(stat.sha256));
      repair.outcome = 'reimported';
    } catch (error) {
      repair.error = environmentErrorOf(error) ?? (error instanceof Error ? error : new Error(String(error)));
    }
    repairs.push(repair);
  }
  return repairs;
}
