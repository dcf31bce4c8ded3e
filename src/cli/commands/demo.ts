// `rdw demo` (= `npm start`): the main job, offline on the embedded mock: list -> pull the latest N releases ->
// verify every stored file -> event study -> report (table, SVG charts, HTML) -> study lock, then say where it all is.

import path from 'node:path';
import { IntegrityError, EXIT_CODES } from '../../contract/index.js';
import { errors, studyCatalog, verifyStore, writeLock, writeStudyReport } from '../../index.js';
import { catalogMessages, EXAMPLE_CATALOG_QUERY, pullWanted, type PullProgress } from '../../workbench/index.js';
import { connectApi } from '../api-connection.js';
import type { Command, ReportedFailure } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { commandMessages } from '../messages.js';
import { listenForInterrupt } from '../interrupt-listener.js';
import { ProgressBar } from '../progress-bar.js';
import { refuseDashOutput, refuseHomeOutput } from '../output-path.js';
import { shellCommandLines, shellWord } from '../shell-command-lines.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import { shownPath } from '../shown-path.js';
import { studyReportText } from '../study-report-text.js';

/** Windows the demo's study reports: short, medium and one-day horizons. */
const DEMO_WINDOWS = ['1h', '4h', '24h'] as const;

export const demoCommand: Command = {
  name: 'demo',
  line: COMMAND_LINES.demo,
  async run(context, args) {
    const latest = args.values.latest as number;
    refuseDashOutput(args.values.out as string | undefined, { what: '--out', writes: 'it names the folder of the report and the study lock', example: '--out ./demo-60', option: 'out' });
    const outDir = path.resolve(context.cwd, (args.values.out as string | undefined) ?? path.join(context.home, 'demo'));
    const out = args.values.out as string | undefined;
    if (out !== undefined) await refuseHomeOutput(context.home, outDir, { what: '--out', typed: out, example: '--out ./demo-60', option: 'out', kind: 'folder' });
    const say = (text: string) => {
      if (!context.json) context.stdout.write(`${text}\n`);
    };
    const started = performance.now();

    // 1. The catalog under RDW_HOME, and the API (the embedded mock unless RDW_BASE_URL is set).
    const catalog = await openCliCatalog(context, 'write');
    // Notices (a pacing wait, a 429 wait) are written above the progress bar, not after it.
    let bar: ProgressBar | undefined;
    const stderr = { isTTY: context.stderr.isTTY, write: (text: string) => (bar === undefined ? context.stderr.write(text) : bar.note(text)) };
    // From here a first Ctrl-C / SIGTERM stops the pull between releases and the demo before its next step,
    // saying what was done (exit 130/143): a rerun continues where it stopped.
    const interrupt = listenForInterrupt(stderr);
    context.onExit(() => interrupt.dispose());
    const interrupted = (imported: number, notPulled: number): ReportedFailure => ({
      code: 'RDW_INTERRUPTED',
      exitCode: interrupt.exitCode!,
      message: commandMessages.demoInterrupted(interrupt.received!, imported, notPulled),
    });
    const api = await connectApi({ ...context, stderr });
    context.onExit(() => api.close());
    // The home as the "Where everything is" lines show paths: relative to the working folder when inside it.
    say(`rdw demo: ${api.embedded ? 'embedded mock API (offline, fixed clock)' : 'API at RDW_BASE_URL'}, catalog in ${shownPath(context.cwd, context.home)}`);

    // 2. The latest releases, as listed (remembered, so `rdw ls` can tell when a newer revision appears), then
    // 3. pulled by exact ID: checksum-gated, one transaction per release, idempotent.
    let shown: ProgressBar | undefined;
    const { ids, result: pulled } = await pullWanted(catalog, api.client, { latest }, {
      signal: interrupt.signal,
      onPlanned: (planned, listed) => {
        // A listing cut by Ctrl-C plans nothing: the interrupted sentence says so, not "listed 0 releases".
        if (interrupt.received !== undefined) return;
        const first = listed?.at(-1)?.day;
        const last = listed?.[0]?.day;
        say(`1/5 listed ${planned.length} releases${first === undefined || last === undefined ? '' : `: ${first} .. ${last}`}`);
        shown = !context.json && context.stderr.isTTY ? new ProgressBar(context.stderr, planned.length) : undefined;
        bar = shown;
      },
      // Without a bar (piped, --json) no progress is taken: the client then says a slow download's wait itself.
      ...(!context.json && context.stderr.isTTY ? { onProgress: (event: PullProgress) => shown?.update(event) } : {}),
    });
    shown?.end();
    bar = undefined;
    const imported = pulled.pulled.filter((release) => release.status === 'imported').length;
    if (interrupt.received !== undefined) return interrupted(imported, pulled.notStarted.length + pulled.failed.length);
    const failure = pulled.failed[0]?.error;
    if (failure !== undefined) throw failure;
    const rows = pulled.pulled.reduce((sum, release) => sum + release.rows, 0);
    say(`2/5 pulled ${pulled.pulled.length} releases (${imported} new, ${pulled.pulled.length - imported} already present), ${rows} rows`);

    // 4. Re-hash every stored file against the catalog's checksums.
    // Rows against their recorded fingerprints only: this home is the demo's own, filled from verified files.
    const verification = await verifyStore(catalog, { rowsAgainstFiles: false });
    if (verification.bad.length > 0) {
      throw new IntegrityError(commandMessages.storedFileMismatch(verification.bad[0]!.file));
    }
    const badRows = verification.badRows[0];
    if (badRows !== undefined) {
      const message = badRows.recorded === null ? catalogMessages.rowsUnrecorded(badRows.releaseId) : catalogMessages.rowsDiffer(badRows.releaseId, badRows.recorded, badRows.actual);
      throw new errors.RowsMismatchError(message, { releaseId: badRows.releaseId });
    }
    if (interrupt.received !== undefined) return interrupted(imported, 0);
    say(`3/5 verified ${verification.files.length} stored files and ${verification.rows.length} releases' rows: every SHA-256 and rows fingerprint matches`);

    // 5. The event-vs-control study over exactly these release IDs, and its report.
    const result = await studyCatalog(catalog, { windows: DEMO_WINDOWS, releases: ids });
    const report = await writeStudyReport(result, path.join(outDir, 'report'));
    if (interrupt.received !== undefined) return interrupted(imported, 0);
    say(`4/5 event study over ${result.metadata.rows} rows, windows ${DEMO_WINDOWS.join(', ')}`);

    // 6. The study lock: release IDs, manifest and schema checksums, file digests. No key, host or path.
    const lockPath = path.join(outDir, 'study.lock.json');
    // Step 3 held every release's rows to their fingerprints a moment ago, in this process.
    await writeLock(lockPath, catalog, ids, { rowsJustVerified: true });
    say(`5/5 study lock written`);

    if (context.json) {
      context.stdout.write(`${JSON.stringify({ releases: ids, rows, report, lock: lockPath, study: result.rows })}\n`);
      return EXIT_CODES.ok;
    }
    say('');
    context.stdout.write(studyReportText(result));
    const relative = (file: string) => shownPath(context.cwd, file);
    say('');
    say(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s. Where everything is:`);
    say(whereLine('catalog', relative(catalog.file), '(plain DuckDB; any DuckDB client opens it)'));
    say(whereLine('report', relative(report.html), '(self-contained HTML with inline SVG charts)'));
    say(whereLine('table', relative(report.csv), `and ${relative(report.json)}`, ' '));
    say(whereLine('study lock', relative(lockPath)));
    say('');
    // The next commands read the same home: the --home given here is repeated (RDW_HOME holds for them already).
    const home = typeof args.values.home === 'string' ? [`--home ${shellWord(args.values.home)}`] : [];
    const lock = shellWord(relative(lockPath));
    say('Try next:');
    say(shellCommandLines(['npx rdw sql', `"${EXAMPLE_CATALOG_QUERY}"`, ...home]).join('\n'));
    say(shellCommandLines(['npx rdw study event', `--lock ${lock}`, '--window 1h,24h', ...home]).join('\n'));
    // Reproducing in a new, empty home is the point of that line (the shell makes the folder; none is shared).
    say(shellCommandLines(['npx rdw reproduce', lock, '--home "$(mktemp -d)"']).join('\n'));
    return EXIT_CODES.ok;
  },
};

/** Widest "Where everything is" line that still fits a 100-column terminal. */
const LINE_MAX = 100;

/** One "Where everything is" line: label, path, then its note, which goes on its own line past 100 columns. */
function whereLine(label: string, file: string, note?: string, gap = '  '): string {
  const head = `  ${label.padEnd(11)}  ${file}`;
  if (note === undefined) return head;
  const line = `${head}${gap}${note}`;
  return line.length <= LINE_MAX ? line : `${head}\n${' '.repeat(15)}${note}`;
}

