// Effect chart: the difference against controls with its confidence interval, by window and group.

import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from './vega-lite-spec.js';
import { WINDOW_HEADER } from './window-facet-header.js';
import { windowOrder } from './window-order.js';

/** One estimate: a group's difference against controls in one window, percentage points. */
export interface EffectPoint {
  window: string;
  /** Group label, e.g. `breakout up`. */
  group: string;
  /** Event mean minus control mean return, percentage points (0.01 = 1 bp). */
  difference: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  /** Event rows with a complete outcome (the n of the estimate). Shown beside the group when given. */
  nComplete?: number;
  /** All event rows of the group, complete or not. */
  n?: number;
  /** Control rows with a complete outcome that the group was compared with. */
  controlNComplete?: number;
  /** Non-zero after the multiple-comparison adjustment (filled point) or not (hollow); null/absent: not tested. */
  significant?: boolean | null;
  /** The adjusted p-value (q-value), for the tooltip. */
  qValue?: number | null;
}

export interface EffectChartOptions {
  /** Chart title. Default `Event minus control return by window`. */
  title?: string;
  /**
   * What the interval is (method and level), shown as the subtitle, e.g. `95% CI, block-jackknife t over UTC-day blocks`.
   * Default `CI (method and level not given)`: pass it, a chart should say what its bars are.
   */
  interval?: string;
}

const count = (value: number) => value.toLocaleString('en-US');

/** Legend entries of the point fill, when points carry `significant`. */
const SIGNIFICANCE_LEGEND = { yes: 'non-zero after multiple-comparison adjustment', no: 'not after adjustment', untested: 'not tested (no interval)' } as const;

/** The y label of a point: the group and its n, e.g. `breakout up  (n 412 of 430)`. */
function pointLabel(point: EffectPoint): string {
  if (point.nComplete === undefined) return point.group;
  return point.n === undefined ? `${point.group}  (n ${count(point.nComplete)})` : `${point.group}  (n ${count(point.nComplete)} of ${count(point.n)})`;
}

/**
 * Points (estimate) with horizontal rules (interval) per group and a dashed zero line; one row of panels
 * per window in duration order (15m … 7d), each window on its own x scale (a 7d interval would flatten a
 * 15m one to a dot). Points with a null estimate are left out.
 */
export function effectChartSpec(points: readonly EffectPoint[], options: EffectChartOptions = {}): VegaLiteSpec {
  const values = points
    .filter((p) => p.difference !== null)
    .map((p) => ({
      ...p,
      label: pointLabel(p),
      adjusted: p.significant === true ? SIGNIFICANCE_LEGEND.yes : p.significant === false ? SIGNIFICANCE_LEGEND.no : SIGNIFICANCE_LEGEND.untested,
    }));
  const tested = points.some((p) => p.significant === true || p.significant === false);
  const untested = values.some((p) => p.adjusted === SIGNIFICANCE_LEGEND.untested);
  // Filled when the estimate survives the adjustment, hollow when not: the CI alone overstates 180 groups. A group
  // never tested (no interval, so no p) is grey: hollow would say "tested, not significant".
  const domain = [SIGNIFICANCE_LEGEND.yes, SIGNIFICANCE_LEGEND.no, ...(untested ? [SIGNIFICANCE_LEGEND.untested] : [])];
  const range = ['#222222', '#ffffff', ...(untested ? ['#bbbbbb'] : [])];
  const fill = tested
    ? { color: { field: 'adjusted', type: 'nominal', title: null, scale: { domain, range }, legend: { orient: 'top', direction: 'vertical', symbolStrokeColor: '#222222', labelLimit: 400 } } }
    : {};
  // Few ticks, so none is dropped for overlap: vega-lite then labels every other tick, and a scale from −0.25
  // labelled −0.25, −0.15, −0.05, 0.05 … never said where 0 is (a new user's trial).
  const x = { title: 'event − control mean return (percentage points; 0.01 = 1 bp)', type: 'quantitative' as const, axis: { tickCount: 6 } };
  const y = { field: 'label', type: 'nominal' as const, title: null, sort: null, axis: { labelLimit: 320 } };
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: {
      text: options.title ?? 'Event minus control return by window',
      subtitle: [
        `${options.interval ?? 'CI (method and level not given)'}; dashed line: no difference`,
        'n = event rows with a complete outcome, of all event rows; each window on its own scale',
      ],
    },
    data: { values },
    facet: {
      row: { field: 'window', type: 'ordinal', title: null, sort: windowOrder(values.map((p) => p.window)), header: WINDOW_HEADER },
    },
    spec: {
      width: 500,
      layer: [
        { mark: { type: 'rule', color: '#888', strokeDash: [4, 3] }, encoding: { x: { datum: 0, ...x } } },
        {
          mark: { type: 'rule', strokeWidth: 2, color: '#4c4c4c' },
          encoding: { y, x: { field: 'ciLow', ...x }, x2: { field: 'ciHigh' } },
        },
        {
          mark: { type: 'point', filled: true, size: 60, color: '#222222', stroke: '#222222', strokeWidth: 1.5 },
          encoding: {
            y,
            x: { field: 'difference', ...x },
            ...fill,
            tooltip: [
              { field: 'window', type: 'nominal' },
              { field: 'group', type: 'nominal' },
              { field: 'difference', type: 'quantitative', format: '.3f', title: 'difference (pp)' },
              { field: 'ciLow', type: 'quantitative', format: '.3f' },
              { field: 'ciHigh', type: 'quantitative', format: '.3f' },
              { field: 'nComplete', type: 'quantitative', title: 'events complete' },
              { field: 'n', type: 'quantitative', title: 'events' },
              { field: 'controlNComplete', type: 'quantitative', title: 'controls complete' },
              { field: 'qValue', type: 'quantitative', format: '.3g', title: 'q-value' },
            ],
          },
        },
      ],
    },
    resolve: { scale: { x: 'independent', y: 'independent' }, axis: { x: 'independent' } },
  };
}
