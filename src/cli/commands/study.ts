// `rdw study event [--lock FILE] [--window 1h] [--out DIR] [--wide]`: the event-vs-control study over the
// local catalog, printed as a results-first table (every column with --wide; every field as JSON), optionally
// written as a self-contained report. `rdw study model` is study-model.ts.

import path from 'node:path';
import { sayWhileSlow } from '../slow-step-notice.js';
import { EXIT_CODES, type Window } from '../../contract/index.js';
import type { EventStudyOptions } from '../../index.js';
import { analysisMessages, eventStudyOfLock, type IntervalMethod, type StudyGroupKey } from '../../workbench/index.js';
import { CliUsageError } from '../cli-errors.js';
import { closestName } from '../closest-name.js';
import type { Command } from '../command.js';
import { COMMAND_LINES, STUDY_EVENT_FLAGS, STUDY_MODEL_ONLY_FLAGS } from '../flags.js';
import { commandMessages } from '../messages.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import { refuseDashOutput, refuseFileAsOutputFolder, refuseHomeOutput } from '../output-path.js';
import { pooledVersionsText, studyReportText } from '../study-report-text.js';
import { textColumns } from '../wrap-text.js';
import { withFlagDefaults } from '../parse-flags.js';
import { runModelStudy } from './study-model.js';

/** The studies `rdw study` runs. */
const STUDIES = ['event', 'model'] as const;

export const studyCommand: Command = {
  name: 'study',
  line: COMMAND_LINES.study,
  async run(context, args) {
    const [study, ...extra] = args.positionals;
    // `rdw study` alone lists the studies (as `rdw` alone lists the commands) and exits 2; under --json it is
    // the one usage error object, as stdout holds only JSON.
    if (study === undefined) {
      if (context.json) throw new CliUsageError(commandMessages.studyNeeded(), { option: 'study' });
      context.stdout.write(`${commandMessages.studyList()}\n`);
      return EXIT_CODES.usage;
    }
    refuseDashOutput(args.values.out as string | undefined, { what: '--out', writes: "it names the report's folder (the table is on stdout already)", example: '--out ./report', option: 'out' });
    if (study !== 'event' && study !== 'model') throw new CliUsageError(commandMessages.unknownStudy(study, closestName(study, STUDIES)), { option: 'study' });
    if (extra.length > 0) throw new CliUsageError(commandMessages.studyExtraArgument(study, extra[0]!), { option: 'study' });
    // A file where the report's folder goes is refused before the study runs, not after its table.
    const out = args.values.out as string | undefined;
    await refuseFileAsOutputFolder(context.cwd, out);
    if (out !== undefined) await refuseHomeOutput(context.home, path.resolve(context.cwd, out), { what: '--out', typed: out, example: '--out ./report', option: 'out', kind: 'folder' });
    if (study === 'model') return runModelStudy(context, args);
    // Parsed without defaults (flags.ts), so a model flag here was given; then the event study's defaults.
    const modelFlag = STUDY_MODEL_ONLY_FLAGS.find((flag) => args.values[flag.name] !== undefined)?.name;
    if (modelFlag !== undefined) throw new CliUsageError(commandMessages.studyFlagNotFor(modelFlag, 'event', 'model'), { option: modelFlag });
    const values = withFlagDefaults(STUDY_EVENT_FLAGS, args.values);
    // Flag values are strings: resolveEventStudyOptions below checks them against the literal unions.
    const windows = values.window as Window[];
    const by = values.by as StudyGroupKey[];
    const method = intervalMethodFlag(args.values, values);
    const allowMixedCalculationVersions = values['allow-mixed-versions'] === true;
    const options: EventStudyOptions = { windows, by, interval: { method }, allowMixedCalculationVersions };
    // Bad options are exit 2 before the lock and the catalog are touched; then the lock (exit 2), the catalog
    // read-only, the lock verified before any number (exit 3).
    const lock = typeof args.values.lock === 'string' ? path.resolve(context.cwd, args.values.lock) : undefined;
    const { result, writeReport } = await sayWhileSlow(context, commandMessages.studyingEvents(lock !== undefined), () =>
      eventStudyOfLock(options, { lockPath: lock, openCatalog: () => openCliCatalog(context, 'read') }),
    );
    if (context.json) {
      context.stdout.write(`${JSON.stringify(result.rows)}\n`);
      // The rows array has no room for it: the pooled versions go to stderr, as the report path does.
      if (result.metadata.calculationVersionMix.length > 1) context.stderr.write(`${pooledVersionsText(result)}\n`);
    } else context.stdout.write(studyReportText(result, { wide: args.values.wide === true, columns: textColumns(context.stdout) }));
    if (typeof args.values.out === 'string') {
      const files = await writeReport(path.resolve(context.cwd, args.values.out));
      (context.json ? context.stderr : context.stdout).write(`${analysisMessages.reportWritten(files.html)}\n`);
    }
  },
};

/**
 * The interval method from --interval, or from its old name --bootstrap (day, row): both accepted, one at a
 * time (`given`: the flags as typed; `values`: with the event study's defaults). The value itself is checked by
 * resolveEventStudyOptions (exit 2).
 */
function intervalMethodFlag(given: Readonly<Record<string, unknown>>, values: Readonly<Record<string, unknown>>): IntervalMethod {
  if (given.bootstrap === undefined) return String(values.interval) as IntervalMethod;
  if (given.interval !== undefined) throw new CliUsageError(commandMessages.intervalFlagTwice(), { option: 'bootstrap' });
  return String(given.bootstrap) as IntervalMethod;
}
