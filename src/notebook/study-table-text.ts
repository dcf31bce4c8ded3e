// The event study's numbers as one fixed text table (and the same columns as HTML): what `rdw study event`,
// `rdw demo`, notebook 02 and its study script all print, so a test can compare them digit for digit.

import type { EventStudyResult } from '../analysis/index.js';
import { escapeHtml, textTableLines } from '../base/index.js';
import { notebookMessages as m } from './messages.js';
import { confidencePercent, studyTableCells, type StudyTableOptions } from './study-table-cells.js';

/**
 * Headers of the printed study table, in the one column order (eventStudyColumns). Default: the results
 * columns `window, <group keys>, n, missing, diff, 95% CI, q`; `{ wide: true }`: every column, named as in
 * event-study.csv and .json.
 */
export function studyTableColumns(result: Pick<EventStudyResult, 'rows' | 'metadata'>, options: StudyTableOptions = {}): string[] {
  return studyTableCells(result, options).header;
}

/** The legend under the table: units, the CI level, what q and the `*` mean. */
export function studyTableLegend(result: Pick<EventStudyResult, 'metadata'>, options: StudyTableOptions = {}): string {
  const { metadata } = result;
  const level = metadata.multipleComparisons?.level ?? Number((1 - metadata.bootstrap.confidence).toPrecision(10));
  const percent = confidencePercent(metadata.bootstrap.confidence);
  return options.wide === true ? m.studyWideLegend(percent, level) : m.studyLegend(percent, level);
}

/**
 * The study as printed text: the table (numbers right-aligned; a statistic without complete rows is blank,
 * never 0), its legend, then one line with the rows read, releases and the bootstrap settings. Default the
 * results columns (fits 100 columns for window × event_kind × direction × symbol); `{ wide: true }` every column.
 */
export function studyTableText(result: EventStudyResult, options: StudyTableOptions = {}): string {
  const { metadata } = result;
  const cells = studyTableCells(result, options);
  const table = textTableLines(cells.header, cells.rows, { rightAligned: cells.rightAligned });
  const settings = Object.entries(metadata.bootstrap as unknown as Record<string, unknown>)
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(', ');
  return [...table, studyTableLegend(result, options), m.studyFooter(metadata.rows, metadata.releaseIds.length, settings)].join('\n');
}

/** The same table as HTML (tslab.display.html): the same columns and cells, numbers right-aligned; the caption (when given) above the legend. */
export function studyTableHtml(result: EventStudyResult, options: StudyTableOptions & { caption?: string } = {}): string {
  const cells = studyTableCells(result, options);
  const align = (i: number) => (cells.rightAligned[i] ? ' style="text-align:right"' : '');
  const head = cells.header.map((title, i) => `<th${align(i)}>${escapeHtml(title)}</th>`).join('');
  const body = cells.rows.map((row) => `<tr>${row.map((cell, i) => `<td${align(i)}>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('\n');
  const legend = escapeHtml(studyTableLegend(result, options));
  const caption = options.caption === undefined ? legend : `${escapeHtml(options.caption)}<br><small>${legend}</small>`;
  return `<table class="rdw-table"><caption>${caption}</caption><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}
