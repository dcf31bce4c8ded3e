// `rdw study model [--window 1h] [--split purged-k-fold|walk-forward|row-k-fold] [--folds N] [--embargo auto|SECONDS]
// [--test-days N] [--train-days N] [--seed N] [--lock FILE] [--out DIR] [--wide]`: the default model scored over
// time-aware folds of the local catalog, printed as the model table; optionally written as CSV, JSON, SVG and HTML.

import path from 'node:path';
import { sayWhileSlow } from '../slow-step-notice.js';
import { DEFAULT_SPLIT_METHOD, DEFAULT_WINDOW, MODEL_SPLIT_METHODS, SPLIT_METHODS, isSplitMethod, type ModelSplitMethod } from '../../contract/index.js';
import { modelEvaluationTable, type ModelSplitOptions, type ModelStudyOptions } from '../../index.js';
import { analysisMessages, modelStudyOfLock, resolveWindow } from '../../workbench/index.js';
import { CliUsageError } from '../cli-errors.js';
import type { CliContext } from '../cli-context.js';
import type { ParsedCommandArgs } from '../command.js';
import { STUDY_EVENT_ONLY_FLAGS, STUDY_MODEL_FLAGS } from '../flags.js';
import { withFlagDefaults } from '../parse-flags.js';
import { commandMessages } from '../messages.js';
import { modelStudyText } from '../model-study-text.js';
import { textColumns } from '../wrap-text.js';
import { openCliCatalog } from '../open-cli-catalog.js';

/** Flags that only one split method reads (SPLIT_METHODS' ownFlags), each with its method. */
const METHOD_FLAGS: ReadonlyArray<readonly [string, ModelSplitMethod]> = MODEL_SPLIT_METHODS.flatMap((method) =>
  SPLIT_METHODS[method].ownFlags.map((flag) => [flag, method] as const),
);

/**
 * The flags as ModelStudyOptions; every bad value is a CliUsageError (exit 2) before the lock or the catalog
 * is touched. Values the analysis checks itself (too few days for the folds) are AnalysisOptionError, also exit 2.
 */
export function modelStudyOptions(given: ParsedCommandArgs['values']): ModelStudyOptions {
  // 1. event-only flags (parsed without defaults, flags.ts: one here was given), the model's defaults, the one window
  const eventFlag = STUDY_EVENT_ONLY_FLAGS.find((flag) => given[flag.name] !== undefined)?.name;
  if (eventFlag !== undefined) throw new CliUsageError(commandMessages.studyFlagNotFor(eventFlag, 'model', 'event'), { option: eventFlag });
  const values = withFlagDefaults(STUDY_MODEL_FLAGS, given);
  const windows = (values.window as string[] | undefined) ?? [DEFAULT_WINDOW];
  if (windows.length !== 1) throw new CliUsageError(commandMessages.oneModelWindow(windows), { option: 'window' });
  const window = resolveWindow(windows[0]!); // an unknown window: the analysis layer's AnalysisOptionError (exit 2)
  // 2. the split method and the flags only it reads
  const method = (values.split as string | undefined) ?? DEFAULT_SPLIT_METHOD;
  if (!isSplitMethod(method)) throw new CliUsageError(commandMessages.badSplit(method, MODEL_SPLIT_METHODS), { option: 'split' });
  for (const [flag, needs] of METHOD_FLAGS) {
    if (values[flag] !== undefined && needs !== method) throw new CliUsageError(commandMessages.splitFlagNotFor(flag, method, needs), { option: flag });
  }
  const folds = values.folds as number | undefined;
  if (folds !== undefined && folds < 2 && method !== 'walk-forward') throw new CliUsageError(commandMessages.kFoldNeedsTwoFolds(method), { option: 'folds' });
  const seed = values.seed as number | undefined;
  const split = splitOptions(method, folds, values, seed);
  // 3. the default model (defaultModelSpec) of the window, on event rows; modelStudy's intervals leave out
  // blocks of test days as long as intervalBlockDays(window) (--seed only seeds the row-k-fold shuffle)
  return { window, split, allowMixedCalculationVersions: values['allow-mixed-versions'] === true };
}

function splitOptions(method: ModelSplitMethod, folds: number | undefined, values: ParsedCommandArgs['values'], seed: number | undefined): ModelSplitOptions {
  if (method === 'walk-forward') return { method, folds, testDays: values['test-days'] as number | undefined, trainDays: values['train-days'] as number | undefined };
  if (method === 'row-k-fold') return { method, folds, seed };
  return { method, folds, embargoSeconds: embargoSeconds(values.embargo as string | undefined) };
}

/** `auto` (or not given) or a whole number of seconds. */
function embargoSeconds(text: string | undefined): number | 'auto' {
  if (text === undefined || text === 'auto') return 'auto';
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new CliUsageError(commandMessages.badEmbargo(text), { option: 'embargo' });
  return Number(text);
}

/** Runs `rdw study model` (src/cli/commands/study.ts dispatches here). */
export async function runModelStudy(context: CliContext, args: ParsedCommandArgs): Promise<void> {
  // 1. flags (exit 2 before anything opens); 2. the lock (exit 2), the catalog read-only, the lock verified (exit 3)
  const options = modelStudyOptions(args.values);
  const lock = typeof args.values.lock === 'string' ? path.resolve(context.cwd, args.values.lock) : undefined;
  // 3. split, fit, score
  const { result, releases, writeReport } = await sayWhileSlow(context, commandMessages.fittingModel(lock !== undefined), () =>
    modelStudyOfLock(options, { lockPath: lock, openCatalog: () => openCliCatalog(context, 'read') }),
  );
  // 4. print: the rows as JSON, or the table; 5. the report folder
  if (context.json) context.stdout.write(`${JSON.stringify(modelEvaluationTable(result))}\n`);
  else context.stdout.write(modelStudyText(result, { wide: args.values.wide === true, current: releases === undefined, columns: textColumns(context.stdout) }));
  if (typeof args.values.out === 'string') {
    const files = await writeReport(path.resolve(context.cwd, args.values.out));
    (context.json ? context.stderr : context.stdout).write(`${analysisMessages.reportWritten(files.html)}\n`);
  }
}
