// The event study's numbers as one fixed text table (and the same columns as HTML): what `rdw study event`,
// `rdw demo`, notebook 02 and its study script all print, so a test can compare them digit for digit.

import { analysisMessages, type EventStudyMetadata, type EventStudyResult } from '../analysis/index.js';
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
  const confidence = metadata.interval.confidence;
  const level = metadata.multipleComparisons?.level ?? Number((1 - confidence).toPrecision(10));
  const percent = confidencePercent(confidence);
  return options.wide === true ? m.studyWideLegend(percent, level) : m.studyLegend(percent, level);
}

/** The footer's interval: `block jackknife (t), blocks 1d at 15m/1h/4h, 2d at 24h, 14d at 7d` or the row bootstrap's settings. */
function intervalSettings(metadata: Pick<EventStudyMetadata, 'interval' | 'intervalBlockDays'>): string {
  const { interval } = metadata;
  if (interval.method === 'row-bootstrap') return m.rowBootstrapSettings(interval.samples, interval.seed);
  const byLength = new Map<number, string[]>();
  for (const [window, days] of Object.entries(metadata.intervalBlockDays ?? {})) byLength.set(days, [...(byLength.get(days) ?? []), window]);
  return m.jackknifeSettings([...byLength].map(([days, windows]) => `${days}d at ${windows.join('/')}`));
}

/** One sentence per window whose groups (some or all) have no interval, saying why and how many more days it needs. */
export function studyIntervalNotes(result: Pick<EventStudyResult, 'metadata'>): string[] {
  const { metadata } = result;
  const gaps = metadata.intervalGaps ?? [];
  const none = metadata.multipleComparisons !== undefined && metadata.multipleComparisons.tested === 0;
  return [...(none && gaps.length > 0 ? [analysisMessages.noGroupTested()] : []), ...gaps.map((gap) => analysisMessages.noIntervalAt(gap))];
}

/** Options of studyTableText. */
export interface StudyTableTextOptions extends StudyTableOptions {
  /** Print the sentences saying which windows have no interval and why (studyIntervalNotes). Default true. */
  notes?: boolean;
  /**
   * Widest line of the table (a terminal's columns): a wider table (--wide) is printed in blocks of columns, each
   * starting with the window and group keys. Default: one table, however wide (a notebook's output scrolls).
   */
  maxWidth?: number;
}

/**
 * The study as printed text: the table (numbers right-aligned; a statistic without complete rows is blank,
 * never 0), its legend, one line with the rows read, releases and the interval (method, block length per
 * window), then one sentence per window without an interval. Default the results columns (the table fits
 * 100 columns for window × event_kind × direction × symbol); `{ wide: true }` every column.
 */
export function studyTableText(result: EventStudyResult, options: StudyTableTextOptions = {}): string {
  const { metadata } = result;
  const cells = studyTableCells(result, options);
  const keyColumns = 1 + (metadata.by?.length ?? 0);
  const table = textTableLines(cells.header, cells.rows, { rightAligned: cells.rightAligned, keyColumns, ...(options.maxWidth === undefined ? {} : { maxWidth: options.maxWidth }) });
  const notes = options.notes === false ? [] : studyIntervalNotes(result);
  return [...table, studyTableLegend(result, options), m.studyFooter(metadata.rows, metadata.releaseIds.length, intervalSettings(metadata)), ...notes].join('\n');
}

/** The same table as HTML (tslab.display.html): the same columns and cells, numbers right-aligned; the caption (when given) above the legend. */
export function studyTableHtml(result: EventStudyResult, options: StudyTableOptions & { caption?: string } = {}): string {
  const cells = studyTableCells(result, options);
  const align = (i: number) => (cells.rightAligned[i] ? ' style="text-align:right"' : '');
  const head = cells.header.map((title, i) => `<th${align(i)}>${escapeHtml(title)}</th>`).join('');
  const body = cells.rows.map((row) => `<tr>${row.map((cell, i) => `<td${align(i)}>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('\n');
  const legend = [studyTableLegend(result, options), ...studyIntervalNotes(result)].map(escapeHtml).join('<br>');
  const caption = options.caption === undefined ? legend : `${escapeHtml(options.caption)}<br><small>${legend}</small>`;
  return `<table class="rdw-table"><caption>${caption}</caption><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}
