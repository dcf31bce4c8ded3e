// Coverage heatmap: rows per UTC day (x) and symbol (y).

import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from './vega-lite-spec.js';

/** Rows of one UTC day (YYYY-MM-DD) and symbol. */
export interface CoverageHeatmapCell {
  day: string;
  symbol: string;
  rows: number;
}

/** A day × symbol grid of rect marks coloured by row count; empty cells mean no rows. */
export function coverageHeatmapSpec(cells: readonly CoverageHeatmapCell[], options: { title?: string } = {}): VegaLiteSpec {
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title ?? 'Coverage: rows per day and symbol',
    data: { values: cells.map((cell) => ({ day: cell.day, symbol: cell.symbol, rows: cell.rows })) },
    width: 600,
    mark: 'rect',
    encoding: {
      x: { field: 'day', type: 'ordinal', title: 'day (UTC)', axis: { labelOverlap: true } },
      y: { field: 'symbol', type: 'nominal', title: null },
      color: { field: 'rows', type: 'quantitative', title: 'rows' },
      tooltip: [
        { field: 'day', type: 'ordinal' },
        { field: 'symbol', type: 'nominal' },
        { field: 'rows', type: 'quantitative' },
      ],
    },
  };
}
