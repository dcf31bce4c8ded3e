// Benchmark: pullReleases of 100 and 1,000 releases from the embedded mock (limits raised) against a
// baseline in the same run that only fetches, hashes and INSERT … SELECT * FROM read_parquet (no checks).
// Run: node --import tsx test/bench/pull.bench.ts [counts...]   (default: 100 1000). Prints a table and JSON.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { request } from 'undici';
import { createClient } from '../../src/client/index.js';
import { openCatalog, pullReleases } from '../../src/catalog/index.js';
import { createTempHome } from '../support/temp-home.js';

const counts = process.argv.slice(2).map(Number).filter((n) => n > 0);
const COUNTS = counts.length > 0 ? counts : [100, 1000];
const CONCURRENCY = 4; // both runs: downloads in flight (pullReleases default)
const BIG = 1_000_000_000;

/** Samples RSS every 50 ms while `fn` runs; returns its result, seconds and the peak RSS in MiB. */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number; peakRssMiB: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  try {
    const value = await fn();
    return { value, seconds: (performance.now() - started) / 1000, peakRssMiB: Math.round(Math.max(peak, process.memoryUsage().rss) / 2 ** 20) };
  } finally {
    clearInterval(timer);
  }
}

/** Baseline: GET each parquet file, sha256 it, write it, INSERT … SELECT * FROM read_parquet; no checks. */
async function baseline(baseUrl: string, key: string, ids: readonly string[], dir: string): Promise<number> {
  const db = await DuckDBInstance.create(path.join(dir, 'baseline.duckdb'));
  const connection = await db.connect();
  let created = false;
  let queue = Promise.resolve();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      const response = await request(`${baseUrl}/download/${id}/parquet`, { headers: { authorization: `Bearer ${key}` } });
      const bytes = Buffer.from(await response.body.arrayBuffer());
      createHash('sha256').update(bytes).digest('hex');
      const file = path.join(dir, `${id}.parquet`);
      await writeFile(file, bytes);
      const insert = queue.then(async () => {
        if (!created) {
          await connection.run(`CREATE TABLE t AS SELECT * FROM read_parquet('${file}')`);
          created = true;
        } else await connection.run(`INSERT INTO t SELECT * FROM read_parquet('${file}')`);
      });
      queue = insert;
      await insert;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const rows = Number((await connection.runAndReadAll('SELECT count(*)::DOUBLE AS n FROM t')).getRowObjectsJson()[0]?.n);
  connection.closeSync();
  db.closeSync();
  return rows;
}

async function rdwPull(baseUrl: string, key: string, ids: readonly string[], home: string): Promise<number> {
  const catalog = await openCatalog(home);
  const client = createClient({ baseUrl, apiKey: key, home });
  const result = await pullReleases(catalog, client, ids, { concurrency: CONCURRENCY });
  if (result.failed.length > 0) throw result.failed[0]!.error;
  const rows = Number((await catalog.query('SELECT count(*)::DOUBLE AS n FROM market_events'))[0]?.n);
  await client.close();
  await catalog.close();
  return rows;
}

const maxCount = Math.max(...COUNTS);
// The mock runs in its own process (like a remote API), so its work does not share this event loop.
const MOCK_SCRIPT = `
  import { startMockServer } from './src/mock/index.ts';
  const mock = await startMockServer({ port: 0, days: ${maxCount}, limits: { desk: { rpm: ${BIG}, daily_bytes: ${BIG * 100} } } });
  const ids = mock.archive.currentReleases(${maxCount}).map((release) => release.id);
  console.log(JSON.stringify({ baseUrl: mock.baseUrl, key: mock.keys.desk, ids }));`;
const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', MOCK_SCRIPT], {
  cwd: path.resolve(import.meta.dirname, '../..'),
  stdio: ['ignore', 'pipe', 'inherit'],
});
const ready = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve))) as {
  baseUrl: string;
  key: string;
  ids: string[];
};
const mock = { baseUrl: ready.baseUrl, close: async () => void child.kill('SIGTERM') };
const key = ready.key;
const all = ready.ids;
const results = [];
for (const count of COUNTS) {
  const ids = all.slice(0, count);
  // Warm-up: the mock builds each file on first request; both runs below then read the same cache state.
  await measured(async () => {
    const home = await createTempHome('rdw-bench-warm-');
    await baseline(mock.baseUrl, key, ids, home.home);
    await home.remove();
  });
  const baseHome = await createTempHome('rdw-bench-base-');
  const base = await measured(() => baseline(mock.baseUrl, key, ids, baseHome.home));
  await baseHome.remove();
  const rdwHome = await createTempHome('rdw-bench-pull-');
  const pulled = await measured(() => rdwPull(mock.baseUrl, key, ids, rdwHome.home));
  await rdwHome.remove();
  if (pulled.value !== base.value) throw new Error(`row counts differ: rdw ${pulled.value}, baseline ${base.value}`);
  results.push({
    releases: count,
    rows: pulled.value,
    baselineSeconds: Number(base.seconds.toFixed(2)),
    rdwSeconds: Number(pulled.seconds.toFixed(2)),
    ratio: Number((pulled.seconds / base.seconds).toFixed(3)),
    rdwReleasesPerSecond: Number((count / pulled.seconds).toFixed(1)),
    baselineReleasesPerSecond: Number((count / base.seconds).toFixed(1)),
    baselinePeakRssMiB: base.peakRssMiB,
    rdwPeakRssMiB: pulled.peakRssMiB,
  });
  console.error(`done: ${JSON.stringify(results[results.length - 1])}`);
}
await mock.close();

const header = ['releases', 'rows', 'baseline s', 'rdw s', 'ratio', 'rdw rel/s', 'base rel/s', 'base RSS MiB', 'rdw RSS MiB'];
const lines = results.map((r) => [r.releases, r.rows, r.baselineSeconds, r.rdwSeconds, r.ratio, r.rdwReleasesPerSecond, r.baselineReleasesPerSecond, r.baselinePeakRssMiB, r.rdwPeakRssMiB].map(String));
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i]!.length)));
console.log([header, ...lines].map((line) => line.map((cell, i) => cell.padStart(widths[i]!)).join('  ')).join('\n'));
console.log(JSON.stringify({ benchmark: 'pull', concurrency: CONCURRENCY, goalRatio: 1.25, results }));
