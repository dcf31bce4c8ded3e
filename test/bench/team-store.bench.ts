// Benchmark: a Research Desk sharing one team store (issue 32 item 6). The embedded mock (a desk account: 5 keys,
// the spec's 300 requests per minute and 5 GiB per day, account-wide), a real S3 server (radosgw) and 5 researcher
// processes (`rdw pull --latest N`, the built CLI) with 5 keys, 5 RDW_HOMEs and one RDW_STORE_URL: the first puller
// alone (the store is empty), then the 4 late pullers at once. Reports the desk's API requests and bytes (from the
// mock's request log, per phase), the wall time and peak RSS of each puller, and checks that every home holds the
// same releases with the same rows fingerprints.
// Run: node --import tsx test/bench/team-store.bench.ts [--releases 100] [--no-store]   (needs dist/ and radosgw)
// (--no-store: the same researchers without RDW_STORE_URL, each pulling from the API: the figures to compare with.)
// Without radosgw it fails under CI=true and otherwise reports itself skipped.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { importedReleaseIds, openCatalog, readReleaseRecords } from '../../src/catalog/index.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { hasS3Server, missingS3ServerMessage, startS3Server, type S3Server } from '../support/s3-server.js';
import { createTempHome } from '../support/temp-home.js';
import { formatTable } from './support/format-table.js';
import { lastJsonLine } from './support/last-json-line.js';
import { runChild, type ChildRun } from './support/run-child.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
const BUCKET = 'rdw-team';
const STORE_URL = `s3://${BUCKET}/desk`;
const RESEARCHERS = 5;
/** The spec's Research Desk plan: requests per minute, account-wide (the mock's default). */
const DESK_RPM = 300;
const MiB = 2 ** 20;

/** The desk's API traffic in one phase, from the mock's request log. */
interface Traffic {
  requests: number;
  /** Requests to `/download/…` (manifests, schemas, data files). */
  downloads: number;
  /** Requests to `/download/…/parquet` (and csv/json): the data files. */
  dataFiles: number;
  listings: number;
  /** Body bytes the mock sent (every answer, data files included). */
  bytes: number;
  /** Answers with status 429 (the account's rate limit). */
  limited: number;
}

interface PullerRun {
  researcher: number;
  seconds: number;
  peakRssMiB: number;
  exitCode: number | null;
  imported: number;
  present: number;
  /** Releases it could not pull (only with --no-store, where the desk's rate limit can outlast the retries). */
  failed: number;
}

/**
 * The least seconds the desk's sliding window (DESK_RPM requests in any 60 s) allows for `requests`: request k
 * (from 0) no earlier than ⌊k / rpm⌋ minutes after the first (docs/benchmarks.md, the client bench).
 */
function windowFloorSeconds(requests: number): number {
  return requests === 0 ? 0 : Math.floor((requests - 1) / DESK_RPM) * 60;
}

