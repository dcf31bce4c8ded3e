// Benchmark: pullReleases of 100 and 1,000 releases from the embedded mock (limits raised) against a
// baseline in the same run that only fetches, hashes and INSERT … SELECT * FROM read_parquet (no checks),
// and a floor: the same files fetched at full concurrency, hashed, and ingested with one DuckDB statement.
// Run: node --import tsx test/bench/pull.bench.ts [counts...]   (default: 100 1000). Prints a table and JSON.
//
// Every pass (floor, baseline, rdw) runs in a fresh child process (`--pass`), so its peak RSS (maxRSS) is its own,
// not memory an earlier pass left in the heap, and "memory stays flat as the count grows" can be read
// from the figures. Each pass also samples its RSS after every tenth of its releases (`rssCurveMiB`).

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { request } from 'undici';
import { createClient } from '../../src/client/index.js';
import { openCatalog, pullReleases } from '../../src/catalog/index.js';
import { createTempHome } from '../support/temp-home.js';
import { formatTable } from './support/format-table.js';
import { lastJsonLine } from './support/last-json-line.js';
import { runChild } from './support/run-child.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONCURRENCY = 4; // baseline and rdw: downloads in flight (pullReleases default)
const FLOOR_CONCURRENCY = 32; // the floor: as many in flight as the mock serves usefully on two cores
const BIG = 1_000_000_000;
const MiB = 2 ** 20;

type PassName = 'floor' | 'baseline' | 'rdw';

interface PassResult {
  pass: PassName;
  releases: number;
  rows: number;
  seconds: number;
  /** process.resourceUsage().maxRSS of the pass's own process, MiB. */
  peakRssMiB: number;
  /** RSS before the first release, MiB (the process with its modules loaded). */
  startRssMiB: number;
  /** RSS after each tenth of the releases, MiB. */
  rssCurveMiB: number[];
  /** CPU seconds (user + system, every thread of the pass's process) during the pass. */
  cpuSeconds: number;
}

/** Records RSS after every tenth of `total` releases. */
function rssCurve(total: number): { tick(): void; curve: number[] } {
  const curve: number[] = [];
  const step = Math.max(1, Math.floor(total / 10));
  let done = 0;
  return {
    curve,
    tick() {
      done += 1;
      if (done % step === 0 || done === total) curve.push(Math.round(process.memoryUsage().rss / MiB));
    },
  };
}

/** GETs one release's parquet file, hashes it (sha256) and writes it to `dir`; returns the file's path. No checks. */
async function fetchHashWrite(baseUrl: string, key: string, id: string, dir: string): Promise<string> {
  const response = await request(`${baseUrl}/download/${id}/parquet`, { headers: { authorization: `Bearer ${key}` } });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  createHash('sha256').update(bytes).digest('hex');
  const file = path.join(dir, `${id}.parquet`);
  await writeFile(file, bytes);
  return file;
}

