// How `rdw sync` prints a SyncReport: a summary line, one line per imported, failed or snapshot item and the
// budget on stdout; warnings (days that may have fallen off the listing, days without a release, revised
// study locks) as lines for stderr.

import { utcSecondsText } from '../base/index.js';
import { EXIT_CODES } from '../contract/index.js';
import { workbenchMessages, type PinnedReleaseCheck, type SyncReport } from '../workbench/index.js';
import { byteText } from './byte-text.js';
import { documentMessages, syncMessages } from './messages.js';

/** New releases listed one per line in text; beyond, one line says how many more (a first sync pulls 100). */
const NEW_LINES = 10;

/** UTC Unix seconds as ISO UTC without milliseconds; '' for null. */
export const publishedText = (seconds: number | null): string => (seconds === null ? '' : utcSecondsText(seconds * 1000));

/** The one summary line of a run (also the line per run of --watch). */
export function syncSummaryLine(report: SyncReport): string {
  const range = report.oldestListedDay === null ? '' : `${report.oldestListedDay}..${report.newestListedDay}`;
  const at = report.startedAt.replace(/:\d\d\.\d{3}Z$/, 'Z'); // to the minute: the line fits 100 columns
  return syncMessages.summary(at, report.listed, range, report.new.length, report.revised.length, report.present, report.failed.length);
}

/** stdout of a run: summary, then what was new, revised, failed, each snapshot, each lock without a revised pin, the budget. Ends with a newline. */
export function syncReportText(report: SyncReport): string {
  const lines = [syncSummaryLine(report)];
  // Only when every listed release is in the catalog: an interrupted or stopped run may have pulled nothing yet.
  if (report.new.length === 0 && report.revised.length === 0 && report.failed.length === 0 && report.present === report.listed) lines.push(syncMessages.nothingNew(report.listed));
  for (const release of report.new.slice(0, NEW_LINES)) lines.push(syncMessages.newLine(release.id, release.day, release.rows));
  const more = report.new.slice(NEW_LINES);
  if (more.length > 0) {
    const days = more.map((release) => release.day).sort();
    lines.push(syncMessages.moreNew(more.length, days[0]!, days.at(-1)!));
  }
  for (const release of report.revised) {
    lines.push(syncMessages.revisedLine(release.id, release.day, release.rows));
    // A revision older than one imported does not replace it: studies go on reading the newer one.
    if (release.currentStays === undefined) lines.push(syncMessages.revisedDetail(release.replaces ?? [], publishedText(release.generatedAt)));
    else lines.push(syncMessages.revisedNotCurrent(release.currentStays, publishedText(release.generatedAt)));
  }
  for (const failure of report.failed) lines.push(syncMessages.failedLine(failure.id, failure.day, failure.message));
  for (const entry of report.snapshots) {
    const generated = entry.generatedAt === undefined ? '' : publishedText(entry.generatedAt);
    const detail =
      entry.status === 'recorded' ? syncMessages.snapshotRecorded(generated) : entry.status === 'unchanged' ? syncMessages.snapshotUnchanged(generated) : (entry.reason ?? '');
    lines.push(syncMessages.snapshotLine(entry.dataset, entry.status, entry.stale === true ? `${detail} — ${documentMessages.stale()}` : detail));
  }
  // A checked lock with no revised pin is said here (a revised one is a warning on stderr: syncWarnings).
  for (const lock of report.locks) if (!lock.releases.some((check) => check.status === 'revised')) lines.push(syncMessages.lockNothingRevised(lock.file, lock.pinned));
  const budget = report.budget;
  if (budget !== null) {
    lines.push(
      budget.dailyBytes === null || budget.remainingBytes === null
        ? syncMessages.budgetUnknown(budget.clearsOn)
        : syncMessages.budgetLine(byteText(budget.remainingBytes), byteText(budget.dailyBytes), budget.clearsOn),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Lines for stderr (each without the `rdw: ` prefix): fallen-off days, days without a release, restated releases,
 * revised locks, chosen snapshot datasets the service does not have.
 */
export function syncWarnings(report: SyncReport): string[] {
  const warnings: string[] = [];
  if (report.mayHaveFallenOff !== null) warnings.push(syncMessages.mayHaveFallenOff(report.mayHaveFallenOff.from, report.mayHaveFallenOff.to));
  if (report.missingDays.length > 0) warnings.push(syncMessages.missingDays(report.missingDays));
  for (const { id, field, imported, listed } of report.restated ?? []) warnings.push(workbenchMessages.listingRestated(id, field, imported, listed));
  for (const lock of report.locks) warnings.push(...lockCheckLines(lock.file, lock.releases));
  // A chosen dataset the service does not have fails every later sync too (the choice is remembered): say how to drop it.
  for (const entry of report.snapshots) {
    if (entry.status !== 'failed' || entry.exitCode !== EXIT_CODES.notFound) continue;
    warnings.push(syncMessages.snapshotDatasetUnknown(entry.dataset, report.snapshotDatasets.filter((dataset) => dataset !== entry.dataset)));
  }
  return warnings;
}

/** Per revised, unlisted or unknown pinned release of `file`: a heading, then the pinned (and newer) ID; then that the lock is unchanged. */
export function lockCheckLines(file: string, checks: readonly PinnedReleaseCheck[]): string[] {
  const lines = checks.flatMap((check) => {
    if (check.status === 'revised') {
      const heading = syncMessages.lockRevised(file, check.day, publishedText(check.newerGeneratedAt));
      return [heading, syncMessages.lockPinned(check.id), syncMessages.lockNewer(check.newerId ?? '', check.seenIn ?? 'listing')];
    }
    // Neither listed nor in the catalog: not called newer (nothing dates the pin), said as not in its day's listing.
    if (check.status === 'unknown') {
      return [syncMessages.lockPinUnknown(file, check.day), syncMessages.lockPinned(check.id), syncMessages.lockListed(check.listedId ?? ''), syncMessages.lockPinUnknownRemedy()];
    }
    if (check.status !== 'unlisted') return [];
    // The listing names another revision of the day (not newer): say which, not that the day is gone from it.
    if (check.listedId !== undefined) return [syncMessages.lockListedOlder(file, check.day), syncMessages.lockPinned(check.id), syncMessages.lockListed(check.listedId)];
    return [syncMessages.lockUnlisted(file, check.day), syncMessages.lockPinned(check.id)];
  });
  if (checks.some((check) => check.status === 'revised')) lines.push(syncMessages.lockUnchanged(file));
  return lines;
}
