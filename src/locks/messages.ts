// Every user-facing sentence of the study layer.

import { printableText } from '../base/index.js';

/** Widest value a lock mismatch quotes (a 64-hex digest fits; a lock's edited string is cut with …). */
const MISMATCH_VALUE_WIDTH = 200;

/** What to do when a lock cannot be read, by the error code (the rest: the general check). */
const LOCK_READ_REMEDY: Record<string, string> = {
  EISDIR: 'it is a folder: give the path of the lock file in it, e.g. study.lock.json',
  EACCES: 'rdw may not read it: check its permissions',
  EPERM: 'rdw may not read it: check its permissions',
};

export const studyMessages = {
  reproduceInterrupted: () => 'The reproduction was interrupted before every locked release was pulled: nothing was verified.',
  lockUnreadable: (source: string, detail: string) =>
    `The study lock ${source} is not valid JSON (${detail}); restore it from version control or write a new one with "rdw lock".`,
  lockInvalid: (source: string, detail: string) =>
    `The study lock ${source} is malformed: ${detail}. Restore it from version control or write a new one with "rdw lock".`,
  lockTooNew: (source: string, version: number, supported: number) =>
    `The study lock ${source} has lockVersion ${version}, but this rdw reads up to ${supported}; upgrade rdw to a version that supports lockVersion ${version}.`,
  lockMissing: (source: string) => `The study lock ${source} does not exist; write it with "rdw lock ${source} <RELEASE_ID...>" or check the path.`,
  lockNotReadable: (source: string, detail: string) =>
    `The study lock ${source} cannot be read (${detail}); ${LOCK_READ_REMEDY[detail] ?? 'check that the path names the lock file and that it can be read'}.`,
  lockNotAFile: (source: string, kind: string) =>
    `The study lock ${source} is ${kind}, not a file; give the path of the lock file (e.g. study.lock.json).`,
  lockTooLarge: (source: string, bytes: number, limit: number) =>
    `The study lock ${source} is ${(bytes / 2 ** 20).toFixed(0)} MiB, more than any study lock (at most ${limit / 2 ** 20} MiB); check that the path names the lock file.`,
  lockWouldReplace: (file: string) =>
    `${printableText(file, 120)} exists and is not a study lock (no JSON "lockVersion"); a lock is written only over an earlier lock: name a new file, or move ${printableText(file, 120)} away first.`,
  lockEmpty: () => 'A study lock needs at least one release; name release IDs or use --latest N.',
  notInCatalog: (id: string) =>
    `Release ${id} is not in the local catalog; pull it first with "rdw pull ${id}" or lock only imported releases.`,
  lockedNotInCatalog: (missing: readonly string[], total: number) =>
    `${missing.length === 1 ? `Release ${missing[0]} of the lock is` : `${missing.length} of the lock's ${total} releases are`} not in the local catalog${missing.length === 1 ? '' : ` (the first: ${missing[0]})`}; run "rdw reproduce <the lock file>" to pull ${missing.length === 1 ? 'it' : 'them'} by ID, verified, then run this again.`,
  mixedDatasets: (datasets: readonly string[]) =>
    `A study lock pins releases of one dataset, but these releases belong to ${datasets.join(', ')}.`,
  unknownLockedRelease: (id: string) =>
    `Release ${id} pinned by the lock is unknown to the service (404); the lock cannot be reproduced from this service.`,
  // The values come from the lock (a file anyone may edit) and the catalog: printed escaped, never as control characters.
  lockMismatch: (id: string, what: string, locked: string, found: string) =>
    `Release ${id} does not match the lock: ${what} is ${printableText(found, MISMATCH_VALUE_WIDTH)}, the lock says ${printableText(locked, MISMATCH_VALUE_WIDTH)}; the analysis would not reproduce.`,
  rowsDiffer: (id: string, pinned: string, found: string) =>
    `The catalog's rows of release ${id} differ from the rows the lock pins (rows fingerprint ${found.slice(0, 12)}…, the lock says ${pinned.slice(0, 12)}…): they were changed after import; run "rdw verify --repair" to re-import them from the verified stored files, then run this again.`,
  rowsDifferFromLockedFile: (id: string, fromFile: string, found: string) =>
    `The catalog's rows of release ${id} differ from the rows the lock pins through its verified stored data file (rows fingerprint ${found.slice(0, 12)}…, the file gives ${fromFile.slice(0, 12)}…; the lock was written before rdw pinned rows): they were changed after import; run "rdw verify --repair" to re-import them from the verified stored files, then run this again.`,
  lockRowsPinWrong: (id: string, pinned: string, found: string) =>
    `The lock pins rows fingerprint ${pinned.slice(0, 12)}… for release ${id}, but the rows its verified stored data file gives have ${found.slice(0, 12)}…, as this catalog's do: the lock was written from rows changed after import; write it again from a catalog that "rdw verify" passes (rdw lock).`,
  lockRowsUncheckable: (id: string) =>
    `The rows of release ${id} cannot be checked before they are pinned: its stored data file is missing or damaged; run "rdw verify --repair" to fetch it again, then lock.`,
  rowsUnrecorded: (id: string) =>
    `Release ${id} has no rows fingerprint to hold its rows to (imported before rdw recorded them); run "rdw verify --repair" to re-import its rows from the verified stored files, then run this again.`,
  storedFileMissing: (id: string, file: string, storePath: string) =>
    `The stored ${file} file of release ${id} (${storePath}) is missing; run "rdw verify --repair" to fetch it again by release ID (verified against the catalog's checksum, which the lock pins), then run this again.`,
  storedFileDiffers: (id: string, file: string, storePath: string, locked: string, found: string) =>
    `The stored ${file} file of release ${id} (${storePath}) hashes to ${found}, the lock says ${locked}; the store was changed after import: run "rdw verify --repair" to fetch it again by release ID, then run this again.`,
};
