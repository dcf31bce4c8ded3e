// Model score chart: AUC and the log-loss difference against the baseline, per fold and pooled, with intervals.

import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from './vega-lite-spec.js';

/**
 * One fold of a model study, or `pooled`. The fields are the model table's own (ModelEvaluationRow in
 * src/analysis), so its rows pass as they are; scores are null when undefined.
 */
export interface ModelScorePoint {
  /** `1` … `k`, or `pooled`. */
  fold: string;
  /** `2026-01-05..2026-01-08`, shown beside the fold. */
  test_days?: string;
  /** Test rows scored (the n of the fold's scores). */
  test_rows: number;
  /** ROC AUC, 0..1, with its interval. */
  auc: number | null;
  auc_ci_low: number | null;
  auc_ci_high: number | null;
  /** Model log loss − baseline log loss (natural log), with its interval; below 0 = the model is better. */
  log_loss_difference: number | null;
  log_loss_difference_ci_low: number | null;
  log_loss_difference_ci_high: number | null;
}

export interface ModelScoreChartOptions {
  /** Chart title. Default `Model score by fold`. */
  title?: string;
  /** The target and its window, e.g. `up_1h (1h)`. Default `target not given`. */
  target?: string;
  /** The split, e.g. `purged k-fold, 5 folds, embargo 12 min`. Default `split not given`. */
  split?: string;
  /** Model and baseline, e.g. `logistic regression vs base rate`. Shown when given. */
  model?: string;
  /**
   * How the intervals were computed, e.g. `95% block-jackknife t intervals over 1-day blocks of test days (G−1 df)`
   * (a model evaluation's `interval.description`). Default `CI (method and level not given)`: pass it, a chart
   * should say what its bars are.
   */
  interval?: string;
}

const count = (value: number) => value.toLocaleString('en-US');

/** The y label of a row: `fold 1 · 2026-01-05..2026-01-08 · n 1,234`, `pooled · n 6,170`. */
function rowLabel(point: ModelScorePoint): string {
  const name = point.fold === 'pooled' ? 'pooled' : `fold ${point.fold}`;
  const days = point.test_days ? ` · ${point.test_days}` : '';
  return `${name}${days} · n ${count(point.test_rows)}`;
}

/** One panel: a dashed reference rule, the interval as a rule with end ticks, the score as a point. */
function scorePanel(field: 'auc' | 'log_loss_difference', reference: number, title: string, showLabels: boolean, width: number): Record<string, unknown> {
  // About 5 ticks: more overlap in a panel this narrow, and Vega-Lite then drops every other label, the reference
  // (0.5, 0) among them (a new user's trial: −0.025, −0.005, 0.015).
  const x = { type: 'quantitative' as const, title, scale: { zero: false, nice: true, padding: 14 }, axis: { tickCount: 5 } };
  const y = { field: 'label', type: 'nominal' as const, title: null, sort: null, axis: showLabels ? { labelLimit: 360 } : null };
  const valid = { filter: `isValid(datum.${field})` };
  const withInterval = { filter: `isValid(datum.${field}_ci_low) && isValid(datum.${field}_ci_high)` };
  const color = { field: 'part', type: 'nominal' as const, scale: { domain: ['fold', 'pooled'], range: ['#4c4c4c', '#0072B2'] }, legend: null };
  return {
    width,
    layer: [
      // its own one-row data: drawn once, not once per fold
      { data: { values: [{}] }, mark: { type: 'rule', color: '#888', strokeDash: [4, 3] }, encoding: { x: { datum: reference, ...x } } },
      {
        name: `${field}_interval`,
        transform: [withInterval],
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: { y, x: { field: `${field}_ci_low`, ...x }, x2: { field: `${field}_ci_high` }, color },
      },
      {
        transform: [withInterval, { fold: [`${field}_ci_low`, `${field}_ci_high`], as: ['end', 'end_value'] }],
        mark: { type: 'tick', orient: 'vertical', thickness: 2, size: 10 },
        encoding: { y, x: { field: 'end_value', ...x }, color },
      },
      {
        transform: [valid],
        mark: { type: 'point', filled: true, size: 70 },
        encoding: {
          y,
          x: { field, ...x },
          color,
          shape: { field: 'part', type: 'nominal', scale: { domain: ['fold', 'pooled'], range: ['circle', 'diamond'] }, legend: null },
          tooltip: [
            { field: 'fold', type: 'nominal' },
            { field: 'test_days', type: 'nominal', title: 'test days' },
            { field: 'test_rows', type: 'quantitative', title: 'test rows' },
            { field, type: 'quantitative', format: '.4f' },
            { field: `${field}_ci_low`, type: 'quantitative', format: '.4f', title: 'CI low' },
            { field: `${field}_ci_high`, type: 'quantitative', format: '.4f', title: 'CI high' },
          ],
        },
      },
    ],
  };
}

/** The longest subtitle line, in characters: about the width of the two panels at the subtitle's font size. */
const SUBTITLE_LINE_CHARS = 110;

/** `text` in lines of at most SUBTITLE_LINE_CHARS characters, broken between words (a longer word stands alone). */
function subtitleLines(text: string): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= SUBTITLE_LINE_CHARS) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * Two panels sharing one row per fold (time order) and a last `pooled` row: left the model's AUC with its
 * interval and a dashed rule at 0.5 (chance); right model minus baseline log loss with its interval and a
 * dashed rule at 0 (left of it: the model beats the base rate). Each panel on its own x scale, not forced to
 * 0 but always holding its reference line; each row says its n. Folds grey, pooled blue.
 */
export function modelScoreChartSpec(points: readonly ModelScorePoint[], options: ModelScoreChartOptions = {}): VegaLiteSpec {
  const values = points.map((point) => ({ ...point, label: rowLabel(point), part: point.fold === 'pooled' ? 'pooled' : 'fold' }));
  const what = [options.target ?? 'target not given', options.split ?? 'split not given', ...(options.model ? [options.model] : [])].join(' · ');
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: {
      text: options.title ?? 'Model score by fold',
      subtitle: [
        what,
        // The interval's description names two methods: wrapped, so it does not run past the two panels.
        ...subtitleLines(`${options.interval ?? 'CI (method and level not given)'}; n = test rows scored; pooled = every fold's test rows`),
        'dashed lines: chance (AUC 0.5) and no gain over the baseline (difference 0); each panel on its own scale',
      ],
    },
    data: { values },
    // flush: the hidden y axis of the right panel would otherwise keep a wide empty gap between the panels
    bounds: 'flush',
    spacing: 40,
    hconcat: [
      scorePanel('auc', 0.5, 'ROC AUC on the test rows (0.5 = chance)', true, 280),
      scorePanel('log_loss_difference', 0, 'model − baseline log loss (nats; below 0 = better)', false, 280),
    ],
    resolve: { scale: { x: 'independent', y: 'shared', color: 'shared', shape: 'shared' } },
  };
}
