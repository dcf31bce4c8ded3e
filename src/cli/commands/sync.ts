// `rdw sync [--snapshots ID,...] [--locks FILE,...] [--watch INTERVAL]`: brings the home up to date (src/workbench
// syncHome) under the home's sync lock; one report per run, or one line per run with --watch.

import path from 'node:path';
import { signalExitCode, utcSecondsText } from '../../base/index.js';
import { EXIT_CODES, failureOf } from '../../contract/index.js';
import { readLock, type StudyLock } from '../../index.js';
import { acquireSyncLock, syncHome, SyncBusyError, type SyncReport } from '../../workbench/index.js';
import { connectApi, type ApiConnection } from '../api-connection.js';
import { sayWhileSlow } from '../slow-step-notice.js';
import type { CliContext } from '../cli-context.js';
import type { Command, ReportedFailure } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import { commandMessages, syncMessages } from '../messages.js';
import { syncReportText, syncSummaryLine, syncWarnings } from '../sync-report-text.js';
import { parseWatchInterval } from '../watch-interval.js';
import { listenForInterrupt, type InterruptListener } from '../interrupt-listener.js';

interface SyncArgs {
  snapshots: string[] | undefined;
  locks: { file: string; lock: StudyLock }[];
  concurrency: number | undefined;
  /** Stops a single run between releases (SIGINT/SIGTERM); a second signal still removes the sync lock. */
  interrupt?: InterruptListener;
}

export const syncCommand: Command = {
  name: 'sync',
  line: COMMAND_LINES.sync,
  async run(context, args) {
    // 1. Flags and lock files, before any lock, catalog or request.
    const watch = args.values.watch as string | undefined;
    const intervalSeconds = watch === undefined ? undefined : parseWatchInterval(watch);
    const lockFiles = (args.values.locks as string[] | undefined) ?? [];
    const locks = [];
    for (const file of lockFiles) locks.push({ file, lock: await readLock(path.resolve(context.cwd, file)) });
    const syncArgs: SyncArgs = { snapshots: args.values.snapshots as string[] | undefined, locks, concurrency: args.values.concurrency as number | undefined };

    // 2. One run, or a run every interval until SIGINT/SIGTERM.
    const api = await connectApi(context);
    context.onExit(() => api.close());
    if (intervalSeconds === undefined) {
      // A first SIGINT/SIGTERM stops the run between releases: the lock is released, the run recorded as
      // interrupted, and the exit code is 130/143 (--watch has its own handling: it stops after the run).
      const interrupt = listenForInterrupt(context.stderr);
      context.onExit(() => interrupt.dispose());
      const report = await syncOnce(context, api, { ...syncArgs, interrupt });
      if (context.json) context.stdout.write(`${JSON.stringify(report)}\n`);
      else context.stdout.write(syncReportText(report));
      for (const warning of syncWarnings(report)) context.stderr.write(`rdw: ${warning}\n`);
      for (const failure of report.failed) context.stderr.write(`rdw: ${failure.message}\n`);
      if (report.interrupted !== undefined) return syncInterrupted(report, report.interrupted);
      if (context.json && report.exitCode !== EXIT_CODES.ok) return syncFailure(report);
      return report.exitCode;
    }
    return watchLoop(context, api, syncArgs, watch!, intervalSeconds);
  },
};

/** An interrupted sync's closing sentence (as the error object under --json), exit 130/143. */
function syncInterrupted(report: SyncReport, { signal, notPulled }: { signal: string; notPulled: string[] }): ReportedFailure {
  const imported = report.new.length + report.revised.length;
  return { code: 'RDW_INTERRUPTED', exitCode: report.exitCode, message: syncMessages.syncInterrupted(signal, imported, notPulled.length) };
}

/** A failed sync under --json, as the one error object: its first failed release, else its first failed snapshot. */
function syncFailure(report: SyncReport): ReportedFailure {
  const release = report.failed[0];
  if (release !== undefined) return { code: release.code, exitCode: release.exitCode, message: release.message };
  const snapshot = report.snapshots.find((candidate) => candidate.status === 'failed');
  return { code: snapshot?.code ?? 'RDW_SYNC_FAILED', exitCode: report.exitCode, message: snapshot?.reason ?? syncMessages.syncFailed(report.exitCode) };
}