function trafficOf(mock: MockServer, account: string, from: number, to: number): Traffic {
  const traffic: Traffic = { requests: 0, downloads: 0, dataFiles: 0, listings: 0, bytes: 0, limited: 0 };
  for (const entry of mock.requestLog.slice(from, to)) {
    if (entry.account !== account) continue;
    traffic.requests += 1;
    traffic.bytes += entry.bytes;
    if (entry.status === 429) traffic.limited += 1;
    const route = entry.path.split('?')[0]!;
    if (/\/download\//.test(route)) traffic.downloads += 1;
    if (/\/download\/[^/]+\/(parquet|csv|json)$/.test(route)) traffic.dataFiles += 1;
    if (/\/releases$/.test(route)) traffic.listings += 1;
  }
  return traffic;
}

/**
 * One researcher's `rdw pull --latest N --json`. A pull that ends with releases not pulled (exit 5 when the desk's
 * rate limit outlasts the client's retries) is kept with its counts when `mayFail` (the --no-store comparison).
 */
async function pull(researcher: number, env: NodeJS.ProcessEnv, releases: number, mayFail: boolean): Promise<PullerRun> {
  const run: ChildRun = await runChild(process.execPath, [CLI, 'pull', '--latest', String(releases), '--json'], {
    cwd: ROOT,
    env,
    timeoutSeconds: 900,
    echoStderr: false,
  });
  const json = lastJsonLine(run.stdout) as { pulled?: { status?: string }[]; failed?: unknown[] } | undefined;
  if (json === undefined || (run.code !== 0 && !mayFail)) {
    throw new Error(`researcher ${researcher}: rdw pull exited ${run.code ?? run.signal}: ${run.stderr.slice(-1500)}`);
  }
  const pulled = json.pulled ?? [];
  return {
    researcher,
    seconds: run.seconds,
    peakRssMiB: run.peakTreeRssMiB,
    exitCode: run.code,
    imported: pulled.filter((item) => item.status === 'imported').length,
    present: pulled.filter((item) => item.status === 'present').length,
    failed: json.failed?.length ?? 0,
  };
}

/** Every home's releases by ID with manifest checksum and rows fingerprint, as one comparable text. */
async function homeDigest(home: string): Promise<{ releases: number; rows: number; digest: string }> {
  const catalog = await openCatalog(home, { readOnly: true });
  try {
    const ids = [...(await importedReleaseIds(catalog))].sort();
    const records = await readReleaseRecords(catalog, ids);
    const lines = ids.map((id) => {
      const record = records.get(id)!;
      return `${id} ${record.manifestSha256} ${record.rows} ${record.rowsFingerprint}`;
    });
    const rows = [...records.values()].reduce((sum, record) => sum + Number(record.rows), 0);
    return { releases: ids.length, rows, digest: lines.join('\n') };
  } finally {
    await catalog.close();
  }
}

async function main(): Promise<void> {
  // --no-store: the same 5 researchers without RDW_STORE_URL (each pulls from the API), the figures to compare with.
  const { values } = parseArgs({ options: { releases: { type: 'string', default: '100' }, 'no-store': { type: 'boolean', default: false } } });
  const shared = !values['no-store'];
  const releases = Number(values.releases);
  if (!Number.isSafeInteger(releases) || releases < 1) throw new Error(`--releases must be a whole number >= 1, not ${values.releases}`);
  if (!(await hasS3Server())) {
    if (process.env.CI === 'true') throw new Error(missingS3ServerMessage());
    console.log(JSON.stringify({ benchmark: 'team-store', skipped: missingS3ServerMessage() }));
    return;
  }
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js missing: run npm run build first');

  let server: S3Server | undefined;
  let mock: MockServer | undefined;
  const homes: Awaited<ReturnType<typeof createTempHome>>[] = [];
  try {
    // 1. The S3 server and the team's bucket.
    const s3Started = performance.now();
    server = await startS3Server();
    const s3StartSeconds = (performance.now() - s3Started) / 1000;
    const admin = new S3Client({
      endpoint: server.endpoint,
      region: server.region,
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    });
    await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
    admin.destroy();

    // 2. The mock with the spec's desk limits, and one desk account with its 5 keys. (The seeded desk account's
    //    keys desk-2..5 exist but only desk-1's secret is handed out, so the bench makes its own desk account.)
    mock = await startMockServer({ port: 0, days: Math.max(releases, 30), limits: { requestLogSize: 1_000_000 } });
    const account = mock.admin.createAccount('desk');
    const keys = Array.from({ length: RESEARCHERS }, (_, index) => mock!.admin.createKey(account, `desk-${index + 1}`));
    for (let index = 0; index < RESEARCHERS; index += 1) homes.push(await createTempHome(`rdw-bench-desk-${index + 1}-`));
    const envOf = (index: number): NodeJS.ProcessEnv => ({
      ...process.env,
      ...server!.env,
      RDW_HOME: homes[index]!.home,
      RDW_BASE_URL: mock!.baseUrl,
      RDW_API_KEY: keys[index]!,
      RDW_STORE_URL: shared ? STORE_URL : undefined,
      FORCE_COLOR: '0',
    });

    // 3. The first researcher alone: the store is empty, everything comes from the API at the desk's pace.
    const firstFrom = mock.requestLog.length;
    const first = await pull(1, envOf(0), releases, !shared);
    const firstTraffic = trafficOf(mock, account, firstFrom, mock.requestLog.length);
    console.error(`first puller: ${first.seconds.toFixed(1)} s, ${firstTraffic.requests} API requests, ${(firstTraffic.bytes / MiB).toFixed(1)} MiB`);

    // 4. The 4 late researchers at once: they find the releases in the team store.
    const lateFrom = mock.requestLog.length;
    const lateStarted = performance.now();
    const late = await Promise.all(Array.from({ length: RESEARCHERS - 1 }, (_, index) => pull(index + 2, envOf(index + 1), releases, !shared)));
    const lateWallSeconds = (performance.now() - lateStarted) / 1000;
    const lateTraffic = trafficOf(mock, account, lateFrom, mock.requestLog.length);
    console.error(`late pullers: ${lateWallSeconds.toFixed(1)} s together, ${lateTraffic.requests} API requests, ${(lateTraffic.bytes / MiB).toFixed(1)} MiB`);

    // 5. Every home holds the same releases with the same rows (with --no-store: every home whose pull was whole).
    const runs = [first, ...late];
    const digests = await Promise.all(homes.filter((_, index) => runs[index]!.failed === 0).map((home) => homeDigest(home.home)));
    const same = digests.length > 0 && digests.every((digest) => digest.digest === digests[0]!.digest);
    if (!same || digests[0]!.releases !== releases) {
      throw new Error(`homes differ: ${digests.map((digest, index) => `researcher ${index + 1}: ${digest.releases} releases, ${digest.rows} rows`).join('; ')}`);
    }

    const desk = {
      requests: firstTraffic.requests + lateTraffic.requests,
      bytes: firstTraffic.bytes + lateTraffic.bytes,
      dataFiles: firstTraffic.dataFiles + lateTraffic.dataFiles,
      limited: firstTraffic.limited + lateTraffic.limited,
    };
    const result = {
      benchmark: 'team-store',
      store: shared ? 'team store on radosgw' : 'none (--no-store)',
      releases,
      researchers: RESEARCHERS,
      rows: digests[0]!.rows,
      s3StartSeconds: Number(s3StartSeconds.toFixed(2)),
      deskRequests: desk.requests,
      deskRequestsPerRelease: Number((desk.requests / releases).toFixed(2)),
      deskDataFileRequests: desk.dataFiles,
      deskRateLimited: desk.limited,
      /** Releases the researchers could not pull, all told (0 with the store). */
      releasesNotPulled: runs.reduce((sum, run) => sum + run.failed, 0),
      deskApiMiB: Number((desk.bytes / MiB).toFixed(2)),
      /** The desk's API bytes over one researcher's (the first puller's): 1 shared, 5 without the store. */
      deskBytesRatio: Number((desk.bytes / firstTraffic.bytes).toFixed(3)),
      first: { ...first, seconds: Number(first.seconds.toFixed(2)), traffic: firstTraffic },
      late: late.map((run) => ({ ...run, seconds: Number(run.seconds.toFixed(2)) })),
      lateTraffic,
      lateWallSeconds: Number(lateWallSeconds.toFixed(2)),
      lateMaxSeconds: Number(Math.max(...late.map((run) => run.seconds)).toFixed(2)),
      peakRssMiB: Math.max(first.peakRssMiB, ...late.map((run) => run.peakRssMiB)),
      /** The least time the desk's window allows for the first puller's requests, and for the late pullers'. */
      firstApiFloorSeconds: windowFloorSeconds(firstTraffic.requests),
      lateApiFloorSeconds: windowFloorSeconds(lateTraffic.requests),
    };
    console.log(
      formatTable(
        ['researcher', 'seconds', 'peak RSS MiB', 'imported', 'present', 'not pulled'],
        runs.map((run) => [run.researcher, run.seconds.toFixed(1), run.peakRssMiB, run.imported, run.present, run.failed]),
      ),
    );
    console.log(
      `desk: ${desk.requests} API requests for ${releases} releases (${result.deskRequestsPerRelease} per release), ` +
        `${result.deskApiMiB} MiB (${result.deskBytesRatio}x one researcher's); late pullers ${lateTraffic.requests} requests, ` +
        `${lateTraffic.dataFiles} data files`,
    );
    console.log(JSON.stringify(result));
  } finally {
    await mock?.close();
    for (const home of homes) await home.remove();
    await server?.stop();
  }
}

await main();
