// Reading and writing the lock's JSON text: strict validation in, canonical text out (stable diffs in git).

import { SHA256_HEX_PATTERN, printableText } from '../base/index.js';
import { checkReleaseId, isReleaseDay, UsageError, withCode } from '../contract/index.js';
import { LOCK_VERSION, compareIds, type LockedFile, type LockedRelease, type StudyLock } from './study-lock.js';
import { studyMessages } from './messages.js';

/** The lock file is malformed or unreadable (exit 2). */
export class LockFormatError extends withCode(UsageError, 'RDW_LOCK_FORMAT') {}

/** The lock was written by a newer rdw (exit 2, naming the version needed). */
export class LockVersionError extends withCode(UsageError, 'RDW_LOCK_VERSION') {
  constructor(
    message: string,
    readonly lockVersion: number,
  ) {
    super(message);
  }
}

/** A UTF-8 byte order mark, as Windows editors (Notepad) write it at the start of a file they save. */
const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Parses and validates a lock's text. `source` names it in messages (a file name, not a machine path). A leading
 * byte order mark is dropped (a lock saved by a Windows editor is the same lock); CRLF line ends are JSON whitespace.
 */
export function studyLockFromJson(text: string, source = 'study lock'): StudyLock {
  let value: unknown;
  try {
    value = JSON.parse(text.startsWith(BYTE_ORDER_MARK) ? text.slice(BYTE_ORDER_MARK.length) : text);
  } catch (error) {
    // JSON.parse quotes the text around the fault: a lock's bytes (a newline, an escape sequence) never reach a terminal.
    throw new LockFormatError(studyMessages.lockUnreadable(source, printableText((error as Error).message, 160)), { cause: error });
  }
  const invalid = (detail: string) => new LockFormatError(studyMessages.lockInvalid(source, detail));
  // JSON.parse keeps the last of two equal keys; a reader of the text (a reviewer of a lock's diff, another language's
  // parser) may take the first: a lock with two "id" or two checksums of one thing says two things, never rdw's text.
  const duplicated = duplicateKeyPath(text);
  if (duplicated !== undefined) throw invalid(`${printableText(duplicated, 120)} appears twice`);
  const reserved = reservedKeyPath(value, '');
  if (reserved !== undefined) throw invalid(`${reserved} is a reserved name (__proto__, constructor and prototype are never lock keys)`);
  if (!isObject(value)) throw invalid('the top level is not an object');
  const version = value.lockVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) throw invalid('lockVersion is not a positive integer');
  if (version > LOCK_VERSION) throw new LockVersionError(studyMessages.lockTooNew(source, version, LOCK_VERSION), version);
  if (typeof value.rdwVersion !== 'string') throw invalid('rdwVersion is not a string');
  if (typeof value.dataset !== 'string') throw invalid('dataset is not a string');
  if (!Array.isArray(value.releases) || value.releases.length === 0) throw invalid('releases is not a non-empty array');
  if (!Array.isArray(value.calculationVersions) || !value.calculationVersions.every((v) => typeof v === 'string')) {
    throw invalid('calculationVersions is not an array of strings');
  }
  const releases = value.releases.map((release, index) => lockedRelease(release, `releases[${index}]`, invalid));
  const ids = new Set(releases.map((release) => release.id));
  if (ids.size !== releases.length) throw invalid('a release ID appears twice');
  return {
    lockVersion: LOCK_VERSION,
    rdwVersion: value.rdwVersion,
    dataset: value.dataset,
    releases,
    calculationVersions: [...(value.calculationVersions as string[])],
  };
}

/** Canonical lock text: fixed key order, releases by day then ID, two-space indent, trailing newline. */
export function studyLockToJson(lock: StudyLock): string {
  const releases = [...lock.releases]
    .sort((a, b) => a.day.localeCompare(b.day) || compareIds(a.id, b.id))
    .map((release) => ({
      id: release.id,
      day: release.day,
      version: release.version,
      manifestSha256: release.manifestSha256,
      schemaSha256: release.schemaSha256,
      files: Object.fromEntries(
        Object.entries(release.files)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([format, file]) => [format, { sha256: file.sha256, bytes: file.bytes }]),
      ),
      ...(release.rowsFingerprint === undefined ? {} : { rowsFingerprint: release.rowsFingerprint }),
    }));
  const canonical = {
    lockVersion: lock.lockVersion,
    rdwVersion: lock.rdwVersion,
    dataset: lock.dataset,
    releases,
    calculationVersions: [...new Set(lock.calculationVersions)].sort(),
  };
  return `${JSON.stringify(canonical, null, 2)}\n`;
}

