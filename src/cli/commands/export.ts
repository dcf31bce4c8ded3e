// `rdw export DIR [--current]`: Market Events as Hive-partitioned Parquet (`day=YYYY-MM-DD/`).

import path from 'node:path';
import { catalogMessages, exportParquet } from '../../workbench/home-catalog.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import { CliUsageError } from '../cli-errors.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { commandMessages } from '../messages.js';
import { refuseDashOutput } from '../output-path.js';

export const exportCommand: Command = {
  name: 'export',
  line: COMMAND_LINES.export,
  async run(context, args) {
    if (args.positionals.length !== 1) throw new CliUsageError(commandMessages.exportNeedsDir(), { option: 'dir' });
    refuseDashOutput(args.positionals[0], { what: 'rdw export', writes: 'it writes a folder of Parquet files', example: 'rdw export ./export', option: 'dir' });
    const catalog = await openCliCatalog(context, 'read');
    const result = await exportParquet(catalog, path.resolve(context.cwd, args.positionals[0]!), { current: args.values.current === true });
    if (context.json) context.stdout.write(`${JSON.stringify(result)}\n`);
    else context.stdout.write(`${catalogMessages.exported(result.rows, result.partitions.length, result.dir)}\n`);
  },
};
