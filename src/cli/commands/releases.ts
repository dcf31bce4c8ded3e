// `rdw releases [--limit N]`: the published releases (newest day first), remembered in the catalog's
// listings so `rdw ls` can tell when a newer revision of an imported day exists.

import { catalogMessages, CatalogOptionError, openCatalog, recordListings } from '../../catalog/index.js';
import { RELEASES_QUERY } from '../../spec/index.js';
import { connectApi } from '../api-connection.js';
import type { Command } from '../command.js';
import { formatTable } from './sql.js';

/** Parses an integer flag in [min, max]; UsageError naming the flag otherwise. */
export function integerFlag(value: unknown, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || number < min || number > max) {
    throw new CatalogOptionError(catalogMessages.badCount(flag, min, max), { option: flag });
  }
  return number;
}

export const releasesCommand: Command = {
  name: 'releases',
  summary: 'List published Market Events releases (newest day first).',
  usage: 'releases [--limit N]',
  options: { limit: { type: 'string' } },
  allowPositionals: false,
  async run(context, args) {
    const limit = integerFlag(args.values.limit, 'limit', RELEASES_QUERY.limit.min, RELEASES_QUERY.limit.max);
    const catalog = await openCatalog(context.home);
    context.onExit(() => catalog.close());
    const api = await connectApi(context);
    context.onExit(() => api.close());
    const releases = await api.client.releases(limit === undefined ? {} : { limit });
    await recordListings(catalog, releases);
    const imported = new Set((await catalog.query('SELECT id FROM releases')).map((row) => String(row.id)));
    if (context.json) {
      context.stdout.write(`${JSON.stringify(releases.map((release) => ({ ...release, imported: imported.has(release.id) })))}\n`);
      return;
    }
    const rows = releases.map((release) => ({
      id: release.id,
      day: release.day,
      version: release.version,
      rows: release.rows,
      generated_at: new Date(release.generated_at * 1000).toISOString().replace('.000Z', 'Z'),
      imported: imported.has(release.id) ? 'yes' : '',
    }));
    context.stdout.write(formatTable(['id', 'day', 'version', 'rows', 'generated_at', 'imported'], rows));
  },
};
