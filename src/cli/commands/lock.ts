// `rdw lock <FILE> (<RELEASE_ID...> | --latest N)`: pins exact releases in a study lock (DESIGN.md 2.5).
// Named IDs missing from the catalog are pulled by their exact ID first; --latest N lists, pulls, pins.

import { stat } from 'node:fs/promises';
import path from 'node:path';
import { EXIT_CODES } from '../../contract/index.js';
import { studyLockToJson } from '../../index.js';
import type { PullReleasesResult } from '../../index.js';
import { checkWantedReleases, hasCatalog, lockReleases } from '../../workbench/index.js';
import { connectApi } from '../api-connection.js';
import { CliUsageError } from '../cli-errors.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { releaseIdText } from '../release-id-text.js';
import { commandMessages } from '../messages.js';
import { lockCheck } from './lock-check.js';
import { refuseDashOutput, refuseHomeOutput } from '../output-path.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import { deferredInterrupt } from '../deferred-interrupt.js';
import { pullProgressView } from '../pull-progress-view.js';
import { sayWhileSlow } from '../slow-step-notice.js';

export const lockCommand: Command = {
  name: 'lock',
  line: COMMAND_LINES.lock,
  async run(context, args) {
    if (args.positionals[0] === 'check') return lockCheck(context, args.positionals.slice(1), args.values.latest as number | undefined);
    // 1. Arguments before anything else: a file, then exact IDs or --latest N, never both.
    const [file, ...ids] = args.positionals;
    if (file === undefined) throw new CliUsageError(commandMessages.lockUsage(), { option: 'file' });
    refuseDashOutput(file, { what: 'rdw lock', writes: 'it writes the lock to a file (--json also prints it)', example: 'rdw lock study.lock.json --latest 10', option: 'file' });
    const latest = args.values.latest as number | undefined;
    if ((latest === undefined) === (ids.length === 0)) throw new CliUsageError(commandMessages.lockUsage(), { option: 'latest' });
    // Exact IDs (contract's checkReleaseId, one sentence); recordStudyLock dedupes them later.
    const wanted = latest === undefined ? { ids } : { latest };
    checkWantedReleases(wanted);
    const lockPath = path.resolve(context.cwd, file);
    // A lock in a folder that does not exist is refused before anything is pulled (exit 2).
    const folder = await stat(path.dirname(lockPath)).catch(() => undefined);
    if (folder === undefined || !folder.isDirectory()) throw new CliUsageError(commandMessages.lockNoFolder(file), { option: 'file' });
    await refuseHomeOutput(context.home, lockPath, { what: 'rdw lock', typed: file, example: 'rdw lock study.lock.json --latest 10', option: 'file' });

    // 2. The catalog (read-only while only present IDs are pinned, and when there is one); the API only when
    // something must be listed or pulled, with pull's progress bar on a terminal (notices above it);
    // 3. the lock recorded and written atomically.
    // A first SIGINT/SIGTERM once the catalog is open to write (connect) stops between releases, as rdw pull's: it
    // had killed the process mid-pull, the bar left as drawn, downloaded files left for rdw gc, nothing said.
    const progress = pullProgressView(context);
    const interrupt = deferredInterrupt(context, progress.stderr);
    let interruptedPull: PullReleasesResult | undefined;
    const locked = await lockReleases(lockPath, wanted, {
      openCatalog: (access) => openCliCatalog(context, access === 'read' && hasCatalog(context.home) ? 'read' : 'write'),
      connect: async () => {
        interrupt.start();
        const api = await connectApi({ ...context, stderr: progress.stderr });
        context.onExit(() => api.close());
        return api.client;
      },
      signal: interrupt.signal,
      onInterrupted: (pulled) => void (interruptedPull = pulled),
      // After the pull (its bar ended): 100 present releases had sat 4-6 s on a blank screen while their rows were checked.
      whileRecording: (work) => sayWhileSlow(context, commandMessages.lockRecording(), work),
      onPlanned: (ids) => progress.planned(ids),
      ...(progress.onProgress === undefined ? {} : { onProgress: progress.onProgress }),
      onPulled: (pulledIds, pulled) => {
        progress.end();
        const pulledId = releaseIdText(pulledIds, args.values['full-ids'] === true);
        if (!context.json) for (const release of pulled) context.stderr.write(`rdw: ${commandMessages.lockPulled(pulledId(release.id), release.day, release.version)}\n`);
      },
    })
      .catch((error: unknown) => interrupt.stopped(error))
      .finally(() => progress.end());
    if (locked === undefined) {
      const imported = interruptedPull?.pulled.filter((pulled) => pulled.status === 'imported').length ?? 0;
      const notPulled = (interruptedPull?.notStarted.length ?? 0) + (interruptedPull?.failed.length ?? 0);
      return { code: 'RDW_INTERRUPTED', exitCode: interrupt.exitCode!, message: commandMessages.lockInterrupted(interrupt.received!, imported, notPulled) };
    }
    const { lock } = locked;
    if (context.json) {
      context.stdout.write(studyLockToJson(lock));
      return EXIT_CODES.ok;
    }
    const first = lock.releases[0]!;
    const last = lock.releases[lock.releases.length - 1]!;
    const versions = lock.calculationVersions.join(', ') || 'none';
    context.stdout.write(`${commandMessages.lockWritten(file, lock.releases.length, lock.dataset, first.day, last.day, versions)}\n`);
    // The lock file holds whole IDs; the lines show them as rdw ls does (--full-ids: whole).
    const idText = releaseIdText(lock.releases.map((release) => release.id), args.values['full-ids'] === true);
    for (const release of lock.releases) {
      const formats = Object.keys(release.files).join('+');
      // The data files by name only (their checksums are in the lock): a bare "parquet" after a digest read as one missing.
      context.stdout.write(`  ${idText(release.id)} ${release.day} ${release.version} manifest sha256 ${release.manifestSha256.slice(0, 12)}, files: ${formats}\n`);
    }
    return EXIT_CODES.ok;
  },
};
