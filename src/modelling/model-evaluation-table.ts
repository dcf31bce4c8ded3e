// The model results table: one row per fold, then the pooled row, in the one column order of
// modelEvaluationColumns (results first, detail after), for the CLI, its CSV and JSON, the chart and notebook 04.

import type { FoldEvaluation } from './evaluate-model.js';
import type { ScoredPredictions } from './model-score-intervals.js';
import type { ModelStudyResult } from './model-study.js';
import type { TimeSplit } from './time-splits.js';

/** One column of the model table: its name (CSV header, JSON key), its type and its part. */
export interface ModelEvaluationColumn {
  readonly name: keyof ModelEvaluationRow;
  /** `fold` and `test_days` are strings, counts integers, the rest doubles (null when undefined, e.g. an AUC without both classes). */
  readonly type: 'string' | 'integer' | 'number';
  /** `result`: what the table is read for; `detail`: how the fold was built and the scores behind the difference. */
  readonly part: 'result' | 'detail';
}

/**
 * One fold (or the pooled test predictions of every fold) of a model study. Scores are of the test rows
 * scored (complete cases); intervals are day-clustered bootstrap percentile intervals at the study's level.
 */
export interface ModelEvaluationRow {
  /** `1` … `k` (time order of the test blocks), or `pooled`. */
  readonly fold: string;
  /** First and last UTC day of the test rows, `2026-01-05..2026-01-08` (one day: just the day). */
  readonly test_days: string;
  /** Test rows scored (pooled: the sum over folds; a row tested twice counts twice). */
  readonly test_rows: number;
  /** The model's ROC AUC on the test rows (0.5 = chance). */
  readonly auc: number | null;
  readonly auc_ci_low: number | null;
  readonly auc_ci_high: number | null;
  /** Model log loss − baseline log loss (natural log): below 0 when the model beats the base rate. */
  readonly log_loss_difference: number | null;
  readonly log_loss_difference_ci_low: number | null;
  readonly log_loss_difference_ci_high: number | null;
  /** UTC days holding the scored test rows: the clusters the intervals resample. */
  readonly test_day_count: number;
  /** Test rows of the split left out before scoring (a missing predictor or target; nothing is imputed). */
  readonly test_rows_left_out: number;
  /** Rows the model was fitted on; null in the pooled row. */
  readonly train_rows: number | null;
  /** Rows dropped from training because their label interval overlaps the test span; null in the pooled row. */
  readonly purged: number | null;
  /** Rows dropped from training because they start within the embargo after the test span; null in the pooled row. */
  readonly embargoed: number | null;
  readonly model_log_loss: number | null;
  /** Log loss of the base rate of the train rows (the naive baseline). */
  readonly baseline_log_loss: number | null;
  /** Share of test rows the model classifies right (probability > 0.5 → 1). */
  readonly accuracy: number | null;
  /** The same for the baseline (the train majority class for every row). */
  readonly baseline_accuracy: number | null;
}

/**
 * The one declaration of the model table's column order: the rows of modelEvaluationTable, model-evaluation.csv
 * and .json, the printed table and the notebook. Results first (fold, test_days, test_rows, auc with its
 * interval, log_loss_difference with its interval), then the detail.
 */
export const modelEvaluationColumns: readonly ModelEvaluationColumn[] = [
  { name: 'fold', type: 'string', part: 'result' },
  { name: 'test_days', type: 'string', part: 'result' },
  { name: 'test_rows', type: 'integer', part: 'result' },
  { name: 'auc', type: 'number', part: 'result' },
  { name: 'auc_ci_low', type: 'number', part: 'result' },
  { name: 'auc_ci_high', type: 'number', part: 'result' },
  { name: 'log_loss_difference', type: 'number', part: 'result' },
  { name: 'log_loss_difference_ci_low', type: 'number', part: 'result' },
  { name: 'log_loss_difference_ci_high', type: 'number', part: 'result' },
  { name: 'test_day_count', type: 'integer', part: 'detail' },
  { name: 'test_rows_left_out', type: 'integer', part: 'detail' },
  { name: 'train_rows', type: 'integer', part: 'detail' },
  { name: 'purged', type: 'integer', part: 'detail' },
  { name: 'embargoed', type: 'integer', part: 'detail' },
  { name: 'model_log_loss', type: 'number', part: 'detail' },
  { name: 'baseline_log_loss', type: 'number', part: 'detail' },
  { name: 'accuracy', type: 'number', part: 'detail' },
  { name: 'baseline_accuracy', type: 'number', part: 'detail' },
];

/** The model table: one row per fold in fold order, then one `pooled` row (result.evaluation.pooled). */
export function modelEvaluationTable(result: ModelStudyResult): ModelEvaluationRow[] {
  const splits = new Map(result.splits.splits.map((split) => [split.fold, split]));
  const rows = result.evaluation.folds.map((fold) => foldRow(fold, splits.get(fold.fold)));
  const testDays = result.splits.splits.flatMap((split) => split.testDays);
  const leftOut = result.evaluation.folds.reduce((sum, fold) => sum + fold.testLeftOut.missingTarget + fold.testLeftOut.missingPredictor, 0);
  rows.push({ fold: 'pooled', test_days: dayRange(testDays), ...scores(result.evaluation.pooled), test_rows_left_out: leftOut, train_rows: null, purged: null, embargoed: null });
  return rows.map(ordered);
}

function foldRow(fold: FoldEvaluation, split: TimeSplit | undefined): ModelEvaluationRow {
  return {
    fold: String(fold.fold),
    test_days: dayRange(split?.testDays ?? []),
    ...scores(fold),
    test_rows_left_out: fold.testLeftOut.missingTarget + fold.testLeftOut.missingPredictor,
    train_rows: fold.trainRows,
    purged: split?.purged ?? null,
    embargoed: split?.embargoed ?? null,
  };
}

type Scores = Omit<ModelEvaluationRow, 'fold' | 'test_days' | 'test_rows_left_out' | 'train_rows' | 'purged' | 'embargoed'>;

function scores(scored: ScoredPredictions): Scores {
  const { model, baseline, intervals } = scored;
  return {
    test_rows: scored.rows,
    auc: finite(model.auc),
    auc_ci_low: finite(intervals.model.auc[0]),
    auc_ci_high: finite(intervals.model.auc[1]),
    log_loss_difference: finite(scored.logLossDifference),
    log_loss_difference_ci_low: finite(intervals.logLossDifference[0]),
    log_loss_difference_ci_high: finite(intervals.logLossDifference[1]),
    test_day_count: scored.days,
    model_log_loss: finite(model.logLoss),
    baseline_log_loss: finite(baseline.logLoss),
    accuracy: finite(model.accuracy),
    baseline_accuracy: finite(baseline.accuracy),
  };
}

/** NaN (a score with no rows, an AUC without both classes) is null: undefined, never a number. */
function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

/** `first..last` of `YYYY-MM-DD` days (text order is calendar order), or the one day. */
function dayRange(days: readonly string[]): string {
  if (days.length === 0) return '';
  const sorted = [...days].sort();
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  return first === last ? first : `${first}..${last}`;
}

/** The row's keys in column order (JSON.stringify and Object.keys follow insertion order). */
function ordered(row: ModelEvaluationRow): ModelEvaluationRow {
  return Object.fromEntries(modelEvaluationColumns.map((column) => [column.name, row[column.name]])) as unknown as ModelEvaluationRow;
}
