// The team store (issue 32) against a real S3 server (radosgw) and the mock over HTTP: a second home pulls
// through the store with no /download request and the same rows; a flipped byte, a truncated or missing object
// is refused, fetched from the API and repaired; two publishers at once leave one correct object; a bad
// RDW_STORE_URL is exit 2; a store that is down is a notice and the API serves. Under CI=true a missing
// radosgw fails the suite (test/store/s3-server.test.ts); elsewhere this file is skipped.

import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog, pullReleases } from '../../src/catalog/index.js';
import { openWorkbench } from '../../src/workbench/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { storeMessages, TeamStore } from '../../src/store/index.js';
import { hasS3Server, startS3Server, type S3Server } from '../support/s3-server.js';
import { createTempHome } from '../support/temp-home.js';

const installed = await hasS3Server();
const BUCKET = 'rdw-team';
const LATEST = 6;

describe.runIf(installed)('the team store on radosgw', () => {
  let server: S3Server;
  let s3: S3Client;
  let mock: MockServer;
  const homes: { home: string; remove(): Promise<void> }[] = [];
  /** Everything any run printed, to check no credential was. */
  let printed = '';

  beforeAll(async () => {
    [server, mock] = await Promise.all([startS3Server(), startMockServer({ port: 0, days: 12, seed: 7 })]);
    s3 = new S3Client({
      endpoint: server.endpoint,
      region: server.region,
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    });
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  }, 300_000);

  afterAll(async () => {
    for (const home of homes) await home.remove();
    s3?.destroy();
    await mock?.close();
    await server?.stop();
  }, 120_000);

  async function newHome(): Promise<string> {
    const temp = await createTempHome();
    homes.push(temp);
    return temp.home;
  }

  const storeEnv = (prefix: string, extra: Record<string, string> = {}) => ({
    RDW_BASE_URL: mock.baseUrl,
    RDW_API_KEY: mock.keys.desk,
    RDW_STORE_URL: `s3://${BUCKET}/${prefix}`,
    ...server.env,
    ...extra,
  });

  async function rdw(argv: string[], home: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli([...argv, '--home', home], {
      env,
      stdout: { write: (text) => void (stdout += text), isTTY: false },
      stderr: { write: (text) => void (stderr += text), isTTY: false },
      cwd: home,
    });
    printed += stdout + stderr;
    return { code, stdout, stderr };
  }

  /** /download requests the mock answered from `from` on (an index into its request log). */
  const downloadsSince = (from: number) => mock.requestLog.slice(from).filter((entry) => entry.path.includes('/download/'));

  async function catalogRows(home: string): Promise<{ releases: string; rows: string; files: string }> {
    const catalog = await openCatalog(home, { readOnly: true });
    try {
      const [releases] = await catalog.query(`SELECT string_agg(id || ':' || rows || ':' || manifest_sha256, ',' ORDER BY id) AS v FROM releases`);
      const [rows] = await catalog.query(`SELECT count(*)::VARCHAR || ':' || md5(string_agg(t::VARCHAR, '|' ORDER BY t::VARCHAR)) AS v FROM market_events t`);
      const [files] = await catalog.query(`SELECT string_agg(release_id || format || sha256, ',' ORDER BY release_id, format) AS v FROM release_files`);
      return { releases: String(releases!.v), rows: String(rows!.v), files: String(files!.v) };
    } finally {
      await catalog.close();
    }
  }

  async function dataFiles(home: string): Promise<{ releaseId: string; format: string; sha256: string; bytes: number }[]> {
    const catalog = await openCatalog(home, { readOnly: true });
    try {
      const rows = await catalog.query(`SELECT release_id, format, sha256, bytes::DOUBLE AS bytes FROM release_files WHERE format IN ('parquet', 'csv') ORDER BY release_id`);
      return rows.map((row) => ({ releaseId: String(row.release_id), format: String(row.format), sha256: String(row.sha256), bytes: Number(row.bytes) }));
    } finally {
      await catalog.close();
    }
  }

  async function objectBytes(key: string): Promise<Buffer | undefined> {
    try {
      const answer = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    } catch {
      return undefined;
    }
  }

  const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

  it('a second home pulls every release through the store: 0 requests to /download, the same catalog rows', async () => {
    const first = await newHome();
    const mark = mock.requestLog.length;
    const pulled = await rdw(['pull', '--latest', String(LATEST)], first, storeEnv('desk-a'));
    expect(pulled.code, pulled.stderr).toBe(0);
    // The first home fetched each release from the API: its manifest, schema once, its parquet file.
    const firstDownloads = downloadsSince(mark);
    expect(firstDownloads.filter((entry) => entry.path.endsWith('/parquet'))).toHaveLength(LATEST);

    // The store holds each data file under its sha256 and each manifest under its release ID.
    for (const file of await dataFiles(first)) {
      const stored = await objectBytes(`desk-a/${TeamStore.fileKey(file.sha256)}`);
      expect(stored && sha256(stored)).toBe(file.sha256);
      expect(await objectBytes(`desk-a/${TeamStore.manifestKey(file.releaseId)}`)).toBeDefined();
    }

    const second = await newHome();
    const before = mock.requestLog.length;
    const through = await rdw(['pull', '--latest', String(LATEST)], second, storeEnv('desk-a'));
    expect(through.code, through.stderr).toBe(0);
    expect(downloadsSince(before)).toEqual([]);
    // No notice, only the one line saying what the store gave (the pull lines look the same either way).
    const storeLines = (stderr: string) => stderr.split('\n').filter((line) => line.includes('team store'));
    const published = storeLines(pulled.stderr);
    expect(published).toHaveLength(1);
    expect(published[0]).toMatch(/^rdw: The team store s3:\/\/\S+: 0 reads verified, [1-9]\d* objects published\.$/);
    const read = storeLines(through.stderr);
    expect(read).toHaveLength(1);
    // Every manifest and data file was read from the store (the shared schema too, once or more), none published.
    const reads = /^rdw: The team store s3:\/\/\S+: (\d+) reads verified, 0 objects published\.$/.exec(read[0]!);
    expect(Number(reads?.[1])).toBeGreaterThanOrEqual(2 * LATEST + 1);
    expect(await catalogRows(second)).toEqual(await catalogRows(first));
  }, 120_000);

  it('refuses a flipped byte, a truncated and a missing object: each said once, fetched from the API, repaired', async () => {
    const first = await newHome();
    expect((await rdw(['pull', '--latest', '3'], first, storeEnv('desk-b'))).code).toBe(0);
    const [flipped, truncated, missing] = await dataFiles(first);
    const keyOf = (file: { sha256: string }) => `desk-b/${TeamStore.fileKey(file.sha256)}`;
    const good = (await objectBytes(keyOf(flipped!)))!;
    const bad = Buffer.from(good);
    bad[Math.floor(bad.length / 2)]! ^= 0x01;
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: keyOf(flipped!), Body: bad }));
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: keyOf(truncated!), Body: (await objectBytes(keyOf(truncated!)))!.subarray(0, 100) }));
    await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: keyOf(missing!) }));

    const second = await newHome();
    const before = mock.requestLog.length;
    const run = await rdw(['pull', '--latest', '3'], second, storeEnv('desk-b'));
    expect(run.code, run.stderr).toBe(0);
    // One notice per refused object, naming it; the pull itself succeeded.
    const notices = run.stderr.split('\n').filter((line) => line.includes('has no good copy of'));
    expect(notices).toHaveLength(3);
    expect(run.stderr).toContain(storeMessages.objectMissing());
    // Exactly the three refused files came from the API (nothing else).
    const downloads = downloadsSince(before).map((entry) => entry.path.split('/download/')[1]);
    expect(downloads.sort()).toEqual([flipped!, truncated!, missing!].map((file) => `${file.releaseId}/${file.format}`).sort());
    // The store's copies are whole again, and the catalog equals the first home's.
    for (const file of [flipped!, truncated!, missing!]) expect(sha256((await objectBytes(keyOf(file)))!)).toBe(file.sha256);
    expect(await catalogRows(second)).toEqual(await catalogRows(first));

    // A third home now reads all three from the store.
    const third = await newHome();
    const mark = mock.requestLog.length;
    expect((await rdw(['pull', '--latest', '3'], third, storeEnv('desk-b'))).code).toBe(0);
    expect(downloadsSince(mark)).toEqual([]);
  }, 120_000);

  it.each([
    ['a file digest the listing contradicts', 'desk-c1', (manifest: { files: { parquet: { sha256: string } } }) => void (manifest.files.parquet.sha256 = 'f'.repeat(64))],
    ['a row count that differs from the API\'s manifest', 'desk-c2', (manifest: { rows: number }) => void (manifest.rows += 1)],
    ['bytes that are not JSON', 'desk-c3', undefined],
  ])('refuses a stored manifest with %s, takes the API one and repairs the store', async (_what, prefix, forge) => {
    const first = await newHome();
    expect((await rdw(['pull', '--latest', '1'], first, storeEnv(prefix))).code).toBe(0);
    const [file] = await dataFiles(first);
    const key = `${prefix}/${TeamStore.manifestKey(file!.releaseId)}`;
    const good = (await objectBytes(key))!;
    const forged = JSON.parse(good.toString('utf8')) as Parameters<NonNullable<typeof forge>>[0] & Record<string, unknown>;
    forge?.(forged as never);
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: forge === undefined ? '{"not": "a manifest"' : JSON.stringify(forged) }));

    const second = await newHome();
    const before = mock.requestLog.length;
    const run = await rdw(['pull', '--latest', '1'], second, storeEnv(prefix));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.split('\n').filter((line) => line.includes('has no good copy of the manifest'))).toHaveLength(1);
    // Only the manifest came from the API: the files in the store matched the API's manifest.
    expect(downloadsSince(before).map((entry) => entry.path.split('/').pop())).toEqual(['manifest']);
    expect(sha256((await objectBytes(key))!)).toBe(sha256(good));
    expect(await catalogRows(second)).toEqual(await catalogRows(first));
  }, 120_000);

  it('two homes publishing the same releases at once both import them and leave one correct object each', async () => {
    const [a, b] = [await newHome(), await newHome()];
    const runs = await Promise.all([a, b].map((home) => rdw(['pull', '--latest', '4'], home, storeEnv('desk-d'))));
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    expect(await catalogRows(a)).toEqual(await catalogRows(b));
    for (const file of await dataFiles(a)) expect(sha256((await objectBytes(`desk-d/${TeamStore.fileKey(file.sha256)}`))!)).toBe(file.sha256);
    const listed = await listKeys('desk-d/');
    // No temporary object is left; one object per file and manifest.
    expect(listed.filter((key) => key.includes('/tmp/'))).toEqual([]);
    expect(listed.filter((key) => key.includes('/releases/'))).toHaveLength(4);
  }, 120_000);

  it('verify --repair checks every file of the home in the store and replaces the bad and missing ones', async () => {
    const home = await newHome();
    expect((await rdw(['pull', '--latest', '2'], home, storeEnv('desk-f'))).code).toBe(0);
    const [flipped, other] = await dataFiles(home);
    const dataKey = `desk-f/${TeamStore.fileKey(flipped!.sha256)}`;
    const bad = (await objectBytes(dataKey))!;
    bad[10]! ^= 0x80;
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: dataKey, Body: bad }));
    const manifestKey = `desk-f/${TeamStore.manifestKey(other!.releaseId)}`;
    const manifest = (await objectBytes(manifestKey))!;
    await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: manifestKey }));

    const before = mock.requestLog.length;
    const run = await rdw(['verify', '--repair'], home, storeEnv('desk-f'));
    expect(run.code, run.stderr).toBe(0);
    const replaced = run.stderr.split('\n').filter((line) => line.includes('replaced with this home'));
    expect(replaced).toHaveLength(3);
    // 2 releases: 2 manifests, 2 data files, 1 schema shared
    expect(run.stderr).toContain(storeMessages.storeChecked(`s3://${BUCKET}/desk-f`, 5, 2));
    expect(sha256((await objectBytes(dataKey))!)).toBe(flipped!.sha256);
    expect(sha256((await objectBytes(manifestKey))!)).toBe(sha256(manifest));
    // the home was whole: nothing came from the API
    expect(mock.requestLog.length).toBe(before);

    const again = await rdw(['verify', '--repair'], home, storeEnv('desk-f'));
    expect(again.stderr).toContain(storeMessages.storeChecked(`s3://${BUCKET}/desk-f`, 5, 0));
  }, 120_000);

  it('a notebook workbench (openWorkbench) pulls through the store of RDW_STORE_URL as the CLI does', async () => {
    const first = await newHome();
    expect((await rdw(['pull', '--latest', '3'], first, storeEnv('desk-h'))).code).toBe(0);
    const workbench = await openWorkbench({ env: storeEnv('desk-h'), home: await newHome() });
    try {
      const ids = (await workbench.client.releases({ limit: 3 })).map((release) => release.id);
      const before = mock.requestLog.length;
      const result = await pullReleases(workbench.catalog, workbench.client, ids);
      expect(result.failed).toEqual([]);
      expect(result.pulled.map((pulled) => pulled.status)).toEqual(['imported', 'imported', 'imported']);
      expect(downloadsSince(before)).toEqual([]);
      // 3 manifests and 3 data files at least (the shared schema once per release in flight), nothing refused or written
      expect(workbench.catalog.store.team?.counts).toMatchObject({ refused: 0, published: 0, repaired: 0 });
      expect(workbench.catalog.store.team!.counts.verified).toBeGreaterThanOrEqual(7);
    } finally {
      await workbench.close();
    }
  }, 120_000);

  it('rdw pull by ID with no listing takes the manifest from the API (the store is not vouched for) and the files from the store', async () => {
    const first = await newHome();
    expect((await rdw(['pull', '--latest', '2'], first, storeEnv('desk-i'))).code).toBe(0);
    const ids = (await dataFiles(first)).map((file) => file.releaseId);
    const second = await newHome();
    const before = mock.requestLog.length;
    const run = await rdw(['pull', ...ids], second, storeEnv('desk-i'));
    expect(run.code, run.stderr).toBe(0);
    expect(downloadsSince(before).map((entry) => entry.path.split('/').pop())).toEqual(['manifest', 'manifest']);
    expect(await catalogRows(second)).toEqual(await catalogRows(first));
  }, 120_000);

  it('rdw reproduce of a study lock in a second home takes the manifests the lock pins from the store: 0 /download', async () => {
    const first = await newHome();
    expect((await rdw(['pull', '--latest', '2'], first, storeEnv('desk-j'))).code).toBe(0);
    const ids = (await dataFiles(first)).map((file) => file.releaseId);
    const lockFile = path.join(first, 'study.lock.json');
    const locked = await rdw(['lock', lockFile, ...ids], first, storeEnv('desk-j'));
    expect(locked.code, locked.stderr).toBe(0);
    const second = await newHome();
    const before = mock.requestLog.length;
    const run = await rdw(['reproduce', lockFile], second, storeEnv('desk-j'));
    expect(run.code, run.stderr).toBe(0);
    expect(downloadsSince(before)).toEqual([]);
    expect(await catalogRows(second)).toEqual(await catalogRows(first));
  }, 120_000);

  it('rdw doctor checks the store with one signed listing: ok with its manifests, a wrong secret fails (exit 1) unprinted', async () => {
    const home = await newHome();
    expect((await rdw(['pull', '--latest', '2'], home, storeEnv('desk-doctor'))).code).toBe(0);
    type Report = { exitCode: number; checks: { name: string; status: string; message: string; exitCode?: number; facts?: { manifests?: number } }[] };
    const store = (report: Report) => report.checks.find((check) => check.name === 'store');
    const ok = await rdw(['doctor', '--json'], home, storeEnv('desk-doctor'));
    expect(store(JSON.parse(ok.stdout) as Report)).toMatchObject({ status: 'ok', facts: { manifests: 2 } });
    const secret = 'not-the-secret-of-this-user';
    const refused = await rdw(['doctor', '--json'], home, storeEnv('desk-doctor', { AWS_SECRET_ACCESS_KEY: secret }));
    const report = JSON.parse(refused.stdout) as Report;
    expect(store(report)).toMatchObject({ status: 'fail', exitCode: 1 });
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).not.toContain(secret);
    // Without RDW_STORE_URL there is no store line.
    const { RDW_STORE_URL: _unset, ...without } = storeEnv('desk-doctor');
    expect(store(JSON.parse((await rdw(['doctor', '--json'], home, without)).stdout) as Report)).toBeUndefined();
  }, 120_000);

  it('rdw sync of a second home goes through the store too: 0 requests to /download', async () => {
    const first = await newHome();
    const synced = await rdw(['sync'], first, storeEnv('desk-g'));
    expect(synced.code, synced.stderr).toBe(0);
    const second = await newHome();
    const before = mock.requestLog.length;
    const again = await rdw(['sync'], second, storeEnv('desk-g'));
    expect(again.code, again.stderr).toBe(0);
    expect(downloadsSince(before)).toEqual([]);
    expect(await catalogRows(second)).toEqual(await catalogRows(first));
  }, 120_000);

  async function listKeys(prefix: string): Promise<string[]> {
    const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
    const page = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    return (page.Contents ?? []).map((item) => item.Key!);
  }

  it('refuses a malformed RDW_STORE_URL with exit 2 and one sentence, creating nothing', async () => {
    const home = path.join(await newHome(), 'not-made');
    for (const url of ['http://bucket/x', 's3://', 's3://Bad_Bucket/x', 's3://key:secret@bucket/x', 's3://bucket/a/../b']) {
      const run = await rdw(['pull', '--latest', '1', '--json'], home, { ...storeEnv('x'), RDW_STORE_URL: url });
      expect(run.code).toBe(2);
      expect(JSON.parse(run.stderr.trim().split('\n').pop()!)).toMatchObject({ error: { code: 'RDW_STORE_URL', exitCode: 2 } });
      await expect(readdir(home)).rejects.toMatchObject({ code: 'ENOENT' });
    }
  }, 60_000);

  it('a store that is down is said once and the pull is served by the API', async () => {
    const home = await newHome();
    const run = await rdw(['pull', '--latest', '2'], home, storeEnv('desk-e', { AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9' }));
    expect(run.code, run.stderr).toBe(0);
    const notices = run.stderr.split('\n').filter((line) => line.includes('could not be reached'));
    expect(notices).toHaveLength(1);
    expect((await catalogRows(home)).releases.split(',')).toHaveLength(2);
  }, 120_000);

  it('never prints or writes the store credentials or the API key', async () => {
    expect(printed).not.toContain(server.secretAccessKey);
    expect(printed).not.toContain(server.accessKeyId);
    expect(printed).not.toContain(mock.keys.desk);
    // Nor does any file of any home (catalog, client state, store) or any object of the store.
    const texts = [...(await objectBytesUnder(''))];
    for (const { home } of homes) texts.push(...(await filesUnder(home).catch(() => [])));
    expect(texts.length).toBeGreaterThan(10);
    for (const text of texts) {
      expect(text).not.toContain(server.accessKeyId);
      expect(text).not.toContain(mock.keys.desk);
      expect(text).not.toContain(server.secretAccessKey);
    }
  }, 60_000);

  async function objectBytesUnder(prefix: string): Promise<string[]> {
    const texts: string[] = [];
    for (const key of await listKeys(prefix)) texts.push((await objectBytes(key))!.toString('latin1'));
    return texts;
  }
});

/** Every file under `dir`, as latin1 text (for a search for secrets). */
export async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) found.push(await readFile(path.join(entry.parentPath, entry.name), 'latin1'));
  }
  return found;
}
