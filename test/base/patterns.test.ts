import { describe, expect, it } from 'vitest';
import { DAY_PATTERN, SHA256_HEX_PATTERN } from '../../src/base/index.js';

describe('text patterns', () => {
  it.each([
    ['2026-11-24', true],
    ['2026-02-31', true], // shape only: the calendar check is the caller's (isReleaseDay, parseDay)
    ['2026-1-24', false],
    ['2026-11-24T00:00:00Z', false],
    [' 2026-11-24', false],
    ['20261124', false],
  ])('DAY_PATTERN on %j is %s', (text, expected) => {
    expect(DAY_PATTERN.test(text)).toBe(expected);
  });

  it('captures year, month and day', () => {
    expect(DAY_PATTERN.exec('2030-07-09')?.slice(1)).toEqual(['2030', '07', '09']);
  });

  it.each([
    ['e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', true],
    ['E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855', false],
    ['e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b85', false],
    ['e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b8555', false],
    ['g3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', false],
  ])('SHA256_HEX_PATTERN on %s is %s', (text, expected) => {
    expect(SHA256_HEX_PATTERN.test(text)).toBe(expected);
  });
});
