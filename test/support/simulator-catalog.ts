// A real catalog (openCatalog, src/catalog) holding MarketSimulator rows imported through the catalog's own
// import step: each day's release is built by src/mock/releases (CSV bytes, ID, manifest) like the mock serves it.

import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openCatalog, type Catalog } from '../../src/catalog/index.js';
import { importRelease } from '../../src/catalog/import-release.js';
import { MarketSimulator, type SimulatorOptions } from '../../src/mock/index.js';
import { makeTemporaryFolder, removeTree, sha256Digest } from '../../src/base/index.js';
import { asOfTime, buildRelease } from '../../src/mock/releases/index.js';
import type { MarketEventRow } from '../../src/contract/index.js';

/** What a built catalog holds, for assertions. */
export interface SimulatorCatalog {
  home: string;
  catalog: Catalog;
  /** Release IDs by day, oldest day first. */
  releases: { id: string; day: string; rows: number }[];
  /** Every imported row, in day order (only when `keepRows`). */
  rows: MarketEventRow[];
  /** Folder holding each release's CSV file as imported (`<day>.csv`), when `keepCsv`. */
  csvDir: string;
  close(): Promise<void>;
}

export interface SimulatorCatalogOptions {
  simulator?: SimulatorOptions;
  /** Keep the imported rows in memory (for independent checks). Default true. */
  keepRows?: boolean;
  /** Keep every release's CSV file in `csvDir`. Default false. */
  keepCsv?: boolean;
  /** Rewrites a day's rows before import (e.g. to force pending outcomes). */
  transform?: (rows: MarketEventRow[], day: string) => MarketEventRow[];
  /** Home folder (default: a fresh temp dir, removed by close()). */
  home?: string;
  /** Called after each imported day (progress). */
  onDay?: (index: number, total: number) => void;
}

/**
 * Simulates `simulator.days` days and imports each day's current release (content as of the archive's
 * check time at `now`, so the newest days hold pending outcomes) into a fresh catalog.
 */
export async function buildSimulatorCatalog(options: SimulatorCatalogOptions = {}): Promise<SimulatorCatalog> {
  const simulator = new MarketSimulator(options.simulator ?? {});
  const home = options.home ?? (await makeTemporaryFolder('rdw-analysis-sim-'));
  const staging = path.join(home, 'csv');
  await mkdir(staging, { recursive: true });
  const catalog = await openCatalog(home);
  const releases: SimulatorCatalog['releases'] = [];
  const kept: MarketEventRow[] = [];
  const days = simulator.days();
  // DuckDB imports day d on its own threads while JavaScript simulates day d+1 (one import at a time).
  let importing: Promise<unknown> = Promise.resolve();
  for (const [index, day] of days.entries()) {
    const asOf = asOfTime(day, simulator.options.now)!;
    let rows = simulator.dayRows(day, asOf);
    if (options.transform) rows = options.transform(rows, day);
    const bundle = buildRelease(day, asOf, rows, day >= simulator.options.schemaSince);
    const csv = bundle.files.csv!;
    const manifest = bundle.files.manifest!;
    const dataPath = path.join(staging, `${day}.csv`);
    await importing;
    await writeFile(dataPath, csv);
    importing = importRelease(catalog, {
      release: bundle.release,
      manifestSha256: sha256Digest(manifest).sha256,
      manifestBytes: manifest.byteLength,
      schema: bundle.release.files.schema,
      format: 'csv',
      data: sha256Digest(csv),
      dataPath,
    }).then(async () => {
      if (!options.keepCsv) await rm(dataPath);
      options.onDay?.(index + 1, days.length);
    });
    releases.push({ id: bundle.release.id, day, rows: rows.length });
    if (options.keepRows ?? true) for (const row of rows) kept.push(row);
  }
  await importing;
  return {
    home,
    catalog,
    releases,
    rows: kept,
    csvDir: staging,
    async close() {
      await catalog.close();
      if (options.home === undefined) await removeTree(home);
    },
  };
}
