// The model study as the CLI prints it (`rdw study model`): what was modelled on which rows, the model table
// (results columns in 100 columns; every column of modelEvaluationColumns with --wide), and what it means.

import { modelEvaluationColumns, modelEvaluationTable, type ModelEvaluationRow, type ModelStudyResult } from '../index.js';
import { textTableLines } from '../base/index.js';
import { modelSplitText } from '../workbench/index.js';
import { modelStudyTextMessages as m } from './messages.js';
import { wrapText } from './wrap-text.js';

export interface ModelStudyTextOptions {
  /** Every column, named as in model-evaluation.csv. Default false: the results columns (fit 100 columns). */
  wide?: boolean;
  /** Whether the releases are the catalog's current view (true) or exact IDs from a lock. Default true. */
  current?: boolean;
  /** Terminal width the sentences wrap to. Default 100. */
  columns?: number;
}

/** Headline, model line, table, legend; ends with a blank line. */
export function modelStudyText(result: ModelStudyResult, options: ModelStudyTextOptions = {}): string {
  const { splits, evaluation } = result;
  const columns = options.columns ?? 100;
  const wrap = (text: string) => wrapText(text, columns);
  const { confidence, description } = evaluation.interval;
  const percent = Number((confidence * 100).toFixed(2));
  const leftOut = Object.entries(splits.leftOut)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
  const rows = modelEvaluationTable(result);
  const pooled = rows[rows.length - 1]!;
  return [
    wrap(m.headline(result.target, result.window, modelSplitText(result.split), splits.releaseIds.length, options.current ?? true, splits.rows.sampleTime.length, splits.total, leftOut || 'none')),
    wrap(m.model(evaluation.model, evaluation.baseline, evaluation.features, result.sampleType)),
    ...(splits.method === 'row-k-fold' ? [wrap(m.naiveSplit())] : []),
    '',
    ...(options.wide === true ? wideTable(rows, columns) : resultsTable(rows, percent)),
    ...(evaluation.intervalNote === undefined ? [] : [wrap(evaluation.intervalNote)]),
    wrap(options.wide === true ? m.wideLegend(description) : m.legend(description, pooled.test_days, pooled.test_rows_left_out)),
    wrap(evaluation.interval.calibration),
    ...(options.wide === true ? [] : [wrap(m.wideHint())]),
    '',
  ].join('\n');
}

/** fold, test days (MM-DD), test rows, purged, embargoed, AUC [CI], Δ log loss [CI]: about 95 columns at 500,000 rows. */
function resultsTable(rows: readonly ModelEvaluationRow[], percent: number): string[] {
  const count = (value: number | null) => (value === null ? '-' : String(value));
  const auc = intervalCells(rows.map((row) => [row.auc, row.auc_ci_low, row.auc_ci_high]), 3);
  const difference = intervalCells(rows.map((row) => [row.log_loss_difference, row.log_loss_difference_ci_low, row.log_loss_difference_ci_high]), 4);
  const header = ['fold', 'test days', 'test', 'purged', 'embargo', `AUC [${percent}% CI]`, `Δ log loss [${percent}% CI]`];
  const cells = rows.map((row, i) => [row.fold, shortDays(row.test_days), count(row.test_rows), count(row.purged), count(row.embargoed), auc[i]!, difference[i]!]);
  return textTableLines(header, cells, { rightAligned: [false, false, true, true, true, true, true] });
}

/** Every column under its CSV name; numbers to 4 decimals, null as n/a; in blocks of columns that fit, each naming the fold. */
function wideTable(rows: readonly ModelEvaluationRow[], maxWidth: number): string[] {
  const cell = (value: unknown) => (value === null ? 'n/a' : typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(4) : String(value));
  const header = modelEvaluationColumns.map((column) => column.name);
  const cells = rows.map((row) => modelEvaluationColumns.map((column) => cell(row[column.name])));
  return textTableLines(header, cells, { rightAligned: modelEvaluationColumns.map((column) => column.type !== 'string'), maxWidth, keyColumns: 1 });
}

/**
 * `estimate [low, high]` per row, each number padded to its part's widest so brackets line up; blank when
 * undefined. A row without an interval keeps its estimate under the others' (spaces where the brackets would be).
 */
function intervalCells(values: readonly (readonly [number | null, number | null, number | null])[], digits: number): string[] {
  const text = values.map((triple) => triple.map((value) => (value === null ? '' : fixedDecimals(value, digits))));
  const width = [0, 1, 2].map((part) => Math.max(0, ...text.map((parts) => parts[part]!.length)));
  const anyInterval = text.some(([, low, high]) => low !== '' && high !== '');
  const bracketWidth = anyInterval ? width[1]! + width[2]! + 5 : 0; // ' [' + low + ', ' + high + ']'
  return text.map(([estimate, low, high]) =>
    estimate === ''
      ? ''
      : low === '' || high === ''
        ? estimate!.padStart(width[0]!) + ' '.repeat(bracketWidth)
        : `${estimate!.padStart(width[0]!)} [${low!.padStart(width[1]!)}, ${high!.padStart(width[2]!)}]`,
  );
}

/** `2026-10-12..2026-10-15` as `10-12..10-15` (the legend gives the years). */
function shortDays(days: string): string {
  return days.replace(/\d{4}-(\d\d-\d\d)/g, '$1');
}

/** `value` to `digits` decimals, a value that rounds to zero without a minus sign (-0.00004 prints 0.0000). */
export function fixedDecimals(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}
