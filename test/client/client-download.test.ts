// Verified downloads against the mock's faults, byte budgets, resume with Range.

import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IntegrityError, LimitError, type Release } from '../../src/contract/index.js';
import {
  ByteBudgetError,
  ChecksumMismatchError,
  NetworkError,
  ServiceUnavailableError,
  SizeMismatchError,
  TimeoutError,
  type RdwClient,
} from '../../src/client/index.js';
import { startHarness, type Harness } from './mock-harness.js';
import { keyLeaks } from './key-leaks.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('verified downloads and faults', () => {
  let h: Harness;
  let client: RdwClient;
  let release: Release;
  let dir: string;
  const thrown: unknown[] = [];
  const capture = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    thrown.push(error);
    return error;
  };

  beforeAll(async () => {
    h = await startHarness({ days: 4 });
    client = h.client(h.mock.keys.desk, { retry: { maxRetries: 2, random: () => 0.5 }, timeouts: { bodyMs: 300, headersMs: 2_000 } });
    [release] = (await client.releases({ limit: 1 })) as [Release];
  });
  beforeEach(async () => {
    h.mock.faults.clear();
    dir = await mkdtemp(join(tmpdir(), 'rdw-dl-'));
  });
  afterAll(async () => {
    await h.close();
  });

  const downloadsOf = (format: string) => h.log().filter((entry) => entry.path === `/download/${release.id}/${format}`);

  it('writes the parquet file, verified against the manifest, with progress up to the total', async () => {
    const progress: [number, number][] = [];
    const dest = join(dir, 'r.parquet');
    const digest = await client.download(release.id, 'parquet', dest, { onProgress: (done, total) => progress.push([done, total]) });
    expect(digest).toEqual(release.files.parquet);
    const bytes = await readFile(dest);
    expect(sha256(bytes)).toBe(release.files.parquet.sha256);
    expect(progress.at(-1)).toEqual([release.files.parquet.bytes, release.files.parquet.bytes]);
    expect(await readdir(dir)).toEqual(['r.parquet']);
  });

  it('returns the manifest with the sha256 of its exact bytes and the bundled schema', async () => {
    const manifest = await client.manifest(release.id);
    expect(manifest.release.id).toBe(release.id);
    expect(manifest.sha256).toBe(sha256(manifest.bytes));
    const schema = await client.bundledSchema(release.id);
    if (release.files.schema !== undefined) {
      expect(schema?.sha256).toBe(release.files.schema.sha256);
      expect(Object.keys(schema!.document.fields)).toContain('status_1h');
    } else expect(schema).toBeUndefined();
  });

  it('refuses a corrupt file: ChecksumMismatchError, nothing at dest, no partial', async () => {
    h.mock.faults.add({ releaseId: release.id, format: 'csv', kind: 'corrupt' });
    const dest = join(dir, 'r.csv');
    const error = await capture(client.download(release.id, 'csv', dest));
    expect(error).toBeInstanceOf(ChecksumMismatchError);
    expect(error).toBeInstanceOf(IntegrityError);
    expect((error as ChecksumMismatchError).code).toBe('RDW_INTEGRITY_MISMATCH');
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a file larger than expected at its Content-Length: SizeMismatchError, nothing at dest', async () => {
    const dest = join(dir, 'r.csv');
    const expected = { sha256: release.files.csv.sha256, bytes: release.files.csv.bytes - 1 };
    const error = await capture(client.download(release.id, 'csv', dest, { expected }));
    expect(error).toBeInstanceOf(SizeMismatchError);
    expect(error).toBeInstanceOf(IntegrityError);
    expect((error as SizeMismatchError).code).toBe('RDW_INTEGRITY_SIZE');
    // Refused at the header, before a byte came: the sentence says what was announced, not "has N bytes".
    expect((error as SizeMismatchError).message).toMatch(new RegExp(`^The API announced ${release.files.csv.bytes} bytes \\(Content-Length\\) for .+, but ${expected.bytes} were expected; nothing was downloaded`));
    expect(await readdir(dir)).toEqual([]);
  });

  it('resumes with Range after a truncated body and ends verified', async () => {
    h.mock.faults.add({ releaseId: release.id, format: 'csv', kind: 'truncate', times: 1 });
    const dest = join(dir, 'r.csv');
    const before = downloadsOf('csv').length;
    const digest = await client.download(release.id, 'csv', dest);
    expect(digest).toEqual(release.files.csv);
    const attempts = downloadsOf('csv').slice(before);
    expect(attempts.map((entry) => entry.status)).toEqual([200, 206]);
    expect(await readdir(dir)).toEqual(['r.csv']);
  });

  it('keeps a resumable partial after persistent truncation (NetworkError), then resumes it on the next call', async () => {
    h.mock.faults.add({ releaseId: release.id, format: 'csv', kind: 'truncate' });
    const dest = join(dir, 'r.csv');
    const error = await capture(client.download(release.id, 'csv', dest));
    // The mock closes the connection half-way through the declared Content-Length: a connection failure.
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('RDW_NETWORK');
    expect((await readdir(dir)).sort()).toEqual(['r.csv.partial', 'r.csv.partial.json']);
    const kept = await readFile(join(dir, 'r.csv.partial'));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(release.files.csv.bytes);
    h.mock.faults.clear();
    const before = downloadsOf('csv').length;
    expect(await client.download(release.id, 'csv', dest)).toEqual(release.files.csv);
    expect(downloadsOf('csv').slice(before).map((entry) => entry.status)).toEqual([206]);
    expect(await readdir(dir)).toEqual(['r.csv']);
  });

  it('gives up on a persistent 503 after bounded retries: ServiceUnavailableError, nothing at dest', async () => {
    h.mock.faults.add({ releaseId: release.id, format: 'csv', kind: 'status503' });
    const before = downloadsOf('csv').length;
    const error = await capture(client.download(release.id, 'csv', join(dir, 'r.csv')));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).code).toBe('RDW_SERVICE_UNAVAILABLE');
    expect((error as ServiceUnavailableError).status).toBe(503);
    expect(downloadsOf('csv').length - before).toBe(3);
    expect(await readdir(dir)).toEqual([]);
  });

  it('recovers from one 503 by retrying after a backoff on the client clock', async () => {
    h.mock.faults.add({ releaseId: release.id, format: 'csv', kind: 'status503', times: 1 });
    const slept = h.clock.slept;
    expect(await client.download(release.id, 'csv', join(dir, 'r.csv'))).toEqual(release.files.csv);
    expect(h.clock.slept - slept).toBeGreaterThanOrEqual(500);
  });

  it('turns a persistent connection reset into NetworkError with nothing at dest', async () => {
    h.mock.faults.add({ releaseId: release.id, format: 'csv', kind: 'reset' });
    const error = await capture(client.download(release.id, 'csv', join(dir, 'r.csv')));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('RDW_NETWORK');
    expect(await readdir(dir)).not.toContain('r.csv');
    // What is left is only a resumable partial with its sidecar (or nothing).
    for (const name of await readdir(dir)) expect(['r.csv.partial', 'r.csv.partial.json']).toContain(name);
  });

  it('turns a stalled body into TimeoutError with nothing at dest', async () => {
    h.mock.faults.add({ releaseId: release.id, format: 'csv', kind: 'slow', delayMs: 1_000 });
    const error = await capture(client.download(release.id, 'csv', join(dir, 'r.csv')));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).code).toBe('RDW_TIMEOUT');
    expect((error as TimeoutError).phase).toBe('body');
    expect(await readdir(dir)).not.toContain('r.csv');
  });

  it('leaks the key in none of the errors above', () => {
    expect(thrown.filter(Boolean).length).toBeGreaterThanOrEqual(5);
    for (const error of thrown) expect(keyLeaks(error, Object.values(h.mock.keys) as string[])).toEqual([]);
  });
});

