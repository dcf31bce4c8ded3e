// One release-ID check, one sentence (issue 30): every layer that takes release IDs refuses a malformed one
// with contract's sentence, each with its own typed error (code, exit code, option) as before.

import { describe, expect, it } from 'vitest';
import { resolveReleaseIds } from '../../src/analysis/index.js';
import { checkReleaseIds } from '../../src/catalog/index.js';
import { checkReleaseId as clientCheckReleaseId } from '../../src/client/check-input.js';
import { checkReleaseId, isReleaseId, releaseIdMessages, UsageError } from '../../src/contract/index.js';
import { checkLockIds, studyLockFromJson } from '../../src/locks/index.js';
import { thrown } from '../support/thrown.js';

const good = 'a3f09c1e'.repeat(8);
const bad = good.slice(1);

describe('checkReleaseId', () => {
  it('passes a release ID and refuses anything else with the one sentence, through the error the caller builds', () => {
    expect(() => checkReleaseId(good, (sentence) => new UsageError(sentence))).not.toThrow();
    for (const value of [bad, '', 42, null, `${good}a`]) {
      expect(isReleaseId(value)).toBe(false);
      const error = thrown(() => checkReleaseId(value, (sentence) => new UsageError(sentence, { option: 'id' })));
      expect(error).toBeInstanceOf(UsageError);
      expect(error).toMatchObject({ message: releaseIdMessages.badReleaseId(String(value)), option: 'id', exitCode: 2 });
    }
  });

  it('escapes control characters and cuts a long value, so the sentence stays one safe line', () => {
    const sentence = releaseIdMessages.badReleaseId(`\u001b[2J${'x'.repeat(200)}\n`);
    expect(sentence).not.toMatch(/[\u0000-\u001f]/);
    expect(sentence).toContain('\\u001b[2J');
    expect(sentence.startsWith(`"\\u001b[2J${'x'.repeat(70)}…"`)).toBe(true);
  });

  it.each([
    ['client', () => clientCheckReleaseId(bad), 'RDW_USAGE', 'releaseId'],
    ['catalog', () => checkReleaseIds([good, bad]), 'RDW_CATALOG_OPTION', 'releaseId'],
    ['analysis', () => resolveReleaseIds([good, bad]), 'RDW_ANALYSIS_OPTION', 'releases'],
    ['study lock', () => checkLockIds([good, bad]), 'RDW_STUDY_OPTION', 'releases'],
  ])('the %s layer says the same sentence with its own code', (_layer, call, code, option) => {
    expect(thrown(call)).toMatchObject({ code, exitCode: 2, option, message: releaseIdMessages.badReleaseId(bad) });
  });

  it('a lock file with a malformed ID names the place and says the same sentence (RDW_LOCK_FORMAT)', () => {
    const lock = { lockVersion: 1, rdwVersion: '0', dataset: 'market_events', releases: [{ id: bad, day: '2026-10-30', version: 'v', manifestSha256: 'a'.repeat(64), schemaSha256: null, files: { parquet: { sha256: 'b'.repeat(64), bytes: 1 } } }], calculationVersions: ['v'] };
    const error = thrown(() => studyLockFromJson(JSON.stringify(lock), 'x.lock.json'));
    expect(error).toMatchObject({ code: 'RDW_LOCK_FORMAT', exitCode: 2 });
    expect((error as Error).message).toContain(`releases[0].id: ${releaseIdMessages.badReleaseId(bad).replace(/\.$/, '')}`);
  });
});
