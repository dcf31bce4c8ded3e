// `rdw research catalog | get <DATASET_ID> | csv <DATASET_ID>`: the free Research scope (any valid key).
// A snapshot's observation time, calculation version and `stale` flag are always shown, never hidden.

import { UsageError } from '../../spec/index.js';
import type { ResearchSnapshot, ResearchTable } from '../../client/index.js';
import { connectApi } from '../api-connection.js';
import type { CliContext } from '../cli-context.js';
import type { Command } from '../command.js';
import { formatTable } from './sql.js';

export const researchCommand: Command = {
  name: 'research',
  summary: 'The free Research scope: the catalog, a dataset snapshot, or its CSV rows.',
  usage: 'research catalog | get <DATASET_ID> | csv <DATASET_ID>',
  options: {},
  allowPositionals: true,
  async run(context, args) {
    const [action, datasetId, ...extra] = args.positionals;
    const needsId = action === 'get' || action === 'csv';
    if (!(action === 'catalog' || needsId) || (needsId ? datasetId === undefined || extra.length > 0 : datasetId !== undefined)) {
      throw new UsageError('Use "rdw research catalog", "rdw research get <DATASET_ID>" or "rdw research csv <DATASET_ID>".');
    }
    const api = await connectApi(context);
    context.onExit(() => api.close());
    if (action === 'catalog') {
      const catalog = await api.client.research.catalog();
      if (context.json) return void context.stdout.write(`${JSON.stringify(catalog)}\n`);
      context.stdout.write(`${catalog.scope}\n\n`);
      const rows = catalog.datasets.map((dataset) => ({ id: dataset.id, calculation_version: dataset.calculation_version, json: dataset.json_url, csv: dataset.csv_url }));
      context.stdout.write(`${formatTable(['id', 'calculation_version', 'json', 'csv'], rows)}\n`);
      context.stdout.write(`\nLimits: ${catalog.limits.keys} key(s), ${catalog.limits.rpm} requests/min, ${catalog.limits.daily_bytes} paid bytes/day.\n`);
      return;
    }
    if (action === 'get') return writeSnapshot(context, await api.client.research.snapshot(datasetId!));
    return writeCsv(context, await api.client.research.csv(datasetId!));
  },
};

/** Prints a snapshot: its envelope (observation time, version, stale) and its items as a table. */
export function writeSnapshot(context: CliContext, snapshot: ResearchSnapshot): void {
  if (context.json) return void context.stdout.write(`${JSON.stringify(snapshot)}\n`);
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  context.stdout.write(
    `${snapshot.key}: observed ${iso(snapshot.updated)}, generated ${iso(snapshot.generated_at)}, calculation ${snapshot.calculation_version}` +
      `${snapshot.stale ? ' — STALE: older than its freshness boundary' : ''}\n`,
  );
  const columns = Object.keys(snapshot.items[0] ?? {});
  context.stdout.write(`${formatTable(columns, snapshot.items)}\n`);
}

/** Prints CSV rows again as CSV (header first), or as JSON rows with --json. */
export function writeCsv(context: CliContext, table: ResearchTable): void {
  if (context.json) return void context.stdout.write(`${JSON.stringify(table.rows)}\n`);
  const field = (value: unknown) => {
    const text = value === null || value === undefined ? '' : String(value);
    return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const lines = [table.columns.map(field).join(','), ...table.rows.map((row) => table.columns.map((column) => field(row[column])).join(','))];
  context.stdout.write(`${lines.join('\n')}\n`);
}
