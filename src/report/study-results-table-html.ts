// The report's results table: every column in the one order of eventStudyColumns (results first), in a box
// that scrolls sideways with the window and group-key columns sticky on the left. CSS only, no script.

import { eventStudyColumns, type EventStudyResult } from '../analysis/index.js';
import { escapeHtml } from '../base/index.js';

/**
 * Width of a sticky column in `em` for its longest text: up to 0.7 em a letter (bold capitals) plus the
 * padding, in half-em steps. Em, not ch: a bold row's ch is wider, which would shift its sticky `left`.
 */
function stickyWidthEm(longest: number): number {
  return Math.ceil((longest * 0.7 + 1) * 2) / 2;
}

/** The table's stylesheet (inside the report's one <style>): the scroll box, sticky columns with a background. */
export const STUDY_TABLE_CSS = `
.table-box{overflow-x:auto;max-width:100%;border:1px solid #ccc}
.results{border-collapse:separate;border-spacing:0;font-size:.8rem;white-space:nowrap}
.results th,.results td{border-right:1px solid #ddd;border-bottom:1px solid #ddd;padding:.2rem .4rem;text-align:right;box-sizing:border-box}
.results th{background:#f4f4f4;position:sticky;top:0;z-index:1}
.results .key{position:sticky;text-align:left;background:#fff;z-index:2;overflow:hidden;text-overflow:ellipsis}
.results th.key{background:#f4f4f4;z-index:3}
.results .key.last{border-right:2px solid #999}
.results tr.sig td{font-weight:600}
.na{color:#999}`;

/** One table cell: n/a for null, numbers to 4 decimals (3 significant digits below 0.0001), text escaped. */
export function resultCellHtml(value: unknown): string {
  if (value === null || value === undefined) return '<span class="na">n/a</span>';
  // Below 0.0001 (p- and q-values), 3 significant digits: 0.0000 would read as an impossible zero.
  if (typeof value === 'number' && !Number.isInteger(value)) return Math.abs(value) < 1e-4 ? value.toPrecision(3) : value.toFixed(4);
  return escapeHtml(String(value));
}

/**
 * The results table as HTML: one row per window × group, every column of eventStudyColumns in its order
 * (names as in event-study.csv), inside `<div class="table-box">` that scrolls sideways; window and the group
 * keys stay put on the left (widths fixed from their longest text, so each sticky `left` is known without a script). Rows significant
 * after the adjustment are bold. Style with STUDY_TABLE_CSS.
 */
export function studyResultsTableHtml(result: Pick<EventStudyResult, 'rows' | 'metadata'>): string {
  const columns = eventStudyColumns(result.metadata.by);
  const sticky = columns.filter((column) => column.type === 'string').map((column) => column.name);
  let left = 0;
  const stickyStyle = new Map<string, string>();
  for (const name of sticky) {
    const longest = result.rows.reduce((most, row) => Math.max(most, String((row as unknown as Record<string, unknown>)[name] ?? '').length), name.length);
    const width = stickyWidthEm(longest);
    stickyStyle.set(name, ` class="key${name === sticky[sticky.length - 1] ? ' last' : ''}" style="left:${left}em;width:${width}em;min-width:${width}em;max-width:${width}em"`);
    left += width;
  }
  const attributes = (name: string) => stickyStyle.get(name) ?? '';
  const header = columns.map((column) => `<th${attributes(column.name)}>${escapeHtml(column.name)}</th>`).join('');
  const body = result.rows
    .map((row) => {
      const record = row as unknown as Record<string, unknown>;
      const cells = columns.map((column) => `<td${attributes(column.name)}>${resultCellHtml(record[column.name])}</td>`).join('');
      return `<tr${row.significant_adjusted === true ? ' class="sig"' : ''}>${cells}</tr>`;
    })
    .join('\n');
  return `<div class="table-box"><table class="results"><thead><tr>${header}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}
