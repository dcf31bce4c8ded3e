// Study: a lock opened and reproduced in a workbench, and its computations over exactly the locked releases.
// Lives in src/workbench (not src/locks) because it needs src/analysis; src/locks stays catalog/client/spec.

import path from 'node:path';
import { eventStudy, missingnessSummary, type EventStudyOptions, type EventStudyResult, type MissingnessCell } from '../analysis/index.js';
import { readMarketEvents, type MarketEventsSource } from '../catalog/index.js';
import type { Window } from '../contract/index.js';
import { modelStudy, type ModelStudyOptions, type ModelStudyResult } from '../modelling/index.js';
import {
  checkLockedRows,
  readLock,
  reproduceStudy,
  type ReproduceOptions,
  type ReproduceReport,
  type StudyLock,
  type VerifiedRows,
} from '../locks/index.js';
import { openWorkbench, type Workbench, type WorkbenchOptions } from './open-workbench.js';
import { WorkbenchOptionError } from './workbench-errors.js';
import { workbenchMessages } from './messages.js';

export interface StudyOpenOptions extends Pick<WorkbenchOptions, 'env' | 'home' | 'mock'> {
  /** A workbench to use (not closed by `Study.close`). Default: one opened from env/home/mock and owned. */
  workbench?: Workbench;
  /** Progress of the reproduction. Default: none. */
  onProgress?: ReproduceOptions['onProgress'];
}

/** Options of `Study.missingnessSummary`: analysis' missingnessSummary options without `releases`. */
export interface StudyMissingnessOptions {
  /** Outcome windows to count. Default: every window. */
  windows?: readonly Window[];
}

export class Study {
  readonly lock: StudyLock;
  /** The lock file as given, resolved to an absolute path (never written into anything). */
  readonly lockPath: string;
  /** Exact locked release IDs, in lock order (oldest day first). */
  readonly releaseIds: string[];
  readonly workbench: Workbench;
  /** What the reproduction pulled and checked. */
  readonly report: ReproduceReport;
  readonly #owned: boolean;
  /** The rows fingerprints verified at open, which every computation holds the catalog's rows to. */
  readonly #verifiedRows: readonly VerifiedRows[];

  private constructor(lock: StudyLock, lockPath: string, workbench: Workbench, report: ReproduceReport, owned: boolean, verifiedRows: readonly VerifiedRows[]) {
    this.lock = lock;
    this.lockPath = lockPath;
    this.releaseIds = lock.releases.map((release) => release.id);
    this.workbench = workbench;
    this.report = report;
    this.#owned = owned;
    this.#verifiedRows = verifiedRows;
  }

  /**
   * Reads the lock at `lockPath`, opens a workbench (or uses `options.workbench`) and reproduces the lock
   * in it: missing releases are pulled by exact ID, every checksum is compared and every stored file re-hashed.
   * @throws the errors of readLock (exit 2), reproduceStudy (exit 3 / 6) and openWorkbench.
   */
  static async open(lockPath: string, options: StudyOpenOptions = {}): Promise<Study> {
    const lock = await readLock(lockPath);
    const owned = options.workbench === undefined;
    const workbench = options.workbench ?? (await openWorkbench({ env: options.env ?? {}, ...pick(options) }));
    try {
      const report = await reproduceStudy(lock, workbench.catalog, workbench.client, options.onProgress === undefined ? {} : { onProgress: options.onProgress });
      const verifiedRows = rowsVerifiedAtOpen(report);
      return new Study(lock, path.resolve(lockPath), workbench, report, owned, verifiedRows);
    } catch (error) {
      if (owned) await workbench.close();
      throw error;
    }
  }

  /**
   * The event-vs-control study (src/analysis `eventStudy`) over exactly the locked release IDs. A lock
   * pinning releases of more than one `calculation_version` (see `lock.calculationVersions`) is studied
   * only with `allowMixedCalculationVersions: true`; the mix is then in `result.metadata.calculationVersionMix`.
   * @throws WorkbenchOptionError (exit 2) when `options.releases` is given; MixedCalculationVersionsError
   *   (exit 2) for mixed versions without the opt-in; LockMismatchError (exit 3, `file: 'rows'`) when the
   *   locked rows changed since `Study.open`.
   */
  async eventStudy(options: Omit<EventStudyOptions, 'releases'> = {}): Promise<EventStudyResult> {
    refuseReleases('eventStudy', options);
    return this.#compute((source) => eventStudy(source, { ...options, releases: this.releaseIds }));
  }

  /**
   * Rows by window × sample type × outcome status (src/analysis `missingnessSummary`) over exactly the locked
   * release IDs. Default: every window.
   * @throws WorkbenchOptionError (exit 2) when `options.releases` is given; LockMismatchError (exit 3, `file: 'rows'`)
   *   when the locked rows changed since `Study.open`.
   */
  async missingnessSummary(options: StudyMissingnessOptions = {}): Promise<MissingnessCell[]> {
    refuseReleases('missingnessSummary', options);
    return this.#compute((source) => missingnessSummary(source, { ...options, releases: this.releaseIds }));
  }

  /**
   * The model study (src/modelling `modelStudy`: split, fit, score) over exactly the locked release IDs.
   * @throws WorkbenchOptionError (exit 2) when `options.releases` is given; the errors of modelStudy;
   *   LockMismatchError (exit 3, `file: 'rows'`) when the locked rows changed since `Study.open`.
   */
  async modelStudy(options: Omit<ModelStudyOptions, 'releases'> = {}): Promise<ModelStudyResult> {
    refuseReleases('modelStudy', options);
    return this.#compute((source) => modelStudy(source, { ...options, releases: this.releaseIds }));
  }

  /** Closes the workbench when this study opened it. Idempotent. */
  async close(): Promise<void> {
    if (this.#owned) await this.workbench.close();
  }

  /**
   * Runs `compute` in one hold of the catalog (a read-only transaction: one snapshot), after re-checking there
   * that the locked rows still have the fingerprints verified at open: the workbench lets the DuckDB file go
   * between operations ('while-busy'), so another process may have written to it since.
   */
  #compute<T>(compute: (source: MarketEventsSource) => Promise<T>): Promise<T> {
    return readMarketEvents(this.workbench.catalog, async (source) => {
      await checkLockedRows(source, this.#verifiedRows);
      return compute(source);
    });
  }
}

/** The `releases` option is the lock's; a caller's would study other rows than the lock pins. */
function refuseReleases(method: string, options: object): void {
  if ((options as { releases?: unknown }).releases !== undefined) {
    throw new WorkbenchOptionError(workbenchMessages.studyReleasesFixed(method), { option: 'releases' });
  }
}

/** The rows fingerprint each locked release was found to have by the verification of `Study.open` (verifyStudyLock). */
function rowsVerifiedAtOpen(report: ReproduceReport): VerifiedRows[] {
  return report.releases.map((release) => ({ id: release.id, rowsFingerprint: release.rowsFingerprint }));
}

function pick(options: StudyOpenOptions): Pick<WorkbenchOptions, 'home' | 'mock'> {
  return {
    ...(options.home === undefined ? {} : { home: options.home }),
    ...(options.mock === undefined ? {} : { mock: options.mock }),
  };
}
