// `rdw gc [--dry-run]`: removes store files no release references and store/tmp leftovers, all or nothing.

import { catalogMessages, collectGarbage } from '../../workbench/home-catalog.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';

export const gcCommand: Command = {
  name: 'gc',
  line: COMMAND_LINES.gc,
  async run(context, args) {
    // A dry run changes nothing, so it makes no home either: at a mistyped --home it says No catalog (exit 1).
    const dryRun = args.values['dry-run'] === true;
    const catalog = await openCliCatalog(context, 'write', { create: !dryRun });
    const result = await collectGarbage(catalog, { dryRun });
    if (context.json) {
      context.stdout.write(`${JSON.stringify(result)}\n`);
      return;
    }
    const files = [...result.unreferenced, ...result.temp];
    if (dryRun) for (const file of files) context.stdout.write(`${file.file}\t${file.bytes}\n`);
    context.stdout.write(`${dryRun ? catalogMessages.gcDryRun(files.length, result.bytes) : catalogMessages.gcDone(result.removed, result.bytes)}\n`);
  },
};
