// Issue 17: the account's limits, once read, are kept in `<home>/account-limits.json` (never the key): the
// next connection starts at that pace and, for a day, spends no request on /catalog; a local budget refusal
// on kept limits asks the service first; a corrupt or unreadable file is ignored without an error.

import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyId, type AccountLimits } from '../../src/client/index.js';
import { startMockServer } from '../../src/mock/index.js';
import { connectApi } from '../../src/workbench/index.js';
import { EMBEDDED_MOCK_REVISIONS_FILE } from '../../src/workbench/connect-api.js';
import { KNOWN_LIMITS_FILE, readKnownLimits, recordKnownLimits } from '../../src/workbench/known-limits.js';
import { createTempHome } from '../support/temp-home.js';

type Mock = Awaited<ReturnType<typeof startMockServer>>;

const DESK_LIMITS: AccountLimits = { rpm: 300, daily_bytes: 5 * 2 ** 30, keys: 5, source: 'reported', origin: '/catalog' };

describe('learned limits kept in the home', () => {
  let mock: Mock;
  let temp: { home: string; remove(): Promise<void> };
  beforeEach(async () => {
    mock = await startMockServer({ port: 0, days: 2 });
    temp = await createTempHome();
  });
  afterEach(async () => {
    await mock.close();
    await temp.remove();
  });

  const connect = (extra: Record<string, string> = {}) =>
    connectApi({ env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk, ...extra }, home: temp.home });

  it('records the limit read from /catalog under the origin and key fingerprint, with no key bytes in the file', async () => {
    const api = await connect();
    await api.client.releases({ limit: 1 });
    await api.close();
    const text = await readFile(path.join(temp.home, KNOWN_LIMITS_FILE), 'utf8');
    const origin = new URL(mock.baseUrl).origin;
    expect(JSON.parse(text)).toEqual({
      version: 1,
      limits: {
        [`${origin} ${keyId(mock.keys.desk)}`]: {
          rpm: 300,
          daily_bytes: 5 * 2 ** 30,
          keys: 5,
          origin: '/catalog',
          learned: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      },
    });
    // No run of 8 characters of the key (nor of its body after the prefix), in any form the file could hold it.
    const key = mock.keys.desk;
    for (let i = 0; i + 8 <= key.length; i += 1) expect(text).not.toContain(key.slice(i, i + 8));
    expect(text).not.toContain(Buffer.from(key).toString('base64').slice(0, 12));
    expect(text).not.toContain(Buffer.from(key).toString('hex').slice(0, 16));
    // Written by rename: no temporary file is left beside it.
    expect((await readdir(temp.home)).filter((name) => name.startsWith(KNOWN_LIMITS_FILE))).toEqual([KNOWN_LIMITS_FILE]);
    expect(await readKnownLimits({ home: temp.home, scope: origin, apiKey: key })).toEqual({ rpm: 300, daily_bytes: 5 * 2 ** 30, keys: 5, current: true });
    const dayLater = new Date(Date.now() + 24 * 3600 * 1000 + 1000);
    expect(await readKnownLimits({ home: temp.home, scope: origin, apiKey: key }, dayLater)).toMatchObject({ rpm: 300, current: false });
    expect(await readKnownLimits({ home: temp.home, scope: origin, apiKey: mock.keys.researcher })).toBeUndefined();
  });

  it('starts the next connection at the known pace: a window of 100 recent requests costs no wait', async () => {
    const origin = new URL(mock.baseUrl).origin;
    // An earlier command of this key sent 100 requests just now (its pacing state), and learned 300 rpm.
    await mkdir(path.join(temp.home, 'state'), { recursive: true });
    const now = Date.now();
    const state = { version: 1, requests: Array.from({ length: 100 }, () => now), blockedUntil: 0, budget: { day: '', bytes: 0 } };
    await writeFile(path.join(temp.home, 'state', `pacing-${keyId(mock.keys.desk)}.json`), JSON.stringify(state));
    await recordKnownLimits({ home: temp.home, scope: origin, apiKey: mock.keys.desk }, DESK_LIMITS);
    const notices: string[] = [];
    const api = await connectApi({
      env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk },
      home: temp.home,
      onNotice: (notice) => notices.push(notice.kind),
    });
    const started = performance.now();
    await api.client.releases({ limit: 5 });
    await api.close();
    // At the assumed 60 rpm the first request would wait about 60 s (and say so); at 300 rpm it goes at once.
    // (A 'response_wait' notice says a slow answer of a loaded machine, not a wait of rdw's: not counted.)
    expect(notices.filter((kind) => kind !== 'response_wait')).toEqual([]);
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it.each([
    ['not JSON', '{"version":1,"limits":'],
    ['another shape', '[1,2,3]'],
    ['a wrong rpm', '{"version":1,"limits":{"x":{"rpm":-5}}}'],
  ])('ignores a file holding %s, connects, and replaces it with a good one', async (_name, content) => {
    await writeFile(path.join(temp.home, KNOWN_LIMITS_FILE), content);
    const api = await connect();
    await api.client.releases({ limit: 1 });
    await api.close();
    const file = JSON.parse(await readFile(path.join(temp.home, KNOWN_LIMITS_FILE), 'utf8'));
    expect(Object.values(file.limits)).toEqual([expect.objectContaining({ rpm: 300 })]);
  });

  it('ignores a file it cannot read and a home it cannot write, without an error', async () => {
    // A folder where the file should be cannot be read (EISDIR, also for root); a home that is a file cannot be written.
    await mkdir(path.join(temp.home, KNOWN_LIMITS_FILE));
    expect(await readKnownLimits({ home: temp.home, scope: 'x', apiKey: mock.keys.desk })).toBeUndefined();
    await expect(recordKnownLimits({ home: temp.home, scope: 'x', apiKey: mock.keys.desk }, 300)).resolves.toBeUndefined();
    const notAFolder = path.join(temp.home, 'plain-file');
    await writeFile(notAFolder, '');
    await expect(recordKnownLimits({ home: notAFolder, scope: 'x', apiKey: mock.keys.desk }, 300)).resolves.toBeUndefined();
    expect(await readKnownLimits({ home: notAFolder, scope: 'x', apiKey: mock.keys.desk })).toBeUndefined();
    expect(await readdir(temp.home)).toEqual(expect.arrayContaining([KNOWN_LIMITS_FILE, 'plain-file']));
    expect((await readdir(temp.home)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('for a day after /catalog stated them, a new connection spends no request on /catalog; then it reads them again', async () => {
    const paths = async (learned: Date) => {
      await recordKnownLimits({ home: temp.home, scope: new URL(mock.baseUrl).origin, apiKey: mock.keys.desk }, DESK_LIMITS, learned);
      const start = mock.requestLog.length;
      const api = await connect();
      await api.client.releases({ limit: 2 });
      const budget = await api.client.byteBudget();
      await api.close();
      return { paths: mock.requestLog.slice(start).map((entry) => entry.path), budget };
    };
    const fresh = await paths(new Date(Date.now() - 3600 * 1000));
    expect(fresh.paths).toEqual(['/v1/releases?limit=2']);
    expect(fresh.budget.dailyBytes).toBe(5 * 2 ** 30);
    const old = await paths(new Date(Date.now() - 25 * 3600 * 1000));
    expect(old.paths).toEqual(['/v1/catalog', '/v1/releases?limit=2']);
    // A key without a plan: limits kept from /research/catalog give a pace only, never a skipped /catalog.
    await recordKnownLimits({ home: temp.home, scope: new URL(mock.baseUrl).origin, apiKey: mock.keys.desk }, { ...DESK_LIMITS, origin: '/research/catalog' });
    expect(await readKnownLimits({ home: temp.home, scope: new URL(mock.baseUrl).origin, apiKey: mock.keys.desk })).toMatchObject({ current: false });
  });

  it('kept limits that would refuse a download are checked with the service first (a plan may have changed)', async () => {
    const origin = new URL(mock.baseUrl).origin;
    // Kept: an allowance of 1,000 bytes a day, which no Parquet file fits; the service says 5 GiB.
    await recordKnownLimits({ home: temp.home, scope: origin, apiKey: mock.keys.desk }, { ...DESK_LIMITS, daily_bytes: 1_000 });
    const api = await connect();
    const [release] = await api.client.releases({ limit: 1 });
    const start = mock.requestLog.length;
    const file = await api.client.download(release!.id, 'parquet', path.join(temp.home, 'day.parquet'));
    await api.close();
    expect(file.bytes).toBeGreaterThan(1_000);
    const paths = mock.requestLog.slice(start).map((entry) => entry.path);
    expect(paths.filter((entry) => entry === '/v1/catalog')).toHaveLength(1);
    expect(paths.indexOf('/v1/catalog')).toBeLessThan(paths.findIndex((entry) => entry.endsWith('/parquet')));
    // The service's word replaced the kept one.
    expect(await readKnownLimits({ home: temp.home, scope: origin, apiKey: mock.keys.desk })).toMatchObject({ daily_bytes: 5 * 2 ** 30, current: true });
  });

  it('shares one pacing state between two keys declared as one account (RDW_ACCOUNT)', async () => {
    const account = mock.admin.createAccount('desk');
    const keys = [mock.admin.createKey(account, 'one'), mock.admin.createKey(account, 'two')];
    for (const key of keys) {
      const api = await connectApi({ env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: key, RDW_ACCOUNT: 'lab' }, home: temp.home });
      await api.client.releases({ limit: 1 });
      await api.close();
    }
    const files = await readdir(path.join(temp.home, 'state'));
    expect(files.filter((name) => name.endsWith('.json'))).toEqual([expect.stringMatching(/^pacing-account-[0-9a-f]{16}\.json$/)]);
  });
});

describe('the embedded mock in a home', () => {
  let temp: { home: string; remove(): Promise<void> };
  beforeEach(async () => {
    temp = await createTempHome();
  });
  afterEach(async () => {
    await temp.remove();
  });

  it('keeps what it published in <home>/state/, and the next connection lists the same releases from it', async () => {
    const listed: string[][] = [];
    const keys: string[] = [];
    for (let run = 0; run < 2; run++) {
      const api = await connectApi({ env: {}, home: temp.home, mock: { days: 12 } });
      keys.push(...Object.values(api.mock!.keys));
      listed.push((await api.client.releases({ limit: 12 })).map((release) => release.id));
      if (run === 0) expect(await readdir(path.join(temp.home, 'state'))).not.toContain(EMBEDDED_MOCK_REVISIONS_FILE);
      await api.close();
    }
    expect(listed[1]).toEqual(listed[0]);
    expect(listed[0]).toHaveLength(12);
    const kept = JSON.parse(await readFile(path.join(temp.home, 'state', EMBEDDED_MOCK_REVISIONS_FILE), 'utf8')) as { revisions: Record<string, { release: { id: string } }> };
    expect(Object.values(kept.revisions).map((revision) => revision.release.id).sort()).toEqual(expect.arrayContaining([...listed[0]!].sort()));
    // No key, host or path is kept: release objects and check times only.
    const text = JSON.stringify(kept);
    for (const secret of [...keys, '127.0.0.1', temp.home]) expect(text).not.toContain(secret);
  });
});
