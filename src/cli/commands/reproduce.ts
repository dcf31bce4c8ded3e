// `rdw reproduce <FILE>`: reads a study lock, pulls what is missing by exact ID, verifies every checksum
// and re-hashes every stored file; exit 3 naming release and file on any difference.

import path from 'node:path';
import { EXIT_CODES } from '../../contract/index.js';
import { hasCatalog, reproduceLock } from '../../workbench/index.js';
import { connectApi } from '../api-connection.js';
import { CliUsageError } from '../cli-errors.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { byteText } from '../byte-text.js';
import { releaseIdText } from '../release-id-text.js';
import { commandMessages } from '../messages.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import { deferredInterrupt } from '../deferred-interrupt.js';
import { pullProgressView } from '../pull-progress-view.js';

export const reproduceCommand: Command = {
  name: 'reproduce',
  line: COMMAND_LINES.reproduce,
  async run(context, args) {
    // 1. The lock first: a malformed or newer lock fails (exit 2) before anything is opened.
    if (args.positionals.length !== 1) throw new CliUsageError(commandMessages.reproduceUsage(), { option: 'file' });
    const file = args.positionals[0]!;

    // 2. The lock (exit 2 before anything opens); the catalog (read-only when every locked release is present;
    //    created in a new home); the API only when one is missing. 3. Reproduce (pulls, then verifyStudyLock,
    //    the one lock check): any difference throws (exit 3 / 6), reported by the runner in one sentence.
    //    A terminal shows pull's progress bar over the locked releases (pulled or re-hashed), notices above it.
    //    A first SIGINT/SIGTERM once the catalog is open to write (connect) stops between releases, as rdw pull's (it
    //    had killed the process mid-pull, nothing said, downloaded files left for rdw gc).
    const progress = pullProgressView(context);
    const onProgress = progress.onProgress;
    const interrupt = deferredInterrupt(context, progress.stderr);
    let interrupted = { pulled: 0, missing: 0 };
    const reproduced = await reproduceLock(path.resolve(context.cwd, file), {
      openCatalog: (access) => openCliCatalog(context, access === 'read' && hasCatalog(context.home) ? 'read' : 'write'),
      signal: interrupt.signal,
      onInterrupted: (pulled, missing) => void (interrupted = { pulled, missing }),
      connect: async () => {
        interrupt.start();
        const api = await connectApi({ ...context, stderr: progress.stderr });
        context.onExit(() => api.close());
        return api.client;
      },
      onPlanned: (ids) => progress.planned(ids),
      // A release re-hashed counts as finished on the bar, as one pulled does.
      ...(onProgress === undefined
        ? {}
        : { onProgress: (event) => onProgress(event.kind === 'verified' ? { kind: 'release', releaseId: event.releaseId, status: 'present' } : event) }),
    })
      .catch((error: unknown) => interrupt.stopped(error))
      .finally(() => progress.end());
    if (reproduced === undefined) {
      const message = commandMessages.reproduceInterrupted(interrupt.received!, interrupted.pulled, interrupted.missing);
      return { code: 'RDW_INTERRUPTED', exitCode: interrupt.exitCode!, message };
    }
    const { lock, report } = reproduced;
    const ids = lock.releases.map((release) => release.id);
    if (context.json) {
      context.stdout.write(`${JSON.stringify({ lock: path.basename(file), ...report })}\n`);
      return EXIT_CODES.ok;
    }
    const idText = releaseIdText(ids, args.values['full-ids'] === true);
    for (const release of report.releases) {
      context.stdout.write(`OK ${idText(release.id)} ${release.day} ${release.version} ${release.status === 'pulled' ? 'pulled' : 'present'} (${release.filesChecked} files verified)\n`);
    }
    const line = commandMessages.lockReproduced(path.basename(file), report.releases.length, report.pulled, report.filesChecked, byteText(report.bytesChecked));
    context.stdout.write(`${line}\n`);
    return EXIT_CODES.ok;
  },
};