describe('byte budget', () => {
  it('refuses a download the remaining budget cannot hold, before sending it', async () => {
    const probe = await startHarness({ days: 2 });
    const probeClient = probe.client(probe.mock.keys.researcher);
    const [release] = await probeClient.releases({ limit: 1 });
    const manifestBytes = (await probeClient.manifest(release!.id)).bytes.length;
    await probe.close();
    // A budget that holds the manifest and the csv but not the parquet after them.
    const dailyBytes = manifestBytes + release!.files.csv.bytes + release!.files.parquet.bytes - 1;
    const h = await startHarness({ days: 2, limits: { researcher: { daily_bytes: dailyBytes } } });
    try {
      const client = h.client(h.mock.keys.researcher);
      const dir = await mkdtemp(join(tmpdir(), 'rdw-budget-'));
      await client.download(release!.id, 'csv', join(dir, 'r.csv'));
      const error = await client.download(release!.id, 'parquet', join(dir, 'r.parquet')).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ByteBudgetError);
      expect(error).toBeInstanceOf(LimitError);
      expect((error as ByteBudgetError).code).toBe('RDW_BYTE_BUDGET');
      expect((error as ByteBudgetError).status).toBeUndefined();
      expect((error as ByteBudgetError).nextUtcDay).toBe('2026-11-02');
      expect(h.log().filter((entry) => entry.path.endsWith('/parquet'))).toEqual([]);
      expect(await readdir(dir)).toEqual(['r.csv']);
    } finally {
      await h.close();
    }
  });

  it('does not retry the server\'s daily_byte_limit 429 and names the next UTC day', async () => {
    const probe = await startHarness({ days: 2 });
    const [release] = await probe.client(probe.mock.keys.researcher).releases({ limit: 1 });
    await probe.close();
    const h = await startHarness({ days: 2, limits: { researcher: { daily_bytes: release!.files.csv.bytes + 64 * 1024 } } });
    try {
      const dir = await mkdtemp(join(tmpdir(), 'rdw-budget-'));
      // Another process (own RDW_HOME, so its own view of the budget) spends the account's bytes first.
      const other = h.client(h.mock.keys.researcher, { home: await mkdtemp(join(tmpdir(), 'rdw-other-')) });
      await other.download(release!.id, 'csv', join(dir, 'a.csv'));
      const client = h.client(h.mock.keys.researcher);
      const before = h.log().length;
      const error = await client.download(release!.id, 'csv', join(dir, 'b.csv')).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ByteBudgetError);
      expect((error as ByteBudgetError).status).toBe(429);
      expect((error as ByteBudgetError).nextUtcDay).toBe('2026-11-02');
      const refused = h.log().slice(before).filter((entry) => entry.status === 429);
      expect(refused).toHaveLength(1);
      // The local budget now knows: the next download is refused without a request.
      const count = h.log().length;
      await expect(client.download(release!.id, 'json', join(dir, 'c.json'))).rejects.toBeInstanceOf(ByteBudgetError);
      expect(h.log().length).toBe(count);
    } finally {
      await h.close();
    }
  });
});
