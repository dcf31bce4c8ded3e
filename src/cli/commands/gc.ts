// `rdw gc [--dry-run]`: removes store files no release references and store/tmp leftovers, all or nothing.

import { catalogMessages, collectGarbage } from '../../workbench/home-catalog.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';

export const gcCommand: Command = {
  name: 'gc',
  line: COMMAND_LINES.gc,
  async run(context, args) {
    // A dry run changes nothing, so it only reads: no home made (at a mistyped --home it says No catalog, exit 1),
    // the catalog opened read-only, beside the home's readers (a notebook, rdw sql) and on a read-only mount. It
    // opened the writer's lock: it waited for any reader, then failed, and a read-only home was "cannot write there".
    const dryRun = args.values['dry-run'] === true;
    const catalog = await openCliCatalog(context, dryRun ? 'read' : 'write');
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
