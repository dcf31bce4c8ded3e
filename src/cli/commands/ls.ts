// `rdw ls`: the releases in the local catalog (id, day, version, rows, imported_at), noting when a newer
// revision of an imported day is known from listings.

import { catalogMessages, listImportedReleases, openCatalog } from '../../catalog/index.js';
import type { Command } from '../command.js';
import { formatTable } from './sql.js';

export const lsCommand: Command = {
  name: 'ls',
  summary: 'List the releases in the local catalog.',
  usage: 'ls',
  options: {},
  allowPositionals: false,
  async run(context) {
    const catalog = await openCatalog(context.home, { readOnly: true });
    context.onExit(() => catalog.close());
    const releases = await listImportedReleases(catalog);
    if (context.json) {
      context.stdout.write(`${JSON.stringify(releases)}\n`);
      return;
    }
    if (releases.length === 0) {
      context.stdout.write(`${catalogMessages.noReleases()}\n`);
      return;
    }
    const rows = releases.map((release) => ({
      id: release.id,
      day: release.day,
      version: release.version,
      rows: release.rows,
      imported_at: release.imported_at,
      note:
        release.newerId === null
          ? release.otherListedId !== null
            ? catalogMessages.otherRevisionListed(release.otherListedId, release.current)
            : release.current ? '' : 'superseded'
          : release.newerImported
            ? `superseded by ${release.newerId.slice(0, 12)}…`
            : `newer revision ${release.newerId.slice(0, 12)}… known: rdw pull ${release.newerId}`,
    }));
    context.stdout.write(formatTable(['id', 'day', 'version', 'rows', 'imported_at', 'note'], rows));
  },
};
