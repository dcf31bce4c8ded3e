// Release IDs and days as the spec allows them: any 64 URL-unreserved characters, kept exactly (issue 14).

import { describe, expect, it } from 'vitest';
import { RELEASE_ID_PATTERN, isReleaseDay, isReleaseId } from '../../src/contract/index.js';

const hex = 'a3f09c1e'.repeat(8);

describe('isReleaseId', () => {
  it.each([
    ['lowercase hex (the mock)', hex],
    ['upper-case hex', hex.toUpperCase()],
    ['mixed case', `${hex.slice(0, 32).toUpperCase()}${hex.slice(32)}`],
    ['letters beyond hex', 'Zz'.repeat(32)],
    ['"-" and "_"', `${'-_'.repeat(4)}${hex.slice(8)}`],
    ['"." and "~"', `${hex.slice(0, 60)}.~.~`],
  ])('accepts %s', (_name, id) => {
    expect(id).toHaveLength(64);
    expect(isReleaseId(id)).toBe(true);
    expect(RELEASE_ID_PATTERN.test(id)).toBe(true);
  });

  it.each([
    ['63 characters', hex.slice(1)],
    ['65 characters', `${hex}a`],
    ['empty', ''],
    ['a slash', `${hex.slice(0, 63)}/`],
    ['a space', `${hex.slice(0, 63)} `],
    ['a leading space', ` ${hex.slice(1)}`],
    ['a percent escape', `${hex.slice(0, 61)}%2F`],
    ['a question mark', `${hex.slice(0, 63)}?`],
    ['a hash', `${hex.slice(0, 63)}#`],
    ['a non-ASCII letter', `${hex.slice(0, 63)}é`],
    ['a newline', `${hex.slice(0, 63)}\n`],
    ['a number', 42],
    ['null', null],
  ])('refuses %s', (_name, value) => {
    expect(isReleaseId(value)).toBe(false);
  });
});

describe('isReleaseDay', () => {
  it.each(['2026-10-31', '2024-02-29', '1970-01-01'])('accepts %s', (day) => expect(isReleaseDay(day)).toBe(true));
  it.each(['2026-02-30', '2025-02-29', '2026-13-01', '2026-1-01', '2026-10-31T00:00:00Z', ' 2026-10-31', '', 20261031, undefined])(
    'refuses %j',
    (day) => expect(isReleaseDay(day)).toBe(false),
  );
});
