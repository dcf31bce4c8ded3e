// Benchmark (issue 31 item 1): what checking row fingerprints costs over a large catalog, the step every lock check
// (`rdw reproduce`, `rdw study --lock`, Study.open) and `rdw verify` now run. A copy of the event-study bench's
// synthetic 1,100-day catalog (or of `--from HOME`'s catalog.duckdb) in a temp home; per scenario wall and CPU
// seconds (process.cpuUsage counts DuckDB's threads too), median of `--runs`, beside a plain scan of the same rows.
// Run: node --import tsx test/bench/rows-fingerprint.bench.ts [--from HOME] [--days 1100] [--runs 3]. Prints a table and JSON.

import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkReleaseRows, openCatalog, type Catalog } from '../../src/catalog/index.js';
import { createTempHome } from '../support/temp-home.js';
import { formatTable } from './support/format-table.js';
import { syntheticCatalog } from './support/synthetic-catalog.js';

const { values } = parseArgs({ options: { from: { type: 'string' }, days: { type: 'string', default: '1100' }, runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
const source = values.from ?? (await syntheticCatalog(Number(values.days), 1)).home;
const home = await createTempHome('rdw-bench-rows-');
try {
  await copyFile(path.join(source, 'catalog.duckdb'), path.join(home.home, 'catalog.duckdb'));
  const catalog = await openCatalog(home.home);
  try {
    const ids = (await catalog.query<{ id: string }>('SELECT id FROM releases ORDER BY day DESC')).map((row) => row.id);
    const [size] = await catalog.query<{ n: number }>('SELECT count(*)::DOUBLE AS n FROM market_events');
    const scenarios: [string, number, (catalog: Catalog) => Promise<unknown>][] = [
      ['plain scan: count(*) and sum(price) per release, every release', size!.n, (c) => c.query('SELECT release_id, count(*), sum(price) FROM market_events GROUP BY release_id')],
      ['checkReleaseRows, every release (rdw verify)', size!.n, (c) => checkReleaseRows(c)],
      ['checkReleaseRows, the newest 10 releases (a 10-release lock)', NaN, (c) => checkReleaseRows(c, { releaseIds: ids.slice(0, 10) })],
      ['checkReleaseRows, the newest 100 releases', NaN, (c) => checkReleaseRows(c, { releaseIds: ids.slice(0, 100) })],
    ];
    const rows: Record<string, unknown>[] = [];
    for (const [name, n, run] of scenarios) {
      const walls: number[] = [];
      const cpus: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const cpu = process.cpuUsage();
        const started = performance.now();
        await run(catalog);
        walls.push((performance.now() - started) / 1000);
        const used = process.cpuUsage(cpu);
        cpus.push((used.user + used.system) / 1e6);
      }
      const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
      rows.push({ scenario: name, rows: Number.isNaN(n) ? '' : n, wallSeconds: Number(median(walls).toFixed(3)), cpuSeconds: Number(median(cpus).toFixed(3)) });
    }
    console.log(formatTable(['scenario', 'rows', 'wall s', 'CPU s'], rows.map((row) => [row.scenario, row.rows, row.wallSeconds, row.cpuSeconds].map(String))));
    console.log(JSON.stringify({ releases: ids.length, rows: size!.n, runs, scenarios: rows }));
  } finally {
    await catalog.close();
  }
} finally {
  await home.remove();
}
