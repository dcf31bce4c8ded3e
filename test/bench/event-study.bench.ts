// Benchmark: the event study over ~1,100 days (~500k rows) of MarketSimulator rows in a catalog: time and peak RSS.
// Run: node --expose-gc --import tsx test/bench/event-study.bench.ts [--days 1100] [--seed 1] [--no-compile]
// The catalog is built once into a cache folder under os.tmpdir() (reused while the key matches); the
// build runs the simulator compiled by tsc into that folder (2-5x faster than tsx). Each study scenario
// then runs in a fresh child process so that its peak RSS is its own.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EventStudyOptions } from '../../src/analysis/index.js';

const SCENARIOS: Record<string, EventStudyOptions> = {
  'default: 1h, kind x direction, day bootstrap, 2000 resamples': {},
  'same, row bootstrap': { bootstrap: { method: 'row' } },
  'same, 1 resample (SQL and fetch cost)': { bootstrap: { samples: 1 } },
  'all 5 windows x kind x direction x symbol, day bootstrap': { windows: ['15m', '1h', '4h', '24h', '7d'], by: ['event_kind', 'direction', 'symbol'] },
  'all 5 windows x kind x direction x symbol, row bootstrap': {
    windows: ['15m', '1h', '4h', '24h', '7d'],
    by: ['event_kind', 'direction', 'symbol'],
    bootstrap: { method: 'row' },
  },
};

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cacheRoot = path.join(os.tmpdir(), 'rdw-bench-event-study');

/** Hash of every src/ file that decides the rows (spec, simulator, releases CSV, catalog schema). */
async function sourceKey(): Promise<string> {
  const hash = createHash('sha256');
  for (const folder of ['src/contract', 'src/mock/simulator', 'src/mock/releases', 'src/catalog']) {
    for (const name of (await readdir(path.join(repoRoot, folder))).sort()) {
      if (name.endsWith('.ts')) hash.update(name).update(await readFile(path.join(repoRoot, folder, name)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

// Child mode: build the catalog from a library base (compiled JS folder, or src/ through tsx).
async function buildCatalog(home: string, libBase: string, days: number, seed: number): Promise<void> {
  const load = (module: string) => import(pathToFileURL(path.join(libBase, module)).href);
  const { MarketSimulator } = await load('mock/simulator/index.js');
  const { releaseCsv, asOfTime } = await load('mock/releases/index.js');
  const { sha256Hex } = await load('base/index.js');
  const { openCatalog, DUCKDB_TYPE } = await load('catalog/index.js');
  const { MARKET_EVENT_FIELDS } = await load('contract/index.js');
  const simulator = new MarketSimulator({ seed, days });
  const catalog = await openCatalog(home);
  const names = (MARKET_EVENT_FIELDS as { name: string }[]).map((f) => `"${f.name}"`).join(', ');
  const types = (MARKET_EVENT_FIELDS as { name: string; type: string }[]).map((f) => `'${f.name}': '${DUCKDB_TYPE[f.type]}'`).join(', ');
  const file = path.join(home, 'day.csv');
  const started = performance.now();
  for (const [index, day] of (simulator.days() as string[]).entries()) {
    const asOf = asOfTime(day, simulator.options.now);
    const rows = simulator.dayRows(day, asOf);
    const csv: Uint8Array = releaseCsv(rows);
    const id: string = sha256Hex(csv); // a content ID; this bench does not build parquet/json files
    await writeFile(file, csv);
    await catalog.transaction(async (connection: { run(sql: string, values?: object): Promise<unknown> }) => {
      await connection.run(
        `INSERT INTO releases (id, dataset, version, day, generated_at, rows, manifest_sha256, imported_at, import_order)
         VALUES ($id, 'market-events-v1', 'bench', $day::DATE, $asOf, $rows, $id, TIMESTAMP '2026-01-01 00:00:00', $order)`,
        { id, day, asOf, rows: rows.length, order: index + 1 },
      );
      await connection.run(
        `INSERT INTO market_events (release_id, day, ${names}) SELECT $id, $day::DATE, ${names}
         FROM read_csv('${file}', header = true, auto_detect = false, nullstr = '', columns = {${types}})`,
        { id, day },
      );
    });
    if ((index + 1) % 100 === 0) process.stderr.write(`  built ${index + 1}/${days} days in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  }
  await rm(file);
  await catalog.close();
}

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
  if (argv[0] === '--build') return buildCatalog(argv[1]!, argv[2]!, Number(argv[3]), Number(argv[4]));
  const days = argument(argv, '--days', 1100);
  const seed = argument(argv, '--seed', 1);

  // 1. the cached catalog (built once per source key, seed and days)
  const key = `seed${seed}-days${days}-${await sourceKey()}`;
  const home = path.join(cacheRoot, key);
  let buildSeconds: number | null = null;
  if (!existsSync(path.join(home, 'complete.json'))) {
    const building = `${home}.building-${process.pid}`;
    await rm(building, { recursive: true, force: true });
    await mkdir(building, { recursive: true });
    let libBase = path.join(repoRoot, 'src');
    if (!argv.includes('--no-compile')) {
      const out = path.join(cacheRoot, `js-${process.pid}`);
      try {
        execFileSync(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', path.join(repoRoot, 'tsconfig.json'), '--outDir', out, '--declaration', 'false', '--sourceMap', 'false'], { stdio: 'ignore' });
      } catch {
        // tsc reports type errors (others' files mid-edit) but still emits; check the modules exist below.
      }
      if (existsSync(path.join(out, 'mock/simulator/index.js')) && existsSync(path.join(out, 'catalog/index.js'))) libBase = out;
    }
    process.stderr.write(`building ${days} days (seed ${seed}) from ${libBase === path.join(repoRoot, 'src') ? 'src via tsx' : 'compiled JS'} into ${home}\n`);
    const started = performance.now();
    execFileSync(process.execPath, [...process.execArgv, script, '--build', building, libBase, String(days), String(seed)], { stdio: 'inherit' });
    buildSeconds = (performance.now() - started) / 1000;
    await writeFile(path.join(building, 'complete.json'), JSON.stringify({ days, seed, buildSeconds, compiled: libBase !== path.join(repoRoot, 'src') }));
    await rename(building, home);
    if (libBase !== path.join(repoRoot, 'src')) await rm(libBase, { recursive: true, force: true });
  }
  const built = JSON.parse(await readFile(path.join(home, 'complete.json'), 'utf8')) as { buildSeconds: number; compiled: boolean };

  // 2. each scenario in a fresh process
  const results = [];
  for (const name of Object.keys(SCENARIOS)) {
    const output = execFileSync(process.execPath, [...process.execArgv, script, '--scenario', home, name], { encoding: 'utf8' });
    results.push(JSON.parse(output.trim().split('\n').at(-1)!));
  }

  // 3. report
  const rows = results[0]?.rows;
  console.log(
    `event study benchmark: ${days} days of simulator rows (seed ${seed}), ${rows} rows; catalog ${buildSeconds === null ? 'reused from cache' : 'built'} ` +
      `(build took ${built.buildSeconds.toFixed(0)} s, ${built.compiled ? 'compiled JS' : 'tsx'}; not part of the study): ${home}`,
  );
  console.table(results.map((r) => ({ scenario: r.scenario, seconds: r.seconds.toFixed(2), 'peak RSS MB': r.peakRssMb.toFixed(0), groups: r.groups })));
  console.log(JSON.stringify({ benchmark: 'event-study', days, seed, rows, buildSeconds: built.buildSeconds, compiledBuild: built.compiled, scenarios: results }));
}

await main();
