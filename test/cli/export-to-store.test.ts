// `rdw export s3://bucket/prefix` against a real S3 server (radosgw, test/support/s3-server.ts): the local export's
// Hive layout under the prefix, one object per day partition and `_SUCCESS` last, whose rows DuckDB reads back equal
// to a local export's and the catalog's; bad targets refused with the local export's exit codes; no credential in
// any output. Under CI=true a missing radosgw fails the suite (it never skips there).

import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CreateBucketCommand,
  DeleteBucketPolicyCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutBucketPolicyCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { MARKET_EVENT_FIELDS } from '../../src/contract/index.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { hasS3Server, missingS3ServerMessage, startS3Server, type S3Server } from '../support/s3-server.js';
import { runBuiltCli } from '../support/run-built-cli.js';
import { createTempHome } from '../support/temp-home.js';

const installed = await hasS3Server();
const required = process.env.CI === 'true';
const BUCKET = 'rdw-export';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

it('finds radosgw, or is allowed to go without it outside CI', () => {
  if (!installed && required) throw new Error(missingS3ServerMessage());
  expect(required && !installed).toBe(false);
});

describe.runIf(installed)('rdw export s3://bucket/prefix', () => {
  let server: S3Server;
  let admin: S3Client;
  let mock: MockServer;
  let home: Awaited<ReturnType<typeof createTempHome>>;
  const runs: Run[] = [];

  /** `rdw <argv> --home HOME` in-process, with the S3 server's endpoint and credentials unless `env` replaces them. */
  async function rdw(argv: string[], env: Record<string, string | undefined> = {}, where = home.home): Promise<Run> {
    let stdout = '';
    let stderr = '';
    const code = await runCli([...argv, '--home', where], {
      env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk, ...server.env, ...env },
      stdout: { write: (text) => void (stdout += text), isTTY: false },
      stderr: { write: (text) => void (stderr += text), isTTY: false },
      cwd: home.home,
    });
    const run = { code, stdout, stderr };
    runs.push(run);
    return run;
  }

  const keysUnder = async (prefix: string): Promise<string[]> => {
    const page = await admin.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    return (page.Contents ?? []).map((item) => item.Key!).sort();
  };

  /** Count, hash of every value and distinct days of a relation, as catalog-commands.test.ts digests an export. */
  async function digest(from: string): Promise<Record<string, unknown>> {
    const columns = ['release_id', ...MARKET_EVENT_FIELDS.map((field) => `"${field.name}"`)].join(', ');
    const db = await DuckDBInstance.create(path.join(home.home, 'catalog.duckdb'), { access_mode: 'READ_ONLY' });
    const connection = await db.connect();
    try {
      const sql = `SELECT count(*)::INTEGER AS n, sum(hash(${columns}, strftime(day::DATE, '%Y-%m-%d')))::VARCHAR AS h, count(DISTINCT day)::INTEGER AS days FROM ${from}`;
      return (await connection.runAndReadAll(sql)).getRowObjectsJson()[0]!;
    } finally {
      connection.closeSync();
      db.closeSync();
    }
  }

  beforeAll(async () => {
    server = await startS3Server();
    admin = new S3Client({
      endpoint: server.endpoint,
      region: server.region,
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    });
    await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
    mock = await startMockServer({ days: 5 });
    home = await createTempHome('rdw-export-s3-');
    const pulled = await rdw(['pull', '--latest', '4']);
    expect(pulled.code).toBe(0);
  }, 300_000);

  afterAll(async () => {
    admin?.destroy();
    await mock?.close();
    await home?.remove();
    await server?.stop();
  }, 120_000);

  it('writes the local export layout, one object per day and _SUCCESS, that DuckDB reads as the local export', async () => {
    const run = await rdw(['export', `s3://${BUCKET}/desk/market-events`, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { url: string; rows: number; partitions: string[]; objects: number; bytes: number };
    expect(result.url).toBe(`s3://${BUCKET}/desk/market-events`);
    expect(result.partitions).toHaveLength(4);
    const local = await rdw(['export', 'local', '--json']);
    expect(local.code).toBe(0);
    const localResult = JSON.parse(local.stdout) as { dir: string; rows: number; partitions: string[] };
    expect(result.rows).toBe(localResult.rows);
    expect(result.partitions).toEqual(localResult.partitions);

    // 1. The keys: the local export's files (one per partition) under the prefix, and the marker.
    const localFiles: string[] = [];
    for (const partition of localResult.partitions) {
      for (const name of await readdir(path.join(localResult.dir, partition))) localFiles.push(`${partition}/${name}`);
    }
    expect(localFiles).toHaveLength(4);
    const keys = await keysUnder('desk/market-events/');
    expect(keys).toEqual([...localFiles.map((file) => `desk/market-events/${file}`), 'desk/market-events/_SUCCESS'].sort());
    expect(result.objects).toBe(5);

    // 2. The objects downloaded as they are, read by DuckDB with hive partitioning: the rows of the local export and of the catalog.
    const downloaded = path.join(home.home, 'downloaded');
    let bytes = 0;
    for (const key of keys.filter((name) => name.endsWith('.parquet'))) {
      const object = await admin.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
      const body = await object.Body!.transformToByteArray();
      bytes += body.length;
      const file = path.join(downloaded, key.slice('desk/market-events/'.length));
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, body);
    }
    expect(bytes).toBe(result.bytes);
    const fromStore = await digest(`read_parquet('${downloaded}/*/*.parquet', hive_partitioning = true)`);
    expect(fromStore).toEqual(await digest(`read_parquet('${localResult.dir}/*/*.parquet', hive_partitioning = true)`));
    expect(fromStore).toEqual(await digest('market_events'));
    expect(fromStore.n).toBe(result.rows);
  }, 120_000);

  it('exports only the newest revision of each day with --current, as the local export does', async () => {
    const run = await rdw(['export', `s3://${BUCKET}/current`, '--current', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const local = JSON.parse((await rdw(['export', 'local-current', '--current', '--json'])).stdout) as { rows: number; partitions: string[] };
    const result = JSON.parse(run.stdout) as { rows: number; partitions: string[] };
    expect(result.rows).toBe(local.rows);
    expect((await keysUnder('current/')).filter((key) => key.endsWith('.parquet'))).toHaveLength(local.partitions.length);
  }, 120_000);

  it('refuses a prefix that holds objects (exit 2, as a non-empty folder) and writes nothing there', async () => {
    await admin.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'occupied/notes.txt', Body: 'not an export' }));
    for (const prefix of ['occupied', 'desk/market-events']) {
      const before = await keysUnder(`${prefix}/`);
      const run = await rdw(['export', `s3://${BUCKET}/${prefix}`, '--json']);
      expect(run.code).toBe(2);
      const error = JSON.parse(run.stderr.trim().split('\n').pop()!) as { error: { code: string; message: string } };
      expect(error.error.code).toBe('RDW_CATALOG_OPTION');
      expect(error.error.message).toContain(`s3://${BUCKET}/${prefix}`);
      expect(await keysUnder(`${prefix}/`)).toEqual(before);
    }
  }, 120_000);

  it('refuses a malformed location with exit 2 before it opens the catalog or reaches the store', async () => {
    const empty = await createTempHome('rdw-export-s3-empty-');
    try {
      for (const target of ['s3://Bad_Bucket/x', 's3://', 's3://user:secret@bucket/x', 's3://bucket/a/../b']) {
        const run = await rdw(['export', target, '--json'], {}, empty.home);
        expect(run.code, target).toBe(2);
        const error = JSON.parse(run.stderr.trim().split('\n').pop()!) as { error: { code: string; message: string } };
        expect(error.error.code, target).toBe('RDW_STORE_URL');
        expect(error.error.message, target).toMatch(/^The export location /);
        expect(error.error.message, target).not.toContain('secret');
      }
      expect(await readdir(empty.home)).toEqual([]);
    } finally {
      await empty.remove();
    }
  });

  it('says a missing bucket, a wrong secret and an unreachable server in one sentence each (exit 1), naming no credential', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['s3://rdw-no-such-bucket/x', {}, 'RDW_STORE_REFUSED'],
      [`s3://${BUCKET}/wrong-secret`, { AWS_SECRET_ACCESS_KEY: 'not-the-secret-0123456789' }, 'RDW_STORE_REFUSED'],
      [`s3://${BUCKET}/unreachable`, { AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9' }, 'RDW_STORE_UNAVAILABLE'],
    ];
    for (const [target, env, code] of cases) {
      const run = await rdw(['export', target, '--json'], env);
      expect(run.code, target).toBe(1);
      const lines = run.stderr.trim().split('\n');
      const error = JSON.parse(lines.pop()!) as { error: { code: string; message: string } };
      expect(error.error.code, target).toBe(code);
      expect(error.error.message, target).toContain(target);
      const plain = await rdw(['export', target], env);
      expect(plain.stderr.trim().split('\n'), target).toHaveLength(1);
    }
    expect(await keysUnder('wrong-secret/')).toEqual([]);
  }, 120_000);

  it('removes the partitions it wrote when the store refuses one mid-export, so the same export runs again', async () => {
    // A bucket policy that refuses the PUT of one day's object (radosgw applies an explicit Deny to the owner too).
    const partitions = (JSON.parse((await rdw(['export', 'policy-days', '--json'])).stdout) as { partitions: string[] }).partitions;
    const refusedDay = partitions[2]!;
    const policy = {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Deny', Principal: '*', Action: 's3:PutObject', Resource: `arn:aws:s3:::${BUCKET}/half/${refusedDay}/*` }],
    };
    await admin.send(new PutBucketPolicyCommand({ Bucket: BUCKET, Policy: JSON.stringify(policy) }));
    try {
      const run = await rdw(['export', `s3://${BUCKET}/half`, '--json']);
      expect(run.code, run.stderr).toBe(1);
      const error = JSON.parse(run.stderr.trim().split('\n').pop()!) as { error: { code: string; message: string } };
      expect(error.error.code).toBe('RDW_STORE_REFUSED');
      expect(error.error.message).toContain(`s3://${BUCKET}/half`);
      expect(await keysUnder('half/')).toEqual([]);
    } finally {
      await admin.send(new DeleteBucketPolicyCommand({ Bucket: BUCKET }));
    }
    const again = await rdw(['export', `s3://${BUCKET}/half`, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(await keysUnder('half/')).toHaveLength(partitions.length + 1);
  }, 120_000);

  it('the built CLI under --json: nothing on stderr on success, one JSON object on failure (no SDK warning)', async () => {
    const env = { ...server.env, RDW_HOME: home.home };
    const ok = await runBuiltCli(['export', `s3://${BUCKET}/built`, '--json'], { env, timeoutMs: 120_000 });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toBe('');
    const refused = await runBuiltCli(['export', `s3://${BUCKET}/built`, '--json'], { env, timeoutMs: 120_000 });
    expect(refused.code).toBe(2);
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ error: { code: 'RDW_CATALOG_OPTION', exitCode: 2 } });
    // No credentials anywhere in the SDK's chain (no variables, an empty HOME, no instance metadata): one sentence.
    const bare = await createTempHome('rdw-export-s3-bare-');
    try {
      const noCredentials = await runBuiltCli(['export', `s3://${BUCKET}/no-credentials`, '--json'], {
        env: { RDW_HOME: home.home, HOME: bare.home, AWS_ENDPOINT_URL_S3: server.endpoint, AWS_REGION: server.region, AWS_EC2_METADATA_DISABLED: 'true' },
        timeoutMs: 120_000,
      });
      expect(noCredentials.code, noCredentials.stderr).toBe(1);
      const [line, ...more] = noCredentials.stderr.trim().split('\n');
      expect(more).toEqual([]);
      expect(JSON.parse(line!)).toMatchObject({ error: { code: 'RDW_STORE_REFUSED', message: expect.stringMatching(/^No AWS credentials were found/) } });
    } finally {
      await bare.remove();
    }
    runs.push({ code: ok.code ?? -1, stdout: ok.stdout, stderr: ok.stderr }, { code: refused.code ?? -1, stdout: refused.stdout, stderr: refused.stderr });
  }, 120_000);

  it('never prints a credential', () => {
    expect(runs.length).toBeGreaterThan(10);
    for (const run of runs) {
      for (const secret of [server.secretAccessKey, server.accessKeyId, 'not-the-secret-0123456789']) {
        expect(run.stdout).not.toContain(secret);
        expect(run.stderr).not.toContain(secret);
      }
    }
  });
});
