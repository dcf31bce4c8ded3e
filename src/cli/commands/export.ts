// `rdw export DIR|s3://bucket/prefix [--current]`: Market Events as Hive-partitioned Parquet (`day=YYYY-MM-DD/`),
// into a folder or under an object store's prefix (issue 32 item 4).

import path from 'node:path';
import { catalogMessages, exportParquet } from '../../workbench/home-catalog.js';
import { checkExportStoreUrl, exportToStore, isStoreTarget } from '../../workbench/export-to-store.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import { CliUsageError } from '../cli-errors.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { commandMessages } from '../messages.js';
import { refuseDashOutput, refuseHomeOutput } from '../output-path.js';
import { sayWhileSlow } from '../slow-step-notice.js';

export const exportCommand: Command = {
  name: 'export',
  line: COMMAND_LINES.export,
  async run(context, args) {
    if (args.positionals.length !== 1) throw new CliUsageError(commandMessages.exportNeedsDir(), { option: 'dir' });
    const target = args.positionals[0]!;
    refuseDashOutput(target, { what: 'rdw export', writes: 'it writes a folder of Parquet files', example: 'rdw export ./export', option: 'dir' });
    const current = args.values.current === true;
    if (isStoreTarget(target)) {
      // The URL is checked before the catalog opens, as a bad flag is; the store is reached only after.
      const url = checkExportStoreUrl(target);
      const catalog = await openCliCatalog(context, 'read');
      const result = await sayWhileSlow(context, commandMessages.exporting(), () => exportToStore(catalog, url, { current, env: context.env }));
      if (context.json) context.stdout.write(`${JSON.stringify(result)}\n`);
      else context.stdout.write(`${catalogMessages.exported(result.rows, result.partitions.length, result.url)}\n`);
      return;
    }
    const dir = path.resolve(context.cwd, target);
    await refuseHomeOutput(context.home, dir, { what: 'rdw export', typed: target, example: 'rdw export ./export', option: 'dir', kind: 'folder' });
    const catalog = await openCliCatalog(context, 'read');
    // 100 days take 5-10 s on a busy machine, on a screen that had stayed blank until the result line.
    const result = await sayWhileSlow(context, commandMessages.exporting(), () => exportParquet(catalog, dir, { current }));
    if (context.json) context.stdout.write(`${JSON.stringify(result)}\n`);
    else context.stdout.write(`${catalogMessages.exported(result.rows, result.partitions.length, result.dir)}\n`);
  },
};
