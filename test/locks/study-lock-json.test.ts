import { describe, expect, it } from 'vitest';
import { LockFormatError, LockVersionError, studyLockFromJson, studyLockToJson } from '../../src/locks/study-lock-json.js';
import type { StudyLock } from '../../src/locks/study-lock.js';
import { UsageError } from '../../src/contract/index.js';
import { studyMessages } from '../../src/locks/messages.js';

/** C0, DEL and C1 controls: what would move a terminal's cursor or retitle its window. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const hex = (char: string) => char.repeat(64);

const lock: StudyLock = {
  lockVersion: 1,
  rdwVersion: '0.1.0',
  dataset: 'market-events-v1',
  releases: [
    { id: hex('b'), day: '2026-10-31', version: 'mev-calc-4', manifestSha256: hex('1'), schemaSha256: hex('2'), files: { parquet: { sha256: hex('3'), bytes: 1234 } } },
    { id: hex('a'), day: '2026-10-30', version: 'mev-calc-4', manifestSha256: hex('4'), schemaSha256: null, files: { parquet: { sha256: hex('5'), bytes: 99 } } },
  ],
  calculationVersions: ['mev-calc-4', 'mev-calc-4'],
};

describe('study lock JSON', () => {
  it('writes canonical text: releases by day, fixed key order, trailing newline, and reads it back', () => {
    const text = studyLockToJson(lock);
    expect(text.endsWith('}\n')).toBe(true);
    const parsed = studyLockFromJson(text);
    expect(parsed.releases.map((release) => release.day)).toEqual(['2026-10-30', '2026-10-31']);
    expect(parsed.calculationVersions).toEqual(['mev-calc-4']);
    expect(Object.keys(JSON.parse(text))).toEqual(['lockVersion', 'rdwVersion', 'dataset', 'releases', 'calculationVersions']);
    expect(studyLockToJson(parsed)).toBe(text);
  });

  it('refuses a lock of a newer format with the version it needs (exit 2)', () => {
    const newer = JSON.stringify({ ...JSON.parse(studyLockToJson(lock)), lockVersion: 2 });
    const error = catchError(() => studyLockFromJson(newer, 'study.lock.json'));
    expect(error).toBeInstanceOf(LockVersionError);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as LockVersionError).code).toBe('RDW_LOCK_VERSION');
    expect((error as LockVersionError).lockVersion).toBe(2);
    expect((error as LockVersionError).exitCode).toBe(2);
  });

  it('reads a lock saved with a UTF-8 byte order mark and CRLF line ends (a Windows editor) as the same lock', () => {
    const text = studyLockToJson(lock);
    const parsed = studyLockFromJson(text);
    expect(studyLockFromJson(`\uFEFF${text}`, 'study.lock.json')).toEqual(parsed);
    expect(studyLockFromJson(`\uFEFF${text.replace(/\n/g, '\r\n')}`)).toEqual(parsed);
  });

  it.each([
    ['an escape sequence', '\u001b]0;pwned\u0007\u001b[2J{}'],
    ['a UTF-16 file read as UTF-8', '\ufffd\ufffd{\u0000\n\u0000 \u0000"'],
  ])('names a lock that is not JSON without quoting its control characters (%s)', (_name, text) => {
    const error = catchError(() => studyLockFromJson(text, 'study.lock.json'));
    expect(error).toBeInstanceOf(LockFormatError);
    expect((error as LockFormatError).message).toMatch(/^The study lock study\.lock\.json is not valid JSON \(/);
    expect((error as LockFormatError).message).not.toMatch(CONTROL);
  });

  it('quotes an edited lock value in a mismatch escaped, and cut when long', () => {
    const sentence = studyMessages.lockMismatch(hex('a'), 'the dataset', `\u001b[2J${'x'.repeat(500)}`, 'market-events-v1');
    expect(sentence).not.toMatch(CONTROL);
    expect(sentence).toContain('the lock says \\u001b[2Jxxx');
    expect(sentence.length).toBeLessThan(400);
    expect(catchError(() => studyLockFromJson(JSON.stringify({ ...base(), releases: [{ ...base().releases[0], files: { '\u001b[2J': { sha256: hex('3'), bytes: 1 } } }] }))))
      .toHaveProperty('message', expect.not.stringMatching(CONTROL));
  });

  const base = () => JSON.parse(studyLockToJson(lock));
  it.each([
    ['not JSON', () => '{oops'],
    ['a release ID of the wrong shape', () => JSON.stringify({ ...base(), releases: [{ ...base().releases[0], id: 'ABC' }] })],
    ['an ID with a slash', () => JSON.stringify({ ...base(), releases: [{ ...base().releases[0], id: `${'a'.repeat(63)}/` }] })],
    ['an ID with a space', () => JSON.stringify({ ...base(), releases: [{ ...base().releases[0], id: ` ${'a'.repeat(63)}` }] })],
    ['no releases', () => JSON.stringify({ ...base(), releases: [] })],
    ['a day that is no calendar day', () => JSON.stringify({ ...base(), releases: [{ ...base().releases[0], day: '2026-02-31' }] })],
    ['a day of month 13', () => JSON.stringify({ ...base(), releases: [{ ...base().releases[0], day: '2026-13-01' }] })],
    ['a duplicated release', () => JSON.stringify({ ...base(), releases: [base().releases[0], base().releases[0]] })],
    ['a bad manifest digest', () => JSON.stringify({ ...base(), releases: [{ ...base().releases[0], manifestSha256: 'x' }] })],
    ['a negative file size', () => JSON.stringify({ ...base(), releases: [{ ...base().releases[0], files: { parquet: { sha256: hex('3'), bytes: -1 } } }] })],
    ['an unknown file format', () => JSON.stringify({ ...base(), releases: [{ ...base().releases[0], files: { exe: { sha256: hex('3'), bytes: 1 } } }] })],
    ['lockVersion 0', () => JSON.stringify({ ...base(), lockVersion: 0 })],
    ['a top-level __proto__ key', () => studyLockToJson(lock).replace('{\n', '{\n  "__proto__": {"polluted": true},\n')],
    ['a __proto__ key inside a release', () => studyLockToJson(lock).replace('"id":', '"__proto__": {"day": "1999-01-01"},\n      "id":')],
    ['a constructor key in files', () => JSON.stringify({ ...base(), releases: [{ ...base().releases[0], files: { ...base().releases[0].files, constructor: { prototype: {} } } }] })],
    ['a prototype key', () => JSON.stringify({ ...base(), prototype: {} })],
    // JSON.parse keeps the last of two equal keys; the reviewer of a lock's diff may read the first (session 42).
    ['a release with two IDs', () => studyLockToJson(lock).replace(`"id": "${hex('a')}",`, `"id": "${hex('c')}",\n      "id": "${hex('a')}",`)],
    ['two data file digests', () => studyLockToJson(lock).replace(`"sha256": "${hex('5')}",`, `"sha256": "${hex('6')}", "sha256": "${hex('5')}",`)],
    ['a key written twice, once escaped', () => studyLockToJson(lock).replace('"dataset":', '"d\\u0061taset": "other",\n  "dataset":')],
  ])('refuses %s with LockFormatError', (_name, make) => {
    const error = catchError(() => studyLockFromJson(make()));
    expect(error).toBeInstanceOf(LockFormatError);
    expect((error as LockFormatError).code).toBe('RDW_LOCK_FORMAT');
    expect((error as LockFormatError).exitCode).toBe(2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('study lock JSON with a key twice', () => {
  it('names the first key that appears twice in one object, by its path; equal keys in different objects are fine', () => {
    const text = studyLockToJson(lock).replace(`"bytes": 99`, `"bytes": 99, "bytes": 100`);
    const error = catchError(() => studyLockFromJson(text, 'study.lock.json'));
    expect(error).toBeInstanceOf(LockFormatError);
    expect((error as Error).message).toBe(studyMessages.lockInvalid('study.lock.json', 'releases[0].files.parquet.bytes appears twice'));
    // Before: read as bytes 100, with nothing said.
    expect(JSON.parse(text).releases[0].files.parquet.bytes).toBe(100);
    expect(studyLockFromJson(studyLockToJson(lock)).releases).toHaveLength(2);
    // A key's name inside a string value is not a key.
    const quoted = JSON.stringify({ ...JSON.parse(studyLockToJson(lock)), rdwVersion: '"dataset": "x", \\"' });
    expect(studyLockFromJson(quoted).rdwVersion).toBe('"dataset": "x", \\"');
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
