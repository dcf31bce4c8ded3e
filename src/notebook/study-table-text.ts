// The event study's numbers as one fixed text table (and the same columns as HTML): what `rdw study event`,
// `rdw demo`, notebook 02 and its study script all print, so a test can compare them digit for digit.

import { MISSING_STATUSES, missingColumnName, type EventStudyResult } from '../analysis/index.js';
import { htmlTable, textTable } from './html-table.js';

/**
 * Columns of the printed study table: group keys, events' counts (one per missing status, from
 * MISSING_STATUSES, never listed by hand), statistics, then the controls they were compared with.
 */
export function studyTableColumns(result: EventStudyResult): string[] {
  return [
    'window',
    ...result.metadata.by,
    'n',
    'n_complete',
    ...MISSING_STATUSES.map((status) => missingColumnName(status)),
    'mean_return_pct',
    'median_return_pct',
    'hit_rate',
    'median_mfe_pct',
    'median_mae_pct',
    'control_n',
    'control_n_complete',
    'control_mean_return_pct',
    'difference_pct',
    'ci_low_pct',
    'ci_high_pct',
  ];
}

/**
 * The study as printed text: the table (numbers to 4 significant digits; a statistic without complete
 * rows is blank, never 0), then one line with the rows read, releases and the bootstrap settings.
 */
export function studyTableText(result: EventStudyResult): string {
  const { metadata } = result;
  const rows = result.rows as unknown as Record<string, unknown>[];
  const table = textTable(rows, { columns: studyTableColumns(result), maxRows: rows.length });
  const settings = Object.entries(metadata.bootstrap as unknown as Record<string, unknown>)
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(', ');
  return `${table}\nrows read: ${metadata.rows}; releases: ${metadata.releaseIds.length}; bootstrap: ${settings}`;
}

/** The same columns as an HTML table (tslab.display.html). */
export function studyTableHtml(result: EventStudyResult, options: { caption?: string } = {}): string {
  const rows = result.rows as unknown as Record<string, unknown>[];
  return htmlTable(rows, { columns: studyTableColumns(result), maxRows: rows.length, ...options });
}