function lockedRelease(value: unknown, at: string, invalid: (detail: string) => LockFormatError): LockedRelease {
  if (!isObject(value)) throw invalid(`${at} is not an object`);
  checkReleaseId(value.id, (sentence) => invalid(`${at}.id: ${sentence.replace(/\.$/, '')}`));
  // A real calendar day: 2026-02-31 has the shape but names no release, and was read on into a lock mismatch (exit 3).
  if (!isReleaseDay(value.day)) throw invalid(`${at}.day is not a YYYY-MM-DD calendar day`);
  if (typeof value.version !== 'string') throw invalid(`${at}.version is not a string`);
  if (typeof value.manifestSha256 !== 'string' || !SHA256_HEX_PATTERN.test(value.manifestSha256)) {
    throw invalid(`${at}.manifestSha256 is not a SHA-256 hex digest`);
  }
  if (value.schemaSha256 !== null && (typeof value.schemaSha256 !== 'string' || !SHA256_HEX_PATTERN.test(value.schemaSha256))) {
    throw invalid(`${at}.schemaSha256 is neither null nor a SHA-256 hex digest`);
  }
  if (!isObject(value.files) || Object.keys(value.files).length === 0) throw invalid(`${at}.files is not a non-empty object`);
  const files: LockedRelease['files'] = {};
  for (const [format, file] of Object.entries(value.files)) {
    if (format !== 'parquet' && format !== 'csv' && format !== 'json') throw invalid(`${at}.files.${printableText(format)} is not a data file format`);
    files[format] = lockedFile(file, `${at}.files.${format}`, invalid);
  }
  // Optional: locks written before rdw recorded row fingerprints have none.
  if (value.rowsFingerprint !== undefined && (typeof value.rowsFingerprint !== 'string' || !SHA256_HEX_PATTERN.test(value.rowsFingerprint))) {
    throw invalid(`${at}.rowsFingerprint is not a 64-hex rows fingerprint`);
  }
  return {
    id: value.id,
    day: value.day,
    version: value.version,
    manifestSha256: value.manifestSha256,
    schemaSha256: value.schemaSha256 as string | null,
    files,
    ...(value.rowsFingerprint === undefined ? {} : { rowsFingerprint: value.rowsFingerprint }),
  };
}

function lockedFile(value: unknown, at: string, invalid: (detail: string) => LockFormatError): LockedFile {
  if (!isObject(value)) throw invalid(`${at} is not an object`);
  if (typeof value.sha256 !== 'string' || !SHA256_HEX_PATTERN.test(value.sha256)) throw invalid(`${at}.sha256 is not a SHA-256 hex digest`);
  if (typeof value.bytes !== 'number' || !Number.isSafeInteger(value.bytes) || value.bytes < 0) {
    throw invalid(`${at}.bytes is not a non-negative integer`);
  }
  return { sha256: value.sha256, bytes: value.bytes };
}

/**
 * The path of the first key that appears twice in one object of `text` (valid JSON: JSON.parse read it), e.g.
 * `releases[0].files.parquet.sha256`, compared as JSON.parse decodes them (`"\u0069d"` is `id`); undefined when none.
 */
function duplicateKeyPath(text: string): string | undefined {
  type Open = { keys: Set<string> | undefined; at: string; index: number; key: string | undefined };
  const stack: Open[] = [];
  const childAt = (open: Open) => (open.keys === undefined ? `${open.at}[${open.index}]` : open.at === '' ? open.key! : `${open.at}.${open.key!}`);
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    const top = stack[stack.length - 1];
    if (char === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const string = JSON.parse(text.slice(i, end + 1)) as string;
      // A string inside an object is a key when a colon follows it (JSON has no other place for one there).
      let next = end + 1;
      while (/\s/.test(text[next] ?? '')) next += 1;
      if (top?.keys !== undefined && text[next] === ':') {
        if (top.keys.has(string)) return top.at === '' ? string : `${top.at}.${string}`;
        top.keys.add(string);
        top.key = string;
      }
      i = end;
    } else if (char === '{' || char === '[') {
      const at = top === undefined ? '' : childAt(top);
      stack.push({ keys: char === '{' ? new Set() : undefined, at, index: 0, key: undefined });
    } else if (char === '}' || char === ']') {
      stack.pop();
    } else if (char === ',' && top?.keys === undefined && top !== undefined) {
      top.index += 1;
    }
  }
  return undefined;
}

/** Keys that could reach an object's prototype when a lock is copied or merged: never part of a lock. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The path of the first reserved key anywhere in `value` (JSON.parse keeps `__proto__` as an own key), or undefined. */
function reservedKeyPath(value: unknown, at: string): string | undefined {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = reservedKeyPath(item, `${at}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of Object.keys(value)) {
    const path = at === '' ? key : `${at}.${key}`;
    if (RESERVED_KEYS.has(key)) return path;
    const found = reservedKeyPath((value as Record<string, unknown>)[key], path);
    if (found !== undefined) return found;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