/** Baseline: GET each parquet file, sha256 it, write it, INSERT … SELECT * FROM read_parquet; no checks. */
async function baseline(baseUrl: string, key: string, ids: readonly string[], dir: string, tick: () => void): Promise<number> {
  const db = await DuckDBInstance.create(path.join(dir, 'baseline.duckdb'));
  const connection = await db.connect();
  let created = false;
  let queue = Promise.resolve();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const file = await fetchHashWrite(baseUrl, key, ids[next++]!, dir);
      const insert = queue.then(async () => {
        if (!created) {
          await connection.run(`CREATE TABLE t AS SELECT * FROM read_parquet('${file}')`);
          created = true;
        } else await connection.run(`INSERT INTO t SELECT * FROM read_parquet('${file}')`);
        tick();
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

/**
 * Floor: the least work a pull must do: GET every parquet file (FLOOR_CONCURRENCY in flight), sha256 it,
 * write it, then one `CREATE TABLE … AS SELECT * FROM read_parquet([every file])`. No checks, no per-release commits.
 */
async function floor(baseUrl: string, key: string, ids: readonly string[], dir: string, tick: () => void): Promise<number> {
  const files: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      files.push(await fetchHashWrite(baseUrl, key, ids[next++]!, dir));
      tick();
    }
  };
  await Promise.all(Array.from({ length: Math.min(FLOOR_CONCURRENCY, ids.length) }, worker));
  const db = await DuckDBInstance.create(path.join(dir, 'floor.duckdb'));
  const connection = await db.connect();
  const list = files.map((file) => `'${file.replaceAll("'", "''")}'`).join(', ');
  await connection.run(`CREATE TABLE t AS SELECT * FROM read_parquet([${list}])`);
  const rows = Number((await connection.runAndReadAll('SELECT count(*)::DOUBLE AS n FROM t')).getRowObjectsJson()[0]?.n);
  connection.closeSync();
  db.closeSync();
  return rows;
}

/** What `rdw pull` runs: manifest, verified download, schema checks, group-committed imports. */
async function rdwPull(baseUrl: string, key: string, ids: readonly string[], home: string, tick: () => void): Promise<number> {
  const catalog = await openCatalog(home);
  const client = createClient({ baseUrl, apiKey: key, home });
  const result = await pullReleases(catalog, client, ids, {
    concurrency: CONCURRENCY,
    onProgress: (event) => {
      if (event.kind === 'release' && event.status === 'imported') tick();
    },
  });
  if (result.failed.length > 0) throw result.failed[0]!.error;
  const rows = Number((await catalog.query('SELECT count(*)::DOUBLE AS n FROM market_events'))[0]?.n);
  await client.close();
  await catalog.close();
  return rows;
}

/** Child mode: one pass over the first `count` IDs of the mock named in the environment; prints a JSON line. */
async function runPass(pass: PassName, count: number): Promise<void> {
  const { BENCH_BASE_URL: baseUrl, BENCH_KEY: key, BENCH_IDS_FILE: idsFile } = process.env;
  if (!baseUrl || !key || !idsFile) throw new Error('--pass needs BENCH_BASE_URL, BENCH_KEY and BENCH_IDS_FILE');
  const ids = (JSON.parse(await readFile(idsFile, 'utf8')) as string[]).slice(0, count);
  const home = await createTempHome(`rdw-bench-${pass}-`);
  const curve = rssCurve(ids.length);
  const startRssMiB = Math.round(process.memoryUsage().rss / MiB);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const run = { rdw: rdwPull, baseline, floor }[pass];
  const rows = await run(baseUrl, key, ids, home.home, curve.tick);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await home.remove();
  const result: PassResult = {
    pass,
    releases: ids.length,
    rows,
    seconds,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    startRssMiB,
    rssCurveMiB: curve.curve,
    cpuSeconds: Number(((used.user + used.system) / 1e6).toFixed(2)),
  };
  console.log(JSON.stringify(result));
}

/** Parent mode: the mock in its own process, then each count's baseline and rdw passes in fresh processes. */
async function runSuite(counts: number[]): Promise<void> {
  const maxCount = Math.max(...counts);
  // cacheBytes holds every generated file, so no pass ever waits for the mock to regenerate one and both
  // passes read the same cache state without a warm-up pass.
  const mockScript = `
    import { startMockServer } from './src/mock/index.ts';
    const mock = await startMockServer({ port: 0, days: ${maxCount}, cacheBytes: ${8 * 2 ** 30}, limits: { desk: { rpm: ${BIG}, daily_bytes: ${BIG * 1000} } } });
    const ids = mock.archive.currentReleases(${maxCount}).map((release) => release.id);
    console.log(JSON.stringify({ baseUrl: mock.baseUrl, key: mock.keys.desk, ids }));`;
  const mockStarted = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', mockScript], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve))) as {
    baseUrl: string;
    key: string;
    ids: string[];
  };
  const mockReadySeconds = Number(((performance.now() - mockStarted) / 1000).toFixed(2));
  console.error(`mock ready: ${maxCount} days in ${mockReadySeconds} s`);
  // The IDs go in a file: 3,000 of them in one variable pass Linux's 128 KiB limit per string (E2BIG).
  const idsHome = await createTempHome('rdw-bench-ids-');
  const idsFile = path.join(idsHome.home, 'ids.json');
  await writeFile(idsFile, JSON.stringify(ready.ids));
  const env = { ...process.env, BENCH_BASE_URL: ready.baseUrl, BENCH_KEY: ready.key, BENCH_IDS_FILE: idsFile };

  const pass = async (name: PassName, count: number): Promise<PassResult> => {
    const run = await runChild(process.execPath, ['--import', 'tsx', import.meta.filename, '--pass', name, '--count', String(count)], {
      cwd: ROOT,
      env,
      timeoutSeconds: 900,
    });
    const json = lastJsonLine(run.stdout);
    if (run.code !== 0 || json === undefined) throw new Error(`${name} pass of ${count} failed (${run.code ?? run.signal}): ${run.stderr.slice(-1000)}`);
    return json as unknown as PassResult;
  };

  const results = [];
  try {
    for (const count of counts) {
      const least = await pass('floor', count);
      const base = await pass('baseline', count);
      const pulled = await pass('rdw', count);
      if (pulled.rows !== base.rows || least.rows !== base.rows) {
        throw new Error(`row counts differ: rdw ${pulled.rows}, baseline ${base.rows}, floor ${least.rows}`);
      }
      results.push({
        releases: count,
        rows: pulled.rows,
        baselineSeconds: Number(base.seconds.toFixed(2)),
        rdwSeconds: Number(pulled.seconds.toFixed(2)),
        ratio: Number((pulled.seconds / base.seconds).toFixed(3)),
        floorSeconds: Number(least.seconds.toFixed(2)),
        floorRatio: Number((pulled.seconds / least.seconds).toFixed(3)),
        floorPeakRssMiB: least.peakRssMiB,
        rdwReleasesPerSecond: Number((count / pulled.seconds).toFixed(1)),
        baselineReleasesPerSecond: Number((count / base.seconds).toFixed(1)),
        baselineCpuSeconds: base.cpuSeconds,
        rdwCpuSeconds: pulled.cpuSeconds,
        baselinePeakRssMiB: base.peakRssMiB,
        rdwPeakRssMiB: pulled.peakRssMiB,
        rdwStartRssMiB: pulled.startRssMiB,
        rdwRssCurveMiB: pulled.rssCurveMiB,
        baselineRssCurveMiB: base.rssCurveMiB,
      });
      console.error(`done: ${JSON.stringify(results[results.length - 1])}`);
    }
  } finally {
    child.kill('SIGTERM');
    await idsHome.remove();
  }

  console.log(
    formatTable(
      ['releases', 'rows', 'floor s', 'baseline s', 'rdw s', 'rdw ÷ floor', 'rdw ÷ base', 'rdw rel/s', 'base rel/s', 'base peak MiB', 'rdw peak MiB', 'rdw RSS per tenth MiB'],
      results.map((r) => [r.releases, r.rows, r.floorSeconds, r.baselineSeconds, r.rdwSeconds, r.floorRatio, r.ratio, r.rdwReleasesPerSecond, r.baselineReleasesPerSecond, r.baselinePeakRssMiB, r.rdwPeakRssMiB, r.rdwRssCurveMiB.join(' ')]),
    ),
  );
  // "Peak memory stays flat as the count grows": the largest count's peak over the smallest's.
  const first = results[0]!;
  const last = results[results.length - 1]!;
  const peakGrowth = {
    rdw: Number((last.rdwPeakRssMiB / first.rdwPeakRssMiB).toFixed(2)),
    baseline: Number((last.baselinePeakRssMiB / first.baselinePeakRssMiB).toFixed(2)),
  };
  console.log(`peak RSS ${last.releases} ÷ ${first.releases} releases: rdw ${peakGrowth.rdw}×, baseline ${peakGrowth.baseline}×`);
  console.log(JSON.stringify({ benchmark: 'pull', concurrency: CONCURRENCY, floorConcurrency: FLOOR_CONCURRENCY, goalRatio: 1.25, mockReadySeconds, peakGrowth, results }));
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { pass: { type: 'string' }, count: { type: 'string' } } });
if (values.pass === 'floor' || values.pass === 'baseline' || values.pass === 'rdw') await runPass(values.pass, Number(values.count));
else {
  const counts = positionals.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
  await runSuite(counts.length > 0 ? counts : [100, 1000]);
}
