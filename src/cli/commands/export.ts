// `rdw export DIR [--current]`: Market Events as Hive-partitioned Parquet (`day=YYYY-MM-DD/`).

import { catalogMessages, CatalogOptionError, exportParquet, openCatalog } from '../../catalog/index.js';
import path from 'node:path';
import type { Command } from '../command.js';

export const exportCommand: Command = {
  name: 'export',
  summary: 'Export Market Events as Hive-partitioned Parquet (day=YYYY-MM-DD/) for Spark, Trino or DuckDB.',
  usage: 'export <DIR> [--current]',
  options: { current: { type: 'boolean', default: false } },
  allowPositionals: true,
  async run(context, args) {
    if (args.positionals.length !== 1) throw new CatalogOptionError(catalogMessages.exportNeedsDir(), { option: 'dir' });
    const catalog = await openCatalog(context.home, { readOnly: true });
    context.onExit(() => catalog.close());
    const result = await exportParquet(catalog, path.resolve(context.cwd, args.positionals[0]!), { current: args.values.current === true });
    if (context.json) context.stdout.write(`${JSON.stringify(result)}\n`);
    else context.stdout.write(`${catalogMessages.exported(result.rows, result.partitions.length, result.dir)}\n`);
  },
};
