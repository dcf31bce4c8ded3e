// `rdw lock <FILE> (<RELEASE_ID...> | --latest N)`: pins exact releases in a study lock (DESIGN.md 2.5).
// Named IDs missing from the catalog are pulled by their exact ID first; --latest N lists, pulls, pins.

import path from 'node:path';
import { CatalogOptionError, checkReleaseIds, openCatalog, pullReleases, recordListings } from '../../catalog/index.js';
import { EXIT_CODES, RELEASES_QUERY, UsageError } from '../../contract/index.js';
import { checkLockIds, studyLockToJson, studyMessages, writeLock } from '../../study/index.js';
import { connectApi } from '../api-connection.js';
import type { Command } from '../command.js';
import { integerFlag } from './releases.js';

export const lockCommand: Command = {
  name: 'lock',
  summary: 'Write a study lock pinning exact releases (pulls missing IDs by ID).',
  usage: 'lock <FILE> (<RELEASE_ID...> | --latest N)',
  options: { latest: { type: 'string' } },
  allowPositionals: true,
  async run(context, args) {
    // 1. Arguments before anything else: a file, then exact IDs or --latest N, never both.
    const [file, ...ids] = args.positionals;
    if (file === undefined) throw new UsageError(studyMessages.lockUsage(), { option: 'file' });
    const latest = integerFlag(args.values.latest, 'latest', RELEASES_QUERY.limit.min, RELEASES_QUERY.limit.max);
    if ((latest === undefined) === (ids.length === 0)) throw new CatalogOptionError(studyMessages.lockUsage(), { option: 'latest' });
    if (latest === undefined) {
      checkReleaseIds(ids);
      checkLockIds(ids);
    }
    const lockPath = path.resolve(context.cwd, file);

    // 2. The catalog; the API only when something must be listed or pulled.
    const catalog = await openCatalog(context.home);
    context.onExit(() => catalog.close());
    let wanted = [...new Set(ids)];
    let missing = await missingIds(catalog, wanted);
    if (latest !== undefined || missing.length > 0) {
      const api = await connectApi(context);
      context.onExit(() => api.close());
      if (latest !== undefined) {
        const listed = await api.client.releases({ limit: latest });
        await recordListings(catalog, listed);
        wanted = listed.map((release) => release.id);
        missing = await missingIds(catalog, wanted);
      }
      const result = await pullReleases(catalog, api.client, missing);
      const failed = result.failed[0];
      if (failed !== undefined) throw failed.error;
      if (!context.json) for (const pulled of result.pulled) context.stderr.write(`pulled ${pulled.id} ${pulled.day} ${pulled.version}\n`);
    }

    // 3. Record and write the lock atomically.
    const lock = await writeLock(lockPath, catalog, wanted);
    if (context.json) {
      context.stdout.write(studyLockToJson(lock));
      return EXIT_CODES.ok;
    }
    const first = lock.releases[0]!;
    const last = lock.releases[lock.releases.length - 1]!;
    context.stdout.write(`wrote ${path.relative(context.cwd, lockPath) || file}: ${lock.releases.length} release(s) of ${lock.dataset}, ${first.day} .. ${last.day}, calculation versions ${lock.calculationVersions.join(', ') || 'none'}\n`);
    for (const release of lock.releases) {
      const formats = Object.keys(release.files).join('+');
      context.stdout.write(`  ${release.id} ${release.day} ${release.version} manifest ${release.manifestSha256.slice(0, 12)} ${formats}\n`);
    }
    return EXIT_CODES.ok;
  },
};

async function missingIds(catalog: Awaited<ReturnType<typeof openCatalog>>, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await catalog.query(`SELECT id FROM releases WHERE id IN (${ids.map((id) => `'${id}'`).join(', ')})`);
  const present = new Set(rows.map((row) => String(row.id)));
  return ids.filter((id) => !present.has(id));
}
