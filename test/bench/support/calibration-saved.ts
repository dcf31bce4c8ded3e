// Saved runs of the calibration bench (--out files) read together by --from: runs of other seeds, or of the
// same seeds with another split method, make one set of records with the first run's settings and truth.

import type { EventRecord, ModelRecord } from './calibration-measure.js';

/** What an --out file holds, as far as --from reads it. */
export interface SavedRun {
  run: { summary: { days: number }[]; modelTruthRows: Record<string, number>; analysisCommit: string; [key: string]: unknown };
  truth: Record<string, Record<string, unknown>>;
  events: EventRecord[];
  models: ModelRecord[];
}

const eventKey = (r: EventRecord) => `${r.seed}|${r.days}|${r.window}|${r.eventKind}|${r.direction}`;
const modelKey = (r: ModelRecord) => `${r.seed}|${r.days}|${r.window}|${r.spec}|${r.split ?? 'purged-k-fold'}|${r.fold}`;

/** Keeps the first record of each key: a record measured twice (the same seed in two files) counts once. */
function once<T>(records: readonly T[], key: (record: T) => string): T[] {
  const kept = new Map<string, T>();
  for (const record of records) if (!kept.has(key(record))) kept.set(key(record), record);
  return [...kept.values()];
}

/**
 * The records of several saved runs as one run: the first run's settings and truth, every run's records, each
 * (seed, length, window, group) or (seed, length, window, spec, split, fold) once, and the interval-code commits
 * and commits of all runs (a re-tally must say what it counted).
 */
export function mergeSavedRuns(runs: readonly SavedRun[]): SavedRun & { analysisCommits: string[]; commits: string[] } {
  if (runs.length === 0) throw new Error('--from: no saved run given');
  return {
    ...runs[0]!,
    events: once(runs.flatMap((one) => one.events), eventKey),
    models: once(runs.flatMap((one) => one.models), modelKey),
    analysisCommits: [...new Set(runs.map((one) => one.run.analysisCommit))],
    commits: [...new Set(runs.map((one) => String(one.run.commit)))],
  };
}
