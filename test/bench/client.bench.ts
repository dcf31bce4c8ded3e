// Benchmark: requests per pulled release (ours vs the minimum of one per file) and 429s over a
// 100-release pull at a 60 rpm plan, with the mock's rate clock and the client's clock on one fake time.
// Run: node --import tsx test/bench/client.bench.ts [--releases 100] [--rpm 60]

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startMockServer } from '../../src/mock/index.js';
import { createClient } from '../../src/client/index.js';
import { fakeClock } from '../support/fake-clock.js';

interface ClientBenchResult {
  releases: number;
  rpm: number;
  requests: number;
  requestsPerRelease: number;
  minimumPerRelease: number;
  status429: number;
  fakeMinutes: number;
  wallSeconds: number;
  pagedRows: number;
  rowRequests: number;
  minimumRowRequests: number;
}

/** Pulls `releases` releases (manifest + parquet each) and pages one release's rows. */
export async function runClientBench(releases = 100, rpm = 60): Promise<ClientBenchResult> {
  const clock = fakeClock();
  const mock = await startMockServer({
    port: 0,
    days: releases + 2,
    limits: { researcher: { rpm, daily_bytes: 64 * 1024 ** 3 } },
    rateClock: () => clock.now(),
  });
  const home = await mkdtemp(join(tmpdir(), 'rdw-client-bench-'));
  const client = createClient({ baseUrl: mock.baseUrl, apiKey: mock.keys.researcher, clock, home });
  const log = () => mock.requestLog as unknown as { status?: number; statusCode?: number; path?: string; url?: string }[];
  try {
    const wallStart = performance.now();
    const fakeStart = clock.now();
    // 1. list, then pull each release: verified manifest + verified parquet (the catalog's pull).
    const list = await client.releases({ limit: Math.min(100, releases) });
    for (const release of list) {
      await client.manifest(release.id);
      await client.download(release.id, 'parquet', join(home, 'files', `${release.id}.parquet`));
    }
    const requests = log().length;
    // 2. paging one release's rows at the largest page size.
    const before = log().length;
    let pagedRows = 0;
    for await (const page of client.rows(list[0]!.id)) pagedRows += page.length;
    const rowRequests = log().length - before;
    return {
      releases: list.length,
      rpm,
      requests,
      requestsPerRelease: requests / list.length,
      minimumPerRelease: 2, // two files per pulled release: the manifest and the parquet
      status429: log().filter((entry) => (entry.status ?? entry.statusCode) === 429).length,
      fakeMinutes: (clock.now() - fakeStart) / 60_000,
      wallSeconds: (performance.now() - wallStart) / 1000,
      pagedRows,
      rowRequests,
      minimumRowRequests: Math.max(1, Math.ceil(pagedRows / 500)),
    };
  } finally {
    await client.close();
    await mock.close();
    await rm(home, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  const option = (name: string, fallback: number) => {
    const index = argv.indexOf(name);
    return index >= 0 ? Number(argv[index + 1]) : fallback;
  };
  const result = await runClientBench(option('--releases', 100), option('--rpm', 60));
  console.table({
    'releases pulled': result.releases,
    'plan rpm': result.rpm,
    'requests (total)': result.requests,
    'requests per release (ours)': Number(result.requestsPerRelease.toFixed(3)),
    'requests per release (minimum: one per file, 2 files)': result.minimumPerRelease,
    '429 responses': result.status429,
    'fake minutes elapsed': Number(result.fakeMinutes.toFixed(2)),
    'wall seconds': Number(result.wallSeconds.toFixed(2)),
    'rows paged (one release)': result.pagedRows,
    'row requests (ours / minimum)': `${result.rowRequests} / ${result.minimumRowRequests}`,
  });
  console.log(JSON.stringify({ bench: 'client', ...result }));
}
