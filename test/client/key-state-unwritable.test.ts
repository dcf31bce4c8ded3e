// A home rdw may read but not write (mounted read-only, a folder of another user): the key's pacing state cannot be
// kept in `<home>/state/`, so it stays in memory for the process, as without a home, instead of failing every request.
// (rdw research catalog and rdw lock check on a read-only home said "…/state/pacing-….json.lock is on a read-only
// file system, so rdw cannot write there", exit 1, though neither writes anything else there.)

import { describe, expect, it } from 'vitest';
import { KeyState, RateLimiter } from '../../src/client/index.js';
import { fakeClock } from '../support/fake-clock.js';

/** A folder no process may make folders in: /sys refuses mkdir (EPERM, or EROFS where it is mounted read-only). */
const UNWRITABLE_HOME = '/sys';

describe('KeyState in a home that cannot be written', () => {
  it('keeps pacing and the byte budget in memory', async () => {
    const state = KeyState.for('unwritable-home-test', UNWRITABLE_HOME);
    const limiter = new RateLimiter(state, fakeClock(), { rpm: 10, share: 0.9 });
    await limiter.acquire();
    await limiter.acquire();
    state.addBytes('2026-11-01', 1234);
    await state.flush();
    expect(await state.usedBytes('2026-11-01', 0)).toBe(1234);
    expect((await state.read()).requests.length).toBeGreaterThan(0);
  });

  it('still fails on a home that is not a folder (a file in the way is a mistake to say, not to paper over)', async () => {
    const state = KeyState.for('file-home-test', '/proc/version');
    await expect(state.read()).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});
