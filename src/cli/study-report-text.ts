// The event study as the CLI prints it (`rdw study event`, `rdw demo`): what the numbers mean, then the
// one study table of src/notebook (results first; every column with --wide).

import { notebook, type EventStudyResult } from '../index.js';
import { studyIntervalNotes } from '../workbench/index.js';
import { studyTextMessages as m } from './messages.js';
import { TEXT_COLUMNS, wrapText } from './wrap-text.js';

/**
 * The study's headline, notes on returns, the interval (method, level) and the q-values, one sentence per
 * window without an interval, and its table; ends with a blank line. Default the results columns (fits 100
 * columns); `{ wide: true }` every column, in blocks of columns that fit `columns` (default 100).
 */
export function studyReportText(result: EventStudyResult, options: notebook.StudyTableOptions & { columns?: number } = {}): string {
  const { metadata } = result;
  const notes = studyIntervalNotes(result);
  return [
    m.headline(metadata.releaseIds.length, metadata.selection === 'current', metadata.rows, metadata.calculationVersions),
    ...(metadata.calculationVersionMix.length > 1 ? [pooledVersionsText(result)] : []),
    m.returns(options.wide === true),
    wrapText(m.controls(metadata.intervalDescription), TEXT_COLUMNS),
    ...(metadata.intervalCalibration === null ? [] : [wrapText(metadata.intervalCalibration, TEXT_COLUMNS)]),
    ...(metadata.multipleComparisons.tested === 0
      ? []
      : [m.adjusted(metadata.multipleComparisons.tested, metadata.multipleComparisons.significant, metadata.multipleComparisons.level)]),
    ...notes.map((note) => wrapText(note, TEXT_COLUMNS)),
    '',
    // --wide's 29 columns (477 characters) in blocks that each fit the terminal, each naming its rows.
    notebook.studyTableText(result, { wide: options.wide === true, notes: false, maxWidth: options.columns ?? TEXT_COLUMNS }),
    ...(options.wide === true ? [] : [m.wideHint()]),
    '',
  ].join('\n');
}

/** The one line saying which calculation versions a study pooled (only after --allow-mixed-versions). */
export function pooledVersionsText(result: EventStudyResult): string {
  return m.pooledVersions(result.metadata.calculationVersionMix);
}
