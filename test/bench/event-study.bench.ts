// Benchmark: the event study over ~1,100 days (~500k rows) in a DuckDB catalog file: time and peak RSS.
// Run: node --expose-gc --import tsx test/bench/event-study.bench.ts [--days 1100]
// The catalog is built first; each study scenario then runs in a fresh child process so that its peak
// RSS is its own (not the build's).

import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { eventStudy, type EventStudyOptions } from '../../src/analysis/index.js';
import { appendReleases, buildFixtureCatalog } from '../analysis/support/fixture-catalog.js';
import { syntheticDays } from '../analysis/support/synthetic-rows.js';

const SCENARIOS: Record<string, EventStudyOptions> = {
  'default (1h; kind x direction; 2000 resamples)': {},
  'same, 1 resample (SQL and fetch cost)': { bootstrap: { samples: 1 } },
  'all 5 windows; kind x direction x symbol': { windows: ['15m', '1h', '4h', '24h', '7d'], by: ['event_kind', 'direction', 'symbol'] },
};

async function runScenario(file: string, name: string): Promise<void> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  const started = performance.now();
  const result = await eventStudy(connection, SCENARIOS[name]);
  const seconds = (performance.now() - started) / 1000;
  connection.closeSync();
  instance.closeSync();
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ scenario: name, seconds, peakRssMb, groups: result.rows.length, rows: result.metadata.rows }));
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--scenario') return runScenario(argv[1]!, argv[2]!);
  const daysIndex = argv.indexOf('--days');
  const totalDays = daysIndex >= 0 ? Number(argv[daysIndex + 1]) : 1100;

  // 1. build the catalog file in chunks of days (rows never all in memory at once)
  const buildStarted = performance.now();
  const catalog = await buildFixtureCatalog([]);
  const chunk = 50;
  for (let start = 0; start < totalDays; start += chunk) {
    const startDay = new Date(Date.UTC(2023, 0, 1) + start * 86400_000).toISOString().slice(0, 10);
    const days = syntheticDays({
      days: Math.min(chunk, totalDays - start),
      seed: 1000 + start,
      startDay,
      eventsPerSymbolDay: 52,
      lastDayPending: start + chunk >= totalDays,
    });
    await appendReleases(catalog.connection, catalog.dir, days.map((d) => ({ releaseId: d.releaseId, day: d.day, rows: d.rows, generatedAt: start })));
  }
  await catalog.connection.run('CHECKPOINT');
  const rows = Number((await catalog.connection.runAndReadAll('SELECT count(*) AS n FROM market_events')).getRowObjectsJS()[0]!.n);
  const buildSeconds = (performance.now() - buildStarted) / 1000;
  catalog.detach();

  // 2. each scenario in a fresh process
  const script = fileURLToPath(import.meta.url);
  const results = [];
  for (const name of Object.keys(SCENARIOS)) {
    const output = execFileSync(process.execPath, [...process.execArgv, script, '--scenario', catalog.file, name], { encoding: 'utf8' });
    results.push(JSON.parse(output.trim().split('\n').at(-1)!));
  }
  await rm(catalog.dir, { recursive: true, force: true });

  // 3. report
  console.log(`event study benchmark: ${totalDays} days, ${rows} rows, catalog built in ${buildSeconds.toFixed(1)} s (not part of the study)`);
  console.table(results.map((r) => ({ scenario: r.scenario, seconds: r.seconds.toFixed(2), 'peak RSS MB': r.peakRssMb.toFixed(0), groups: r.groups })));
  console.log(JSON.stringify({ benchmark: 'event-study', days: totalDays, rows, buildSeconds, scenarios: results }));
}

await main();
