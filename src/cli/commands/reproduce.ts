// `rdw reproduce <FILE>`: reads a study lock, pulls what is missing by exact ID, verifies every checksum
// and re-hashes every stored file; exit 3 naming release and file on any difference.

import path from 'node:path';
import { importedReleaseIds } from '../../catalog/index.js';
import type { RdwClient } from '../../client/index.js';
import { EXIT_CODES } from '../../contract/index.js';
import { readLock, reproduceStudy } from '../../locks/index.js';
import { connectApi } from '../api-connection.js';
import { CliUsageError } from '../cli-errors.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { byteText } from '../byte-text.js';
import { releaseIdText } from '../release-id-text.js';
import { commandMessages } from '../messages.js';
import { hasCatalog, openCliCatalog } from '../open-cli-catalog.js';

export const reproduceCommand: Command = {
  name: 'reproduce',
  line: COMMAND_LINES.reproduce,
  async run(context, args) {
    // 1. The lock first: a malformed or newer lock fails (exit 2) before anything is opened.
    if (args.positionals.length !== 1) throw new CliUsageError(commandMessages.reproduceUsage(), { option: 'file' });
    const file = args.positionals[0]!;
    const lock = await readLock(path.resolve(context.cwd, file));

    // 2. The catalog (read-only when every locked release is present; created in a new home); the API only
    //    when one is missing.
    let catalog = await openCliCatalog(context, hasCatalog(context.home) ? 'read' : 'write');
    const ids = lock.releases.map((release) => release.id);
    const present = await importedReleaseIds(catalog, ids);
    let client: RdwClient | undefined;
    if (ids.some((id) => !present.has(id))) {
      if (catalog.readOnly) {
        await catalog.close();
        catalog = await openCliCatalog(context, 'write');
      }
      const api = await connectApi(context);
      context.onExit(() => api.close());
      client = api.client;
    }

    // 3. Reproduce (pulls, then verifyStudyLock, the one lock check): any difference throws (exit 3 / 6),
    //    reported by the runner in one sentence.
    const report = await reproduceStudy(lock, catalog, client);
    if (context.json) {
      context.stdout.write(`${JSON.stringify({ lock: path.basename(file), ...report })}\n`);
      return EXIT_CODES.ok;
    }
    const idText = releaseIdText(ids, args.values['full-ids'] === true);
    for (const release of report.releases) {
      context.stdout.write(`OK ${idText(release.id)} ${release.day} ${release.version} ${release.status === 'pulled' ? 'pulled' : 'present'} (${release.filesChecked} files verified)\n`);
    }
    context.stdout.write(
      `reproduced ${path.basename(file)}: ${report.releases.length} release(s), ${report.pulled} pulled, ${report.filesChecked} stored files (${byteText(report.bytesChecked)}) match the lock\n`,
    );
    return EXIT_CODES.ok;
  },
};