/** One sync under the home's sync lock: the lock first (a second sync exits at once), then the catalog. */
async function syncOnce(context: CliContext, api: ApiConnection, args: SyncArgs): Promise<SyncReport> {
  const lock = await acquireSyncLock(context.home);
  const forget = args.interrupt?.beforeExitAtOnce(() => lock.releaseNow());
  try {
    if (lock.notice !== undefined) context.stderr.write(`${lock.notice}\n`);
    // Closed after each run (a --watch loop must not hold the catalog between runs); the exit clean-up is then a no-op.
    const catalog = await openCliCatalog(context, 'write');
    try {
      return await sayWhileSlow(context, commandMessages.syncing(), () =>
        syncHome(catalog, api.client, {
          ...(args.snapshots === undefined ? {} : { snapshots: args.snapshots }),
          locks: args.locks,
          ...(args.concurrency === undefined ? {} : { concurrency: args.concurrency }),
          ...(args.interrupt === undefined ? {} : { signal: args.interrupt.signal }),
        }),
      );
    } finally {
      await catalog.close();
    }
  } finally {
    await lock.release();
    forget?.();
  }
}

/**
 * Runs a sync every `seconds` until the first SIGINT/SIGTERM. A signal during a run stops that run between
 * releases as a single sync does (recorded as interrupted, sync.lock released) and ends the loop with
 * 128 + the signal's number (130, 143); a signal between runs ends it at once with exit 0 (nothing was cut
 * short). A second signal during a run exits at once, still removing sync.lock.
 */
async function watchLoop(context: CliContext, api: ApiConnection, args: SyncArgs, interval: string, seconds: number): Promise<number> {
  let running = false;
  let wake: (() => void) | undefined;
  // The listener's "stopping after the releases in flight" is said only while a run is in flight.
  const interrupt = listenForInterrupt({ isTTY: context.stderr.isTTY, write: (text) => (running ? context.stderr.write(text) : undefined) });
  const stop = () => wake?.();
  interrupt.signal.addEventListener('abort', stop);
  if (!context.json) context.stderr.write(`${syncMessages.watchStarted(interval)}\n`);
  let signalledDuringRun = false;
  try {
    while (interrupt.received === undefined) {
      running = true;
      const at = utcSecondsText(Date.now());
      try {
        const report = await syncOnce(context, api, { ...args, interrupt });
        context.stdout.write(context.json ? `${JSON.stringify(report)}\n` : `${syncSummaryLine(report)}\n`);
        for (const warning of syncWarnings(report)) context.stderr.write(`rdw: ${warning}\n`);
        if (report.interrupted !== undefined) {
          const { message } = syncInterrupted(report, report.interrupted);
          if (!context.json) context.stderr.write(`rdw: ${message}\n`);
        }
      } catch (error) {
        // A run that could not start or list is one line (under --json one object with the error, as a report
        // line is one object); the loop goes on (the next run may succeed).
        const failure = failureOf(error);
        const skipped = error instanceof SyncBusyError;
        context.stdout.write(
          context.json
            ? `${JSON.stringify({ at, skipped, error: failure })}\n`
            : `${skipped ? syncMessages.watchBusy(at, failure.message) : syncMessages.watchFailed(at, failure.message)}\n`,
        );
        if (failure.exitCode === EXIT_CODES.usage) return failure.exitCode;
      } finally {
        running = false;
      }
      if (interrupt.received !== undefined) {
        signalledDuringRun = true;
        break;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, seconds * 1000);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
        if (interrupt.received !== undefined) wake();
      });
      wake = undefined;
    }
  } finally {
    interrupt.signal.removeEventListener('abort', stop);
    interrupt.dispose();
  }
  const signal = interrupt.received ?? 'SIGTERM';
  if (!context.json) context.stderr.write(`${syncMessages.watchStopped(signal)}\n`);
  return signalledDuringRun ? signalExitCode(signal) : EXIT_CODES.ok;
}
