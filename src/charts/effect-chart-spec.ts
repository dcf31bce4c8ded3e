// Effect chart: the difference against controls with its confidence interval, by window and group.

import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from './vega-lite-spec.js';

/** One estimate: a group's difference against controls in one window, percentage points. */
export interface EffectPoint {
  window: string;
  /** Group label, e.g. `breakout up`. */
  group: string;
  difference: number | null;
  ciLow: number | null;
  ciHigh: number | null;
}

/**
 * Points (estimate) with horizontal rules (interval) per group, one row of panels per window, and a
 * dashed zero line. Points with a null estimate are left out.
 */
export function effectChartSpec(points: readonly EffectPoint[], options: { title?: string } = {}): VegaLiteSpec {
  const values = points.filter((p) => p.difference !== null).map((p) => ({ ...p }));
  const x = { title: 'difference vs controls (percentage points)', type: 'quantitative' as const };
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title ?? 'Event minus control return, with bootstrap CI',
    data: { values },
    facet: { row: { field: 'window', type: 'nominal', title: 'window', sort: null } },
    spec: {
      width: 420,
      layer: [
        { mark: { type: 'rule', color: '#888', strokeDash: [4, 3] }, encoding: { x: { datum: 0, ...x } } },
        {
          mark: { type: 'rule', strokeWidth: 2 },
          encoding: { y: { field: 'group', type: 'nominal', title: null }, x: { field: 'ciLow', ...x }, x2: { field: 'ciHigh' } },
        },
        {
          mark: { type: 'point', filled: true, size: 60 },
          encoding: {
            y: { field: 'group', type: 'nominal', title: null },
            x: { field: 'difference', ...x },
            tooltip: [
              { field: 'group', type: 'nominal' },
              { field: 'difference', type: 'quantitative', format: '.3f' },
              { field: 'ciLow', type: 'quantitative', format: '.3f' },
              { field: 'ciHigh', type: 'quantitative', format: '.3f' },
            ],
          },
        },
      ],
    },
  };
}
