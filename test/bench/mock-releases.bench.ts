// Benchmark: generate and serialize 120 days x 6 pairs of Market Events releases (all files).
// Run: npx tsx test/bench/mock-releases.bench.ts [--days 120] [--seed 1]  (or the tsc-compiled copy with plain node)

import { ReleaseArchive, asOfTime, buildRelease, orderedRow } from '../../src/mock/releases/index.js';
import { MarketSimulator } from '../../src/mock/simulator/index.js';
import { DOWNLOAD_FORMATS } from '../../src/contract/index.js';

function flag(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

interface Phase {
  phase: string;
  days: number;
  rows: number;
  bytes: number;
  ms: number;
}

function main(): void {
  const days = flag('days', 120);
  const seed = flag('seed', 1);
  const simulator = new MarketSimulator({ seed, days });
  const now = simulator.options.now;
  const phases: Phase[] = [];

  // 1. the simulator alone: each day's rows as of its final (or latest) check
  let started = performance.now();
  const dayRows = simulator.days().map((day) => ({ day, asOf: asOfTime(day, now)!, rows: simulator.dayRows(day, asOfTime(day, now)!) }));
  const rowCount = dayRows.reduce((sum, d) => sum + d.rows.length, 0);
  phases.push({ phase: 'simulate rows (1 as-of per day)', days, rows: rowCount, bytes: 0, ms: performance.now() - started });

  // 2. serialization alone: csv, parquet, schema, json, manifest of every day
  started = performance.now();
  let bytes = 0;
  for (const { day, asOf, rows } of dayRows) {
    const bundle = buildRelease(day, asOf, rows.map(orderedRow), day >= simulator.options.schemaSince);
    for (const format of DOWNLOAD_FORMATS) bytes += bundle.files[format]?.byteLength ?? 0;
  }
  phases.push({ phase: 'serialize all files', days, rows: rowCount, bytes, ms: performance.now() - started });

  // 3. what a fresh server's first listing costs: a new archive, its 30 newest current releases
  started = performance.now();
  const fresh = new ReleaseArchive(new MarketSimulator({ seed, days }));
  const first = fresh.currentReleases(30);
  phases.push({ phase: `fresh archive: currentReleases(${first.length})`, days: first.length, rows: first.reduce((sum, r) => sum + r.rows, 0), bytes: 0, ms: performance.now() - started });

  // 4. the archive, cold: every current release (simulate, find first publication, serialize), then every file.
  //    1 GiB of cache holds all 120 days (files plus rows); the 256 MiB default would thrash on this full scan.
  started = performance.now();
  const archive = new ReleaseArchive(new MarketSimulator({ seed, days }), { cacheBytes: 1024 ** 3 });
  const releases = archive.currentReleases();
  let archiveBytes = 0;
  for (const release of releases) for (const format of DOWNLOAD_FORMATS) archiveBytes += archive.file(release.id, format)?.byteLength ?? 0;
  phases.push({ phase: 'archive cold: currentReleases() + file()', days, rows: rowCount, bytes: archiveBytes, ms: performance.now() - started });

  // 5. the archive, warm: every file again from the cache
  started = performance.now();
  for (const release of releases) for (const format of DOWNLOAD_FORMATS) archive.file(release.id, format);
  phases.push({ phase: 'archive warm: file() from cache', days, rows: rowCount, bytes: archiveBytes, ms: performance.now() - started });

  // 6. one hour of re-checks
  started = performance.now();
  const published = archive.advance(3600);
  phases.push({ phase: `advance(3600): ${published.length} revisions`, days: 9, rows: 0, bytes: 0, ms: performance.now() - started });

  const table = phases.map((p) => ({
    phase: p.phase,
    'ms total': Math.round(p.ms),
    'ms/day': +(p.ms / p.days).toFixed(2),
    'rows/s': p.rows ? Math.round(p.rows / (p.ms / 1000)) : null,
    'MB/s': p.bytes ? +(p.bytes / 1e6 / (p.ms / 1000)).toFixed(1) : null,
  }));
  console.log(`mock releases benchmark: ${days} days x 6 pairs, ${rowCount} rows, ${(bytes / 1e6).toFixed(1)} MB of files (seed ${seed})`);
  console.table(table);
  console.log(JSON.stringify({ benchmark: 'mock-releases', days, seed, rows: rowCount, bytes, phases: table }));
}

main();
