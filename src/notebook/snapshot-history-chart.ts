// Line chart of a snapshot history: one line per series (e.g. symbol) of an item field over generated_at.

import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from '../charts/index.js';
import type { SnapshotHistoryPoint } from './snapshot-history-points.js';

export interface SnapshotHistoryChartOptions {
  /** Chart title. Default `Snapshot history`. */
  title?: string;
  /** Y axis title (say the unit). Default `value`. */
  yTitle?: string;
}

/** Lines with points per series; null values are left out (a gap in the line, never a zero). */
export function snapshotHistorySpec(points: readonly SnapshotHistoryPoint[], options: SnapshotHistoryChartOptions = {}): VegaLiteSpec {
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title ?? 'Snapshot history',
    width: 480,
    height: 240,
    data: { values: points.filter((point) => point.value !== null).map((point) => ({ ...point })) },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'time', type: 'temporal', title: 'generated_at (UTC)', axis: { format: '%H:%M' } },
      y: { field: 'value', type: 'quantitative', title: options.yTitle ?? 'value', scale: { zero: false } },
      color: { field: 'series', type: 'nominal', title: null },
      tooltip: [
        { field: 'series', type: 'nominal' },
        { field: 'time', type: 'temporal', format: '%Y-%m-%d %H:%M' },
        { field: 'value', type: 'quantitative' },
      ],
    },
  };
}
