// `rdw ls`: the releases in the local catalog (id, day, version, rows, imported_at), noting when a newer
// revision of an imported day is known from listings.

import { catalogMessages, listImportedReleases } from '../../workbench/home-catalog.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { commandMessages } from '../messages.js';
import { formatTable } from '../format-table.js';
import { releaseIdText } from '../release-id-text.js';

export const lsCommand: Command = {
  name: 'ls',
  line: COMMAND_LINES.ls,
  async run(context, args) {
    const catalog = await openCliCatalog(context, 'read');
    const releases = await listImportedReleases(catalog);
    if (context.json) {
      context.stdout.write(`${JSON.stringify(releases)}\n`);
      return;
    }
    if (releases.length === 0) {
      context.stdout.write(`${catalogMessages.noReleases()}\n`);
      return;
    }
    const full = args.values['full-ids'] === true;
    const idText = releaseIdText(releases.map((release) => release.id), full);
    const rows = releases.map((release) => ({
      id: idText(release.id),
      day: release.day,
      version: release.version,
      rows: release.rows,
      // To the minute unless --full-ids, so a row with a note fits 100 columns (--json: to the second).
      imported_at: full ? release.imported_at : String(release.imported_at).replace(/:\d\d(\.\d+)?Z$/, 'Z'),
      note:
        release.newerId === null
          ? release.otherListedId !== null
            ? catalogMessages.otherRevisionListed(release.otherListedId, release.current, full)
            : release.current ? '' : commandMessages.superseded()
          : release.newerImported
            ? commandMessages.supersededBy(release.newerId)
            : commandMessages.newerKnown(release.newerId, full),
    }));
    context.stdout.write(formatTable(['id', 'day', 'version', 'rows', 'imported_at', 'note'], rows));
  },
};
