// Missingness chart: the share of rows whose outcome is missing, by status, per group and window.

import { OUTCOME_STATUSES } from '../contract/index.js';
import { statusColorScale } from './status-colors.js';
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from './vega-lite-spec.js';
import { WINDOW_HEADER } from './window-facet-header.js';
import { windowOrder } from './window-order.js';

/** Rows of one group, window and outcome status (`complete` included: it is the denominator). */
export interface MissingnessBar {
  window: string;
  group: string;
  status: string;
  rows: number;
}

export interface MissingnessChartOptions {
  /** Chart title. Default `Missing outcomes: share of rows by status`. */
  title?: string;
  /** Statuses in legend order; `complete` is never drawn (it is what is not missing). Default: the contract's. */
  statuses?: readonly string[];
}

const count = (value: number) => value.toLocaleString('en-US');

/**
 * Horizontal stacked bars of the SHARE of rows missing, by missing status, per group; one row of panels
 * per window in duration order, each on its own x scale, so 6 missing of 2,000 is a visible bar and not a
 * hair beside 2,000 complete. Each group's label says `m of N missing`, the bar's end its share.
 */
export function missingnessChartSpec(bars: readonly MissingnessBar[], options: MissingnessChartOptions = {}): VegaLiteSpec {
  const statuses = (options.statuses ?? OUTCOME_STATUSES).filter((status) => status !== 'complete');
  // 1. totals per window × group, in input order
  const groups = new Map<string, { window: string; group: string; total: number; missing: number }>();
  for (const bar of bars) {
    const key = `${bar.window}|${bar.group}`;
    const entry = groups.get(key) ?? { window: bar.window, group: bar.group, total: 0, missing: 0 };
    entry.total += bar.rows;
    if (bar.status !== 'complete') entry.missing += bar.rows;
    groups.set(key, entry);
  }
  const label = (entry: { group: string; total: number; missing: number }) =>
    entry.total === 0 ? `${entry.group} · no rows` : `${entry.group} · ${count(entry.missing)} of ${count(entry.total)} missing`;
  // 2. one value per missing status, plus one end-of-bar label per group
  const values: Record<string, unknown>[] = [];
  for (const bar of bars) {
    const entry = groups.get(`${bar.window}|${bar.group}`)!;
    if (bar.status === 'complete' || entry.total === 0) continue;
    values.push({ window: bar.window, group: bar.group, label: label(entry), status: bar.status, status_order: statuses.indexOf(bar.status), rows: bar.rows, share: bar.rows / entry.total });
  }
  for (const entry of groups.values()) {
    if (entry.total === 0) continue;
    values.push({ window: entry.window, group: entry.group, label: label(entry), total_share: entry.missing / entry.total, end_label: true });
  }
  const y = { field: 'label', type: 'nominal' as const, title: null, sort: null, axis: { labelLimit: 320 } };
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: {
      text: options.title ?? 'Missing outcomes: share of rows by status',
      subtitle: ['Only complete outcomes enter the statistics; missing is never zero', 'each window on its own scale'],
    },
    data: { values },
    facet: {
      row: { field: 'window', type: 'ordinal', title: null, sort: windowOrder(values.map((v) => v.window as string)), header: WINDOW_HEADER },
    },
    spec: {
      width: 420,
      layer: [
        {
          transform: [{ filter: 'datum.end_label !== true' }],
          mark: 'bar',
          encoding: {
            y,
            x: { field: 'share', type: 'quantitative', stack: 'zero', title: 'share of rows missing', axis: { format: '~%' } },
            color: { field: 'status', type: 'nominal', scale: statusColorScale(statuses), title: 'missing status' },
            order: { field: 'status_order', sort: 'ascending' },
            tooltip: [
              { field: 'group', type: 'nominal' },
              { field: 'status', type: 'nominal' },
              { field: 'rows', type: 'quantitative' },
              { field: 'share', type: 'quantitative', format: '.2%' },
            ],
          },
        },
        {
          transform: [{ filter: 'datum.end_label === true' }],
          mark: { type: 'text', align: 'left', dx: 4, fontSize: 10 },
          encoding: { y, x: { field: 'total_share', type: 'quantitative' }, text: { field: 'total_share', type: 'quantitative', format: '.2~%' } },
        },
      ],
    },
    resolve: { scale: { x: 'independent', y: 'independent' }, axis: { x: 'independent' } },
  };
}
