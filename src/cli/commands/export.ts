// `rdw export DIR|s3://bucket/prefix [--current]`: Market Events as Hive-partitioned Parquet (`day=YYYY-MM-DD/`),
// into a folder or under an object store's prefix (issue 32 item 4).

import path from 'node:path';
import { catalogMessages, exportParquet, exportParquetToStore } from '../../catalog/index.js';
import { parseStoreUrl, S3ObjectStore } from '../../store/index.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import { CliUsageError } from '../cli-errors.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { commandMessages } from '../messages.js';
import { refuseDashOutput } from '../output-path.js';

/** `s3://…` (any case) is an object store's prefix; anything else is a folder. */
const STORE_TARGET = /^s3:\/\//i;

export const exportCommand: Command = {
  name: 'export',
  line: COMMAND_LINES.export,
  async run(context, args) {
    if (args.positionals.length !== 1) throw new CliUsageError(commandMessages.exportNeedsDir(), { option: 'dir' });
    const target = args.positionals[0]!;
    refuseDashOutput(target, { what: 'rdw export', writes: 'it writes a folder of Parquet files', example: 'rdw export ./export', option: 'dir' });
    const current = args.values.current === true;
    if (STORE_TARGET.test(target)) {
      // The URL is checked before the catalog opens, as a bad flag is; the store is reached only after.
      const url = parseStoreUrl(target, { option: 'dir', describe: catalogMessages.exportStoreUrl });
      const catalog = await openCliCatalog(context, 'read');
      const store = await S3ObjectStore.open(url, { env: context.env });
      try {
        const result = await exportParquetToStore(catalog, store, { current });
        if (context.json) context.stdout.write(`${JSON.stringify(result)}\n`);
        else context.stdout.write(`${catalogMessages.exported(result.rows, result.partitions.length, result.url)}\n`);
      } finally {
        store.close();
      }
      return;
    }
    const catalog = await openCliCatalog(context, 'read');
    const result = await exportParquet(catalog, path.resolve(context.cwd, target), { current });
    if (context.json) context.stdout.write(`${JSON.stringify(result)}\n`);
    else context.stdout.write(`${catalogMessages.exported(result.rows, result.partitions.length, result.dir)}\n`);
  },
};
