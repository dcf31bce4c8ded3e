// A study lock keeps release IDs exactly as the service listed them (issue 14): any case, `-`, `_`, `.`,
// `~`; the canonical text orders a day's IDs by code unit (the same text on every machine and locale).

import { describe, expect, it } from 'vitest';
import { LockFormatError, studyLockFromJson, studyLockToJson, type StudyLock } from '../../src/locks/index.js';

const digest = (char: string) => char.repeat(64);
const release = (id: string, day: string) => ({
  id,
  day,
  version: 'mev-calc-7',
  manifestSha256: digest('1'),
  schemaSha256: null,
  files: { parquet: { sha256: digest('2'), bytes: 7 } },
});
const ids = {
  upper: `B${'A0'.repeat(31)}F`,
  lower: `a${'b1'.repeat(31)}c`,
  dashed: `-_${'Xy'.repeat(30)}.~`,
};

describe('study lock release IDs', () => {
  it('round-trips upper-case, mixed-case and -_.~ IDs unchanged, ordered by code unit within a day', () => {
    const lock: StudyLock = {
      lockVersion: 1,
      rdwVersion: '0.1.0',
      dataset: 'market-events-v1',
      releases: [release(ids.lower, '2026-10-30'), release(ids.upper, '2026-10-30'), release(ids.dashed, '2026-10-30'), release(ids.lower.toUpperCase(), '2026-10-29')],
      calculationVersions: ['mev-calc-7'],
    };
    const text = studyLockToJson(lock);
    const parsed = studyLockFromJson(text);
    // '-' (0x2d) < 'B' (0x42) < 'a' (0x61), whatever the locale's collation says.
    expect(parsed.releases.map((entry) => entry.id)).toEqual([ids.lower.toUpperCase(), ids.dashed, ids.upper, ids.lower]);
    for (const id of Object.values(ids)) expect(text).toContain(`"id": "${id}"`);
    expect(studyLockToJson(parsed)).toBe(text);
  });

  it('keeps two IDs that differ only in case as two releases', () => {
    const lock = { lockVersion: 1, rdwVersion: '0.1.0', dataset: 'market-events-v1', calculationVersions: [],
      releases: [release(ids.lower, '2026-10-30'), release(ids.lower.toUpperCase(), '2026-10-30')] };
    expect(studyLockFromJson(JSON.stringify(lock)).releases.map((entry) => entry.id).sort()).toEqual([ids.lower, ids.lower.toUpperCase()].sort());
  });

  it.each([
    ['63 characters', ids.upper.slice(1)],
    ['a slash', `${ids.upper.slice(1)}/`],
    ['a space', `${ids.upper.slice(1)} `],
    ['a percent sign', `${ids.upper.slice(1)}%`],
  ])('still refuses an ID with %s (LockFormatError, exit 2)', (_name, id) => {
    const lock = { lockVersion: 1, rdwVersion: '0.1.0', dataset: 'market-events-v1', calculationVersions: [], releases: [release(id, '2026-10-30')] };
    let caught: unknown;
    try {
      studyLockFromJson(JSON.stringify(lock));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LockFormatError);
    expect(caught).toMatchObject({ code: 'RDW_LOCK_FORMAT', exitCode: 2 });
  });
});
