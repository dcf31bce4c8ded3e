// `rdw releases [--limit N]`: the published releases (newest day first), remembered in the catalog's
// listings so `rdw ls` can tell when a newer revision of an imported day exists.

import { importedReleaseIds, recordListings } from '../../workbench/index.js';
import { connectApi } from '../api-connection.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { formatTable } from '../format-table.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import { releaseIdText } from '../release-id-text.js';

export const releasesCommand: Command = {
  name: 'releases',
  line: COMMAND_LINES.releases,
  async run(context, args) {
    const limit = args.values.limit as number | undefined;
    const api = await connectApi(context);
    context.onExit(() => api.close());
    const releases = await api.client.releases(limit === undefined ? {} : { limit });
    // The catalog only now, for a moment: the request above holds no lock.
    const catalog = await openCliCatalog(context, 'write');
    await recordListings(catalog, releases);
    const imported = await importedReleaseIds(catalog);
    if (context.json) {
      context.stdout.write(`${JSON.stringify(releases.map((release) => ({ ...release, imported: imported.has(release.id) })))}\n`);
      return;
    }
    // The spec names only id, day, version and files of a listed release: a field the service did not
    // give is an empty cell, never an invented value (JSON above keeps it absent).
    const idText = releaseIdText(releases.map((release) => release.id), args.values['full-ids'] === true);
    const rows = releases.map((release) => ({
      id: idText(release.id),
      day: release.day,
      version: shown(release.version),
      rows: Number.isSafeInteger(release.rows) ? release.rows : shown(release.rows),
      generated_at: isoTime(release.generated_at),
      imported: imported.has(release.id) ? 'yes' : '',
    }));
    context.stdout.write(formatTable(['id', 'day', 'version', 'rows', 'generated_at', 'imported'], rows));
  },
};

/** A listed value as table text: absent or null is empty; anything else as the service gave it. */
function shown(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** UTC Unix seconds as ISO time (whole seconds without `.000`); a value that is not a time is shown as given. */
function isoTime(value: unknown): string {
  if (typeof value !== 'number') return shown(value);
  const date = new Date(value * 1000);
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString().replace('.000Z', 'Z');
}
