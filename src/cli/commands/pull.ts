// `rdw pull <RELEASE_ID...> | --latest N`: download, verify, import; idempotent. A progress bar on a
// terminal, one line per release otherwise, one JSON document with --json.

import { EXIT_CODES, failureOf } from '../../contract/index.js';
import type { PullReleasesResult } from '../../index.js';
import { acceptedNotices, catalogMessages, checkWantedReleases, pullWanted, storeMessages, workbenchMessages } from '../../workbench/index.js';
import { connectApi } from '../api-connection.js';
import { CliUsageError } from '../cli-errors.js';
import type { Command, ReportedFailure } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { listenForInterrupt } from '../interrupt-listener.js';
import { commandMessages } from '../messages.js';
import { releaseIdText } from '../release-id-text.js';
import { pullProgressView } from '../pull-progress-view.js';
import { openCliCatalog } from '../open-cli-catalog.js';

export const pullCommand: Command = {
  name: 'pull',
  line: COMMAND_LINES.pull,
  async run(context, args) {
    // 1. Arguments, before any request: exact IDs or --latest N, never both.
    const latest = args.values.latest as number | undefined;
    const concurrency = args.values.concurrency as number | undefined;
    if ((latest === undefined) === (args.positionals.length === 0)) throw new CliUsageError(commandMessages.pullNeedsIds(), { option: 'latest' });
    const wanted = latest === undefined ? { ids: args.positionals } : { latest };
    checkWantedReleases(wanted);

    // Notices during the pull (a 429 wait, a redirect, a signal) are written above the progress bar, not after it.
    const progress = pullProgressView(context);
    const stderr = progress.stderr;

    // 2. The catalog (waits while another process holds it: a signal then ends the process, nothing written).
    const catalog = await openCliCatalog(context, 'write');
    // The team store's notices (RDW_STORE_URL), like the client's, go above the progress bar.
    catalog.store.team?.sayTo((sentence) => stderr.write(`rdw: ${sentence}\n`));

    // 3. From here a first SIGINT/SIGTERM stops between releases and still reports (exit 130/143); then the API.
    const interrupt = listenForInterrupt(stderr);
    context.onExit(() => interrupt.dispose());
    const api = await connectApi({ ...context, stderr });
    context.onExit(() => api.close());

    // 4. The latest N listed (and remembered) or the IDs as given; pulled with progress: a bar on a terminal,
    // otherwise quiet lines.
    const { ids, result, restated } = await pullWanted(catalog, api.client, wanted, {
      ...(concurrency === undefined ? {} : { concurrency }),
      signal: interrupt.signal,
      onPlanned: (planned) => progress.planned(planned),
      // Without a bar (piped, --json) no progress is taken: the client then says a slow download's wait itself.
      ...(progress.onProgress === undefined ? {} : { onProgress: progress.onProgress }),
    });
    progress.end();
    // What the releases carried beyond the contract and was accepted: one line per kind, once per pull.
    const accepted = acceptedNotices(result.pulled);
    for (const notice of accepted) context.stderr.write(`rdw: ${notice.message}\n`);
    // The listing restating a release imported before (kept as verified): said, never silently "present".
    for (const { id, field, imported, listed } of restated) context.stderr.write(`rdw: ${workbenchMessages.listingRestated(id, field, imported, listed)}\n`);
    // A listing with nothing usable (empty, or every item without a usable id or day) is said, not a silent exit 0.
    if (ids.length === 0 && 'latest' in wanted && interrupt.received === undefined) context.stderr.write(`rdw: ${commandMessages.pullListedNothing()}\n`);
    // Through a team store the pull lines look the same: one line says what the store gave and took.
    const team = catalog.store.team;
    if (team !== undefined) context.stderr.write(`rdw: ${storeMessages.pullUsedStore(team.href, team.counts.verified, team.counts.published, team.counts.refused)}\n`);

    if (context.json) {
      const failed = result.failed.map(({ id, error }) => ({ id, ...failureOf(error) }));
      const interrupted = interrupt.received === undefined ? {} : { interrupted: interrupt.received, notPulled: result.notStarted };
      const stopped = result.stoppedBy === undefined ? {} : { stopped: true, notPulled: result.notStarted };
      const restatedShown = restated.length === 0 ? {} : { restated };
      context.stdout.write(`${JSON.stringify({ pulled: result.pulled, failed, accepted, ...restatedShown, ...stopped, ...interrupted })}\n`);
      if (interrupt.received !== undefined) return interruptedFailure(interrupt.received, interrupt.exitCode!, result, ids.length);
      const [first] = failed;
      if (first !== undefined) {
        const summary =
          result.stoppedBy === undefined ? catalogMessages.pullFailed(failed.length, result.pulled.length + failed.length) : stoppedSummary(result);
        const message = result.stoppedBy === undefined ? `${summary} ${first.message}` : `${first.message} ${summary}`;
        return { code: first.code, exitCode: first.exitCode, message };
      }
    } else {
      const idText = releaseIdText(ids, args.values['full-ids'] === true);
      for (const pulled of result.pulled) {
        context.stdout.write(`${commandMessages.pulledLine(pulled.status === 'imported', idText(pulled.id), pulled.day, pulled.version, pulled.rows)}\n`);
      }
      // A present release whose stored files were missing: they were fetched again by ID (said once each).
      for (const { id, repaired } of result.pulled) {
        if (repaired !== undefined) context.stderr.write(`rdw: ${catalogMessages.pullRepaired(id, repaired.length, repaired.some((file) => file.reimported.length > 0))}\n`);
      }
      // A pull stopped by this machine (a full disk) says so once, not once per release it did not pull.
      if (result.stoppedBy === undefined || interrupt.received !== undefined) {
        for (const id of result.notStarted) context.stdout.write(`${commandMessages.notPulledLine(idText(id))}\n`);
      }
      for (const { error } of result.failed) context.stderr.write(`rdw: ${failureOf(error).message}\n`);
      if (interrupt.received !== undefined) return interruptedFailure(interrupt.received, interrupt.exitCode!, result, ids.length);
      if (result.stoppedBy !== undefined) context.stderr.write(`rdw: ${stoppedSummary(result)}\n`);
      else if (result.failed.length > 0) context.stderr.write(`rdw: ${catalogMessages.pullFailed(result.failed.length, result.pulled.length + result.failed.length)}\n`);
    }
    const first = result.failed[0]?.error;
    if (first === undefined) return EXIT_CODES.ok;
    return failureOf(first).exitCode;
  },
};

/** The closing sentence of a pull that a failure of this machine stopped. */
function stoppedSummary(result: PullReleasesResult): string {
  const imported = result.pulled.filter((pulled) => pulled.status === 'imported').length;
  return commandMessages.pullStopped(imported, result.notStarted.length + result.failed.length);
}

/** The closing sentence of an interrupted pull (exit 130 for SIGINT, 143 for SIGTERM). */
function interruptedFailure(signal: string, exitCode: number, result: PullReleasesResult, planned: number): ReportedFailure {
  const imported = result.pulled.filter((pulled) => pulled.status === 'imported').length;
  const notPulled = result.notStarted.length + result.failed.length;
  // Done: releases were planned (the listing was not cut) and every one settled before the signal was heard.
  const done = planned > 0 && notPulled === 0;
  return { code: 'RDW_INTERRUPTED', exitCode, message: commandMessages.pullInterrupted(signal, imported, notPulled, done) };
}
