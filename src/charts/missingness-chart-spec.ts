// Missingness chart: rows by outcome status (stacked), per group and window.

import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from './vega-lite-spec.js';

/** Rows of one group, window and outcome status. */
export interface MissingnessBar {
  window: string;
  group: string;
  status: string;
  rows: number;
}

/** Horizontal stacked bars of rows by status per group, one row of panels per window. */
export function missingnessChartSpec(bars: readonly MissingnessBar[], options: { title?: string; statuses?: readonly string[] } = {}): VegaLiteSpec {
  const statuses = options.statuses ?? [...new Set(bars.map((bar) => bar.status))];
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title ?? 'Outcome status by group (only complete rows enter the statistics)',
    data: { values: bars.map((bar) => ({ ...bar })) },
    facet: { row: { field: 'window', type: 'nominal', title: 'window', sort: null } },
    spec: {
      width: 420,
      mark: 'bar',
      encoding: {
        y: { field: 'group', type: 'nominal', title: null },
        x: { field: 'rows', type: 'quantitative', stack: 'zero', title: 'rows' },
        color: { field: 'status', type: 'nominal', scale: { domain: statuses }, title: 'status' },
        tooltip: [
          { field: 'group', type: 'nominal' },
          { field: 'status', type: 'nominal' },
          { field: 'rows', type: 'quantitative' },
        ],
      },
    },
  };
}
