// repairTeamStore (`rdw verify --repair` with RDW_STORE_URL): every file this home's catalog names is checked in
// the team store (read and hashed against release_files) and, when the store's copy is missing or refused,
// replaced with this home's verified copy. Run after the home's own repair, so only whole local files are sent.

import { TeamStore, type TeamFetch } from '../store/index.js';
import type { Catalog } from './catalog.js';

/** One object of the team store that was not whole, and what became of it. */
export interface TeamObjectRepair {
  /** The object's key under the store's prefix: `sha256/ab/ab12…` or `releases/<id>/manifest.json`. */
  key: string;
  /** A release that names it, and the file's format (`manifest`, `schema`, `parquet`, `csv`). */
  releaseId: string;
  format: string;
  /** `missing`, or `refused` (its bytes were not the file's), with why. */
  problem: Exclude<TeamFetch, 'verified'>;
  why?: string;
  /** True when this home's verified copy was written in its place. */
  replaced: boolean;
}

/** What the check of the team store found and did. */
export interface TeamStoreRepair {
  /** `s3://bucket/prefix`. */
  store: string;
  /** Objects checked (each read and hashed once). */
  checked: number;
  /** Those not whole, with what was done. */
  repairs: TeamObjectRepair[];
  /** True when the store failed a request (it is down or refused): the check stopped there (see the notice). */
  stopped: boolean;
}

export interface RepairTeamStoreOptions {
  /** Called after each object not whole was dealt with. Default: none. */
  onRepair?: (repair: TeamObjectRepair) => void;
}

/**
 * Checks and repairs the team store in use by `catalog` (undefined when none is). Files the home itself lacks
 * or holds damaged are skipped (they are the home's own repair, `repairStoredFiles`). Needs the writer.
 */
export async function repairTeamStore(catalog: Catalog, options: RepairTeamStoreOptions = {}): Promise<TeamStoreRepair | undefined> {
  const team = catalog.store.team;
  if (team === undefined) return undefined;
  const rows = await catalog.query(`SELECT release_id, format, sha256, bytes::DOUBLE AS bytes FROM release_files ORDER BY sha256, release_id, format`);
  const report: TeamStoreRepair = { store: team.href, checked: 0, repairs: [], stopped: false };
  const seen = new Set<string>();
  for (const row of rows) {
    const releaseId = String(row.release_id);
    const format = String(row.format);
    const digest = { sha256: String(row.sha256), bytes: Number(row.bytes) };
    // A manifest lives under its release ID (nothing names its digest before it is read); files under their digest.
    const key = format === 'manifest' ? TeamStore.manifestKey(releaseId) : TeamStore.fileKey(digest.sha256);
    if (seen.has(key)) continue;
    seen.add(key);
    if (!(await catalog.store.holds(digest))) continue;
    const local = catalog.store.pathOf(digest.sha256);
    const checked = await team.checkObject(key, digest, catalog.store.tempPath(`team-check.${digest.sha256}`));
    if (!team.available) {
      report.stopped = true;
      break;
    }
    report.checked += 1;
    if (checked.outcome === 'verified') continue;
    const replaced = await team.replace(key, { file: local, bytes: digest.bytes }, format === 'manifest' ? 'application/json' : undefined);
    const repair: TeamObjectRepair = { key, releaseId, format, problem: checked.outcome, ...(checked.why === undefined ? {} : { why: checked.why }), replaced };
    report.repairs.push(repair);
    options.onRepair?.(repair);
    if (!team.available) {
      report.stopped = true;
      break;
    }
  }
  return report;
}
