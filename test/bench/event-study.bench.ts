// Benchmark: the event study over ~1,100 days (~500k rows) of MarketSimulator rows in a catalog: time and peak RSS.
// Run: node --expose-gc --import tsx test/bench/event-study.bench.ts [--days 1100] [--seed 1] [--no-compile]
// The catalog is built once into a cache folder under os.tmpdir() and reused while its key matches
// (support/synthetic-catalog.ts, shared with model.bench.ts). Each study scenario then runs in a fresh child
// process so that its peak RSS is its own.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EventStudyOptions } from '../../src/analysis/index.js';
import { syntheticCatalog } from './support/synthetic-catalog.js';

const SCENARIOS: Record<string, EventStudyOptions> = {
  'default: 1h, kind x direction, block jackknife': {},
  'same, row bootstrap (2000 resamples; opt-in, uncalibrated)': { interval: { method: 'row-bootstrap' } },
  'all 5 windows x kind x direction x symbol, block jackknife': { windows: ['15m', '1h', '4h', '24h', '7d'], by: ['event_kind', 'direction', 'symbol'] },
  'all 5 windows x kind x direction x symbol, row bootstrap': {
    windows: ['15m', '1h', '4h', '24h', '7d'],
    by: ['event_kind', 'direction', 'symbol'],
    interval: { method: 'row-bootstrap' },
  },
};

async function runScenario(home: string, name: string): Promise<void> {
  const { eventStudy } = await import('../../src/analysis/index.js');
  const { openCatalog } = await import('../../src/catalog/index.js');
  const catalog = await openCatalog(home, { readOnly: true });
  const started = performance.now();
  const result = await eventStudy(catalog, SCENARIOS[name]);
  const seconds = (performance.now() - started) / 1000;
  await catalog.close();
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ scenario: name, seconds, peakRssMb, groups: result.rows.length, rows: result.metadata.rows }));
}

function argument(argv: string[], name: string, fallback: number): number {
  const index = argv.indexOf(name);
  return index >= 0 ? Number(argv[index + 1]) : fallback;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const script = fileURLToPath(import.meta.url);
  if (argv[0] === '--scenario') return runScenario(argv[1]!, argv[2]!);
  const days = argument(argv, '--days', 1100);
  const seed = argument(argv, '--seed', 1);

  // 1. the cached catalog (built once per source key, seed and days)
  const built = await syntheticCatalog(days, seed, { compile: !argv.includes('--no-compile') });
  const home = built.home;

  // 2. each scenario in a fresh process
  const results = [];
  for (const name of Object.keys(SCENARIOS)) {
    const output = execFileSync(process.execPath, [...process.execArgv, script, '--scenario', home, name], { encoding: 'utf8' });
    results.push(JSON.parse(output.trim().split('\n').at(-1)!));
  }

  // 3. report
  const rows = results[0]?.rows;
  console.log(
    `event study benchmark: ${days} days of simulator rows (seed ${seed}), ${rows} rows; catalog ${built.reused ? 'reused from cache' : 'built'} ` +
      `(build took ${built.buildSeconds.toFixed(0)} s, ${built.compiled ? 'compiled JS' : 'tsx'}; not part of the study): ${home}`,
  );
  console.table(results.map((r) => ({ scenario: r.scenario, seconds: r.seconds.toFixed(2), 'peak RSS MB': r.peakRssMb.toFixed(0), groups: r.groups })));
  console.log(JSON.stringify({ benchmark: 'event-study', days, seed, rows, buildSeconds: built.buildSeconds, compiledBuild: built.compiled, scenarios: results }));
}

await main();
