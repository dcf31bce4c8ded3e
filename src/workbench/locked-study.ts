// A study of a home's catalog, locked or not (rdw study event|model): the lock read first (malformed or newer:
// exit 2 before anything opens), the catalog opened read-only (a study cannot change it), and with a lock the one
// verification path (lock -> catalog -> verify) before any number is computed. The event study and the model
// both open their rows here; each returns its result and how to write its report folder.

import type { Catalog } from '../catalog/index.js';
import { resolveEventStudyOptions, studyCatalog } from '../analysis/index.js';
import type { EventStudyOptions, EventStudyResult } from '../analysis/index.js';
import { modelCatalog, type ModelStudyOptions, type ModelStudyResult } from '../modelling/index.js';
import { writeModelReport, writeStudyReport } from '../report/index.js';
import { readLock, verifyStudyLock } from '../locks/index.js';

export interface LockedStudyOptions {
  /** Opens the home's catalog read-only (the caller closes it). */
  openCatalog: () => Promise<Catalog>;
  /** The lock file (absolute); undefined: the catalog's current view. */
  lockPath?: string | undefined;
}

/** A catalog to study and the exact release IDs to study (undefined: its current view). */
export interface LockedCatalog {
  readonly catalog: Catalog;
  readonly releases: string[] | undefined;
}

/** A study's result, the releases it read, and its report folder's writer (the paths of what it wrote). */
export interface LockedStudy<Result, Files> {
  readonly result: Result;
  readonly releases: string[] | undefined;
  writeReport(outDir: string): Promise<Files>;
}

export type StudyReportFiles = Awaited<ReturnType<typeof writeStudyReport>>;
export type ModelReportFiles = Awaited<ReturnType<typeof writeModelReport>>;

/**
 * Reads the lock (when given), opens the catalog, and verifies the catalog's records and stored bytes against
 * the lock; returns exactly its release IDs.
 * @throws the lock's errors (exit 2), the catalog opener's, a lock mismatch (exit 3)
 */
export async function openLockedCatalog(options: LockedStudyOptions): Promise<LockedCatalog> {
  const lock = options.lockPath === undefined ? undefined : await readLock(options.lockPath);
  const catalog = await options.openCatalog();
  const releases = lock === undefined ? undefined : (await verifyStudyLock(catalog, lock)).releases.map((release) => release.id);
  return { catalog, releases };
}

/**
 * The event-vs-control study (studyCatalog) over the locked releases, or the catalog's current view. Bad
 * options are AnalysisOptionError (exit 2) before the lock and the catalog are touched.
 */
export async function eventStudyOfLock(options: EventStudyOptions, open: LockedStudyOptions): Promise<LockedStudy<EventStudyResult, StudyReportFiles>> {
  resolveEventStudyOptions(options);
  const { catalog, releases } = await openLockedCatalog(open);
  const result = await studyCatalog(catalog, { ...options, ...(releases ? { releases } : {}) });
  return { result, releases, writeReport: (outDir) => writeStudyReport(result, outDir) };
}

/** The model study (modelCatalog: split, fit, score) over the locked releases, or the catalog's current view. */
export async function modelStudyOfLock(options: ModelStudyOptions, open: LockedStudyOptions): Promise<LockedStudy<ModelStudyResult, ModelReportFiles>> {
  const { catalog, releases } = await openLockedCatalog(open);
  const result = await modelCatalog(catalog, { ...options, ...(releases ? { releases } : {}) });
  return { result, releases, writeReport: (outDir) => writeModelReport(result, outDir) };
}
