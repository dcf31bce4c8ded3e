// Benchmark: pacing efficiency and requests per pulled release. A pull of N releases by ID (manifest +
// parquet each, 4 in flight, as `rdw pull`) at each plan rpm, with the mock's rate clock and the client's
// clock on one fake time: fake time taken ÷ the least time the plan's sliding window allows for the
// minimum requests (issue 17: ≤ 1.05), 429s (0), requests per release, and row paging for one release.
// Run: node --import tsx test/bench/client.bench.ts [--releases 300] [--rpm 60,300] [--share 1]

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startMockServer } from '../../src/mock/index.js';
import { createClient } from '../../src/client/index.js';
import { fakeClock } from '../support/fake-clock.js';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';

/** Downloads in flight, as pullReleases' default. */
const CONCURRENCY = 4;

interface PacingResult {
  rpm: number;
  releases: number;
  requests: number;
  /** The fewest requests such a pull can make: manifest + parquet per release, and one /catalog for the limits. */
  minimumRequests: number;
  requestsPerRelease: number;
  status429: number;
  /** Fake seconds from the first request to the last response. */
  fakeSeconds: number;
  /** The least time a sliding 60 s window of `rpm` allows for `minimumRequests`: request k no earlier than floor(k / rpm) minutes. */
  planSeconds: number;
  /** fakeSeconds ÷ planSeconds (goal ≤ 1.05). */
  ratio: number;
  /** 'pace_wait' notices the client gave (each wait of 1 s or more is said once). */
  pacingNotices: number;
  wallSeconds: number;
  /** Row paging of the first release at the largest page size: requests made and the fewest possible. */
  pagedRows: number;
  rowRequests: number;
  minimumRowRequests: number;
}

type LogEntry = { status?: number; statusCode?: number };

type Mock = Awaited<ReturnType<typeof startMockServer>>;
type FakeClock = ReturnType<typeof fakeClock>;

/** The seeded plans paced in turn: each its own account, so one mock (one archive) serves every rpm. */
const PLAN_KEYS = ['researcher', 'desk'] as const;

/** A pull of `releases` releases by ID with `key` (an account at `rpm`): its own home, the mock's fake clock. */
async function pacedPull(mock: Mock, clock: FakeClock, key: string, releases: number, rpm: number, share: number): Promise<PacingResult> {
  const home = await makeTemporaryFolder('rdw-client-bench-');
  let pacingNotices = 0;
  const client = createClient({
    baseUrl: mock.baseUrl,
    apiKey: key,
    clock,
    home,
    rateShare: share,
    onNotice: (notice) => {
      if (notice.kind === 'pace_wait') pacingNotices += 1;
    },
  });
  const log = () => mock.requestLog as unknown as LogEntry[];
  try {
    // The IDs as a caller holds them (`/releases` lists at most 100): pulled by ID.
    const ids = mock.archive.currentReleases(releases).map((release) => release.id);
    const before = log().length;
    const wallStart = performance.now();
    const fakeStart = clock.now();
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        await client.manifest(id);
        await client.download(id, 'parquet', join(home, 'files', `${id}.parquet`));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const fakeSeconds = (clock.now() - fakeStart) / 1000;
    const wallSeconds = (performance.now() - wallStart) / 1000;
    const entries = log().slice(before);
    const minimumRequests = 2 * ids.length + 1;
    const planSeconds = Math.floor((minimumRequests - 1) / rpm) * 60;
    // Row paging of one release at the largest page size (after the pull: not timed).
    const pagingStart = log().length;
    let pagedRows = 0;
    for await (const page of client.rows(ids[0]!)) pagedRows += page.length;
    return {
      rpm,
      releases: ids.length,
      requests: entries.length,
      minimumRequests,
      requestsPerRelease: entries.length / ids.length,
      status429: entries.filter((entry) => (entry.status ?? entry.statusCode) === 429).length,
      fakeSeconds,
      planSeconds,
      ratio: planSeconds === 0 ? 1 : fakeSeconds / planSeconds,
      pacingNotices,
      wallSeconds,
      pagedRows,
      rowRequests: log().length - pagingStart,
      minimumRowRequests: Math.max(1, Math.ceil(pagedRows / 500)),
    };
  } finally {
    await client.close();
    await removeTree(home);
  }
}

/** Pulls at each rpm in turn (at most two: one per seeded paid plan); `share` is ClientOptions.rateShare (1 now; 0.9 before issue 17). */
export async function runClientBench(releases = 300, rpms: readonly number[] = [60, 300], share = 1): Promise<PacingResult[]> {
  if (rpms.length > PLAN_KEYS.length) throw new Error(`at most ${PLAN_KEYS.length} rpm values`);
  const clock = fakeClock();
  const limits = Object.fromEntries(rpms.map((rpm, i) => [PLAN_KEYS[i]!, { rpm, daily_bytes: 64 * 1024 ** 3 }]));
  const mock = await startMockServer({ port: 0, days: releases + 2, limits, rateClock: () => clock.now() });
  const results: PacingResult[] = [];
  try {
    for (const [i, rpm] of rpms.entries()) {
      const result = await pacedPull(mock, clock, mock.keys[PLAN_KEYS[i]!], releases, rpm, share);
      console.error(`done: ${JSON.stringify(result)}`);
      results.push(result);
    }
  } finally {
    await mock.close();
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { releases: { type: 'string' }, rpm: { type: 'string' }, share: { type: 'string' } } });
  const releases = Number(values.releases ?? 300);
  const rpms = (values.rpm ?? '60,300').split(',').map(Number);
  const share = Number(values.share ?? 1);
  const results = await runClientBench(releases, rpms, share);
  console.table(
    Object.fromEntries(
      results.map((r) => [
        `${r.rpm} rpm`,
        {
          releases: r.releases,
          'requests (min)': `${r.requests} (${r.minimumRequests})`,
          'req/release': Number(r.requestsPerRelease.toFixed(3)),
          '429s': r.status429,
          'fake s': Number(r.fakeSeconds.toFixed(1)),
          'plan s': r.planSeconds,
          'ratio (goal <= 1.05)': Number(r.ratio.toFixed(3)),
          'pace notices': r.pacingNotices,
          'wall s': Number(r.wallSeconds.toFixed(1)),
          'row requests (min)': `${r.rowRequests} (${r.minimumRowRequests})`,
        },
      ]),
    ),
  );
  console.log(JSON.stringify({ bench: 'client', share, goalRatio: 1.05, results }));
}
