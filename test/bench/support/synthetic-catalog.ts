// A catalog of MarketSimulator rows for benchmarks (event-study, model): built once per (seed, days, source
// key) into a cache folder under os.tmpdir() and reused; the build runs the simulator compiled by tsc (2-5x
// faster than tsx) in a child process (this file, `--build`).
// Child mode: node --import tsx test/bench/support/synthetic-catalog.ts --build HOME LIB_BASE DAYS SEED

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ownFolder, removeTree } from '../../../src/base/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const cacheRoot = path.join(os.tmpdir(), 'rdw-bench-event-study');

/** Where the catalog is and how it came to be. */
export interface SyntheticCatalog {
  /** The RDW_HOME holding catalog.duckdb (open it with openCatalog(home, { readOnly: true })). */
  home: string;
  /** Seconds the build took (when it was built, possibly by an earlier run). */
  buildSeconds: number;
  /** Built from tsc-compiled JS (else src/ through tsx). */
  compiled: boolean;
  /** True when this call found it in the cache. */
  reused: boolean;
}

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

/**
 * The cached catalog of `days` simulated days (seed `seed`), built when absent: per day the mock's release CSV
 * (releaseCsv) inserted with the catalog's typed columns (no parquet/json files: benchmarks only read rows).
 * The folder is renamed into place only when complete. Progress on stderr.
 * @param options.compile run the build from tsc-compiled JS (default true; falls back to tsx when tsc emits nothing)
 */
export async function syntheticCatalog(days: number, seed: number, options: { compile?: boolean } = {}): Promise<SyntheticCatalog> {
  const home = path.join(cacheRoot, `seed${seed}-days${days}-${await sourceKey()}`);
  const reused = existsSync(path.join(home, 'complete.json'));
  if (!reused) {
    // Named for this process: its own to remove (a crashed earlier run of the same pid left it half built).
    const building = await ownFolder(`${home}.building-${process.pid}`);
    await removeTree(building);
    await mkdir(building, { recursive: true });
    let libBase = path.join(repoRoot, 'src');
    if (options.compile !== false) {
      // Inside the repository, so the compiled files resolve node_modules and package.json's "type": "module".
      const out = await ownFolder(path.join(repoRoot, 'node_modules', '.cache', `rdw-bench-js-${process.pid}`));
      try {
        execFileSync(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', path.join(repoRoot, 'tsconfig.json'), '--outDir', out, '--incremental', 'false', '--declaration', 'false', '--sourceMap', 'false'], { stdio: 'ignore' });
      } catch {
        // tsc reports type errors (others' files mid-edit) but still emits; check the modules exist below.
      }
      if (existsSync(path.join(out, 'mock/simulator/index.js')) && existsSync(path.join(out, 'catalog/index.js'))) libBase = out;
    }
    process.stderr.write(`building ${days} days (seed ${seed}) from ${libBase === path.join(repoRoot, 'src') ? 'src via tsx' : 'compiled JS'} into ${home}\n`);
    const started = performance.now();
    execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--build', building, libBase, String(days), String(seed)], { stdio: 'inherit' });
    const buildSeconds = (performance.now() - started) / 1000;
    await writeFile(path.join(building, 'complete.json'), JSON.stringify({ days, seed, buildSeconds, compiled: libBase !== path.join(repoRoot, 'src') }));
    await rename(building, home);
    if (libBase !== path.join(repoRoot, 'src')) await removeTree(libBase);
  }
  const built = JSON.parse(await readFile(path.join(home, 'complete.json'), 'utf8')) as { buildSeconds: number; compiled: boolean };
  return { home, buildSeconds: built.buildSeconds, compiled: built.compiled, reused };
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
    const id: string = sha256Hex(csv); // a content ID; no parquet/json files are built
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

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv[2] === '--build') {
  const [home, libBase, days, seed] = process.argv.slice(3);
  await buildCatalog(home!, libBase!, Number(days), Number(seed));
}
