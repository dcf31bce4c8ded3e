// Issue 17: every pacing wait is announced (kind 'pace_wait', with its remaining time), a known limit starts
// a client at the account's pace, and keys declared as one account share one window (mock, fake clock).

import { afterEach, describe, expect, it } from 'vitest';
import { accountStateId, clientMessages, keyId, type ClientNotice } from '../../src/client/index.js';
import { startHarness, type Harness } from './mock-harness.js';

describe('pacing waits, known limits and account-wide pacing', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('announces a pacing wait over 1 s with its remaining seconds before sleeping it, once per wait', async () => {
    h = await startHarness({ days: 2, limits: { researcher: { rpm: 12 } } });
    const notices: { notice: ClientNotice; at: number }[] = [];
    const client = h.client(h.mock.keys.researcher, { onNotice: (notice) => notices.push({ notice, at: h.clock.now() }) });
    const start = h.clock.now();
    // 1 /catalog + 14 listings: the 13th request waits for the first minute's window to clear.
    await Promise.all(Array.from({ length: 14 }, () => client.releases({ limit: 1 })));
    expect(h.log().filter((entry) => entry.status === 429)).toEqual([]);
    const waits = notices.filter((entry) => entry.notice.kind === 'pace_wait');
    expect(waits).toHaveLength(1); // 14 concurrent callers share one wait: said once
    const [{ notice, at }] = waits as [{ notice: ClientNotice; at: number }];
    expect(at).toBe(start); // said before the sleep, at the time the wait began
    expect(notice.waitMs).toBeGreaterThan(59_000);
    expect(notice.waitMs).toBeLessThanOrEqual(60_251);
    expect(notice.message).toBe(clientMessages.paceWait(notice.waitMs!, 'window', 12, 'account'));
    expect(notice.message).toMatch(/^Pacing: the account's 12 requests per minute have all been used in the last minute \(by this or another rdw process\); waiting (60|59) s\.$/);
    expect(h.clock.now() - start).toBeGreaterThanOrEqual(notice.waitMs!);
  });

  it('starts at a known limit: no wait where a client at the assumed 60 rpm waits a minute (the 61 s stall)', async () => {
    h = await startHarness({ days: 2 }); // desk: 300 rpm
    const key = h.mock.keys.desk;
    const first = h.client(key);
    await Promise.all(Array.from({ length: 80 }, () => first.releases({ limit: 1 })));
    const slept = h.clock.slept;

    // Another command a moment later, told the limit an earlier one learned: no wait, no notice.
    const notices: ClientNotice[] = [];
    const known = h.client(key, { knownLimits: { rpm: 300 }, onNotice: (notice) => notices.push(notice) });
    await known.releases({ limit: 1 });
    expect(h.clock.slept).toBe(slept);
    expect(notices).toEqual([]);

    // Without it, the first request paces at 60 rpm against a window holding 80: it waits, and says why.
    const unknown = h.client(key, { onNotice: (notice) => notices.push(notice) });
    await unknown.releases({ limit: 1 });
    expect(h.clock.slept - slept).toBeGreaterThan(1_000);
    expect(notices.map((notice) => notice.kind)).toEqual(['pace_wait']);
    expect(notices[0]!.message).toContain('the 60 requests per minute rdw assumes until the account\'s limit is read');
    expect(h.log().filter((entry) => entry.status === 429)).toEqual([]);
  });

  it('tells onLimits the reported limits once per client', async () => {
    h = await startHarness({ days: 2 });
    const learned: number[] = [];
    const client = h.client(h.mock.keys.desk, { onLimits: (limits) => learned.push(limits.rpm) });
    await client.releases({ limit: 1 });
    await client.releases({ limit: 1 });
    expect(learned).toEqual([300]);
  });

  /** Two keys of a new Research Desk account, at an account-wide 12 rpm. */
  const twoDeskKeys = async () => {
    h = await startHarness({ days: 2, limits: { desk: { rpm: 12 } } });
    const account = h.mock.admin.createAccount('desk');
    return [h.mock.admin.createKey(account, 'one'), h.mock.admin.createKey(account, 'two')] as const;
  };

  it('paces two keys declared as one account against one window: 120 requests, 0 x 429', async () => {
    const [one, two] = await twoDeskKeys();
    const a = h.client(one, { account: 'desk' });
    const b = h.client(two, { account: 'desk' });
    const start = h.clock.now();
    for (let i = 0; i < 60; i += 1) await Promise.all([a.releases({ limit: 1 }), b.releases({ limit: 1 })]);
    const statuses = h.log().map((entry) => entry.status);
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    expect(statuses.length).toBeGreaterThanOrEqual(120);
    expect(h.clock.now() - start).toBeGreaterThanOrEqual(9 * 60_000);
    expect(accountStateId('desk')).toMatch(/^account-[0-9a-f]{16}$/);
    expect(accountStateId('desk')).not.toBe(keyId(one));
  });

  it('meets 429s when the same two keys are not declared as one account (each paces alone)', async () => {
    const [one, two] = await twoDeskKeys();
    const a = h.client(one);
    const b = h.client(two);
    for (let i = 0; i < 20; i += 1) await Promise.all([a.releases({ limit: 1 }), b.releases({ limit: 1 })]);
    expect(h.log().filter((entry) => entry.status === 429).length).toBeGreaterThan(0);
  });
});
