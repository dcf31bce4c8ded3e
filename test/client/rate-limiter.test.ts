import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { KeyState, RateLimiter, keyId } from '../../src/client/index.js';
import { fakeClock } from '../support/fake-clock.js';

const run = promisify(execFile);
const KEY = 'rdw_sk_limiter0123456789abcdef0123456789';

describe('RateLimiter', () => {
  it('allows 90% of rpm in any 60 s and then waits for the oldest request to leave the window', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(KeyState.for("mem-limiter-test", undefined), clock, { rpm: 10, share: 0.9 });
    expect(limiter.capacity).toBe(9);
    const sent: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      await limiter.acquire();
      sent.push(clock.now());
      await clock.sleep(100);
    }
    for (let i = 0; i < sent.length; i += 1) {
      const inWindow = sent.filter((t) => t > sent[i]! - 60_000 && t <= sent[i]!).length;
      expect(inWindow).toBeLessThanOrEqual(9);
    }
    expect(sent[29]! - sent[0]!).toBeGreaterThanOrEqual(3 * 60_000);
  });

  it('shares one window between clients of a key through the state file (two instances, one file)', async () => {
    const home = await mkdtemp(join(tmpdir(), 'rdw-limiter-'));
    const clock = fakeClock();
    const id = keyId(KEY);
    // Two KeyState instances on the same file behave like two processes (separate in-memory queues).
    const a = new RateLimiter(KeyState.for(id, home), clock, { rpm: 10, share: 0.9 });
    const b = new RateLimiter(KeyState.for(id, `${home}/.`), clock, { rpm: 10, share: 0.9 });
    await Promise.all(Array.from({ length: 9 }, (_, i) => (i % 2 === 0 ? a : b).acquire()));
    expect(clock.slept).toBe(0);
    await b.acquire();
    expect(clock.slept).toBeGreaterThanOrEqual(60_000);
    const files = await readdir(join(home, 'state'));
    expect(files).toContain(`pacing-${id}.json`);
    const text = await readFile(join(home, 'state', `pacing-${id}.json`), 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(KEY.slice(7));
  });

  it('leases tokens in batches (one file round trip per 32 requests) and returns unused ones on release', async () => {
    const home = await mkdtemp(join(tmpdir(), 'rdw-limiter-lease-'));
    const clock = fakeClock();
    const state = KeyState.for('lease', home);
    const limiter = new RateLimiter(state, clock, { rpm: 10_000 });
    await Promise.all(Array.from({ length: 70 }, () => limiter.acquire()));
    expect(clock.slept).toBe(0);
    // 3 leases of 32: 96 tokens recorded, 26 still unused and counted.
    expect((await state.read()).requests).toHaveLength(96);
    await limiter.release();
    const file = JSON.parse(await readFile(join(home, 'state', 'pacing-lease.json'), 'utf8'));
    expect(file.requests).toHaveLength(70);
  });

  it('never exceeds the window with leases on a small plan (rpm 20: leases of 2)', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(KeyState.for('lease-small', undefined), clock, { rpm: 20, share: 0.9 });
    const sent: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      await limiter.acquire();
      sent.push(clock.now());
    }
    for (const t of sent) expect(sent.filter((u) => u > t - 60_000 && u <= t).length).toBeLessThanOrEqual(18);
    expect(sent[39]! - sent[0]!).toBeGreaterThanOrEqual(60_000);
  });

  it('loses no request under the file lock when two processes acquire at once', async () => {
    const home = await mkdtemp(join(tmpdir(), 'rdw-limiter-proc-'));
    const script = join(home, 'acquire.mts');
    const limiterModule = new URL('../../src/client/index.ts', import.meta.url).pathname;
    await (await import('node:fs/promises')).writeFile(
      script,
      `import { KeyState, RateLimiter, systemClock } from ${JSON.stringify(limiterModule)};
const limiter = new RateLimiter(KeyState.for('proc', process.argv[2]), systemClock, { rpm: 10000 });
for (let i = 0; i < 40; i += 1) await limiter.acquire();
await limiter.release();\n`,
    );
    const child = () => run(process.execPath, ['--import', 'tsx', script, home], { cwd: process.cwd() });
    await Promise.all([child(), child(), child()]);
    const state = JSON.parse(await readFile(join(home, 'state', 'pacing-proc.json'), 'utf8'));
    expect(state.requests).toHaveLength(120);
  });
});
