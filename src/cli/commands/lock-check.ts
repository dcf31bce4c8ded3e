// `rdw lock check <FILE...>`: names every pinned release whose day has a newer revision in the listing or
// the catalog (src/study checkLockRevisions). Reads only: the catalog read-only, one listing; no lock changes.

import path from 'node:path';
import { EXIT_CODES, RELEASES_QUERY } from '../../contract/index.js';
import { readLock } from '../../index.js';
import { checkLockRevisions, type PinnedReleaseCheck } from '../../workbench/index.js';
import { connectApi } from '../api-connection.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import type { CliContext } from '../cli-context.js';
import { CliUsageError } from '../cli-errors.js';
import { syncMessages } from '../messages.js';
import { lockCheckLines } from '../sync-report-text.js';

/** Checks `files` (study locks); exit 0 whether or not a revision was found (README "Keeping a home current"). */
export async function lockCheck(context: CliContext, files: readonly string[], latest: number | undefined): Promise<number> {
  // 1. Every lock read first: a bad file is said before any request.
  if (files.length === 0 || latest !== undefined) throw new CliUsageError(syncMessages.lockCheckUsage(), { option: files.length === 0 ? 'file' : 'latest' });
  const locks = [];
  for (const file of files) locks.push({ file, lock: await readLock(path.resolve(context.cwd, file)) });

  // 2. The listing (one request) and the catalog's known revisions.
  const catalog = await openCliCatalog(context, 'read');
  const api = await connectApi(context);
  context.onExit(() => api.close());
  const listing = await api.client.releases({ limit: RELEASES_QUERY.limit.max });
  const results: { file: string; releases: PinnedReleaseCheck[] }[] = [];
  for (const { file, lock } of locks) results.push({ file, releases: await checkLockRevisions(catalog, lock, listing) });

  // 3. The report: revised and unlisted pins, per lock.
  const revised = results.reduce((sum, result) => sum + result.releases.filter((check) => check.status === 'revised').length, 0);
  if (context.json) {
    context.stdout.write(`${JSON.stringify({ locks: results, revised })}\n`);
    return EXIT_CODES.ok;
  }
  for (const { file, releases } of results) {
    const lines = lockCheckLines(file, releases);
    if (releases.every((check) => check.status !== 'revised')) lines.unshift(syncMessages.lockNothingRevised(file, releases.length));
    for (const line of lines) context.stdout.write(`${line}\n`);
  }
  return EXIT_CODES.ok;
}
