// The notebook helpers: study header and table text, the missingness report, a snapshot history's chart
// points, number formatting, and display outside a kernel.

import { describe, expect, it } from 'vitest';
import { eventStudyColumns, type EventStudyResult, type MissingnessCell } from '../../src/analysis/index.js';
import { EVENT_KINDS, SYMBOLS, WINDOWS } from '../../src/contract/index.js';
import type { SnapshotHistoryEntry } from '../../src/catalog/index.js';
import {
  MISSINGNESS_COLUMNS,
  NotInKernelError,
  NotebookOptionError,
  displayBundle,
  formatValue,
  missingnessRows,
  snapshotHistoryPoints,
  snapshotHistorySpec,
  studyHeaderHtml,
  studyHeaderText,
  studyTableColumns,
  studyTableHtml,
  studyTableText,
  textTable,
} from '../../src/notebook/index.js';
import type { StudyLock } from '../../src/locks/index.js';
import { breadthSnapshot } from '../support/research-snapshot.js';

const hex = (char: string) => char.repeat(64);
const lock: StudyLock = {
  lockVersion: 1,
  rdwVersion: '0.1.0',
  dataset: 'market-events-v1',
  releases: [
    { id: hex('a'), day: '2026-10-30', version: 'mev-calc-4', manifestSha256: hex('b'), schemaSha256: null, files: { parquet: { sha256: hex('c'), bytes: 10 } } },
    { id: hex('d'), day: '2026-10-31', version: 'mev-calc-4', manifestSha256: hex('e'), schemaSha256: hex('f'), files: { parquet: { sha256: hex('1'), bytes: 11 } } },
  ],
  calculationVersions: ['mev-calc-4'],
};

describe('study header', () => {
  it('prints every release ID and checksum in full, oldest day first', () => {
    const lines = studyHeaderText(lock).split('\n');
    expect(lines[0]).toBe('Study lock v1 (written by rdw 0.1.0): market-events-v1, 2 releases, 2026-10-30 .. 2026-10-31; calculation versions: mev-calc-4');
    expect(lines[1]!.split(/\s+/)).toEqual(['day', 'version', 'release_id', 'manifest_sha256', 'schema_sha256', 'data_files']);
    expect(lines[2]!.split(/\s+/)).toEqual(['2026-10-30', 'mev-calc-4', hex('a'), hex('b'), `parquet:${hex('c')}`]);
    expect(lines[3]!.split(/\s+/)).toEqual(['2026-10-31', 'mev-calc-4', hex('d'), hex('e'), hex('f'), `parquet:${hex('1')}`]);
  });

  it('renders the same rows as HTML, a missing schema as null', () => {
    const html = studyHeaderHtml(lock);
    for (const digest of [hex('a'), hex('b'), hex('d'), hex('f')]) expect(html).toContain(`>${digest}<`);
    expect(html).toContain('<td style="color:#999">null</td>');
  });
});

describe('study table text', () => {
  const row = {
    window: '1h', event_kind: 'breakout', direction: 'up', n: 10, n_complete: 8,
    missing_pending: 1, missing_gap: 1, missing_invalid_price: 0, missing_not_applicable: 0,
    mean_return_pct: 0.123456, median_return_pct: null, hit_rate: 0.5, median_mfe_pct: null, median_mae_pct: null,
    control_n: 4, control_n_complete: 4, control_missing_pending: 0, control_missing_gap: 0,
    control_missing_invalid_price: 0, control_missing_not_applicable: 0,
    raw_control_mean_pct: 0.02, signed_control_mean_pct: -0.02, difference_pct: 0.143456, ci_low_pct: 0.05, ci_high_pct: 0.25,
    p_value: 0.0061, q_value: 0.0123456, significant_adjusted: true,
  };
  const result = {
    rows: [row],
    metadata: {
      by: ['event_kind', 'direction'], rows: 14, releaseIds: [hex('a')], interval: { method: 'block-jackknife', samples: 2000, seed: 1, confidence: 0.95, blockDays: 'auto' },
      intervalBlockDays: { '1h': 1 }, intervalGaps: [],
      multipleComparisons: { level: 0.05 },
    },
  } as unknown as EventStudyResult;

  it('prints the results first: n complete/all, missing, diff with its mark, the CI, q; a legend and the settings', () => {
    const [head, line, legend, footer] = studyTableText(result).split('\n');
    expect(head!.split(/\s{2,}/)).toEqual(['window', 'event_kind', 'direction', 'n', 'missing', 'diff', '95% CI', 'q']);
    expect(line!.split(/\s{2,}/)).toEqual(['1h', 'breakout', 'up', '8/10', '2', '0.143*', '[0.050, 0.250]', '0.012']);
    // numbers right-aligned under their header
    expect(line!.indexOf('0.143*') + '0.143*'.length).toBe(head!.indexOf('diff') + 'diff'.length);
    expect(legend).toBe('diff, 95% CI (unadjusted): event minus control mean return in pp; n: complete/all; *: BH q <= 0.05');
    expect(footer).toBe('rows 14, releases 1; CI: block jackknife (t), blocks 1d at 1h');
  });

  it('wide: every column in the order of eventStudyColumns, 4 significant digits, a missing statistic blank (never 0)', () => {
    const lines = studyTableText(result, { wide: true }).split('\n');
    const columns = eventStudyColumns(['event_kind', 'direction']).map((column) => column.name);
    expect(lines[0]!.split(/\s+/)).toEqual(columns);
    expect(studyTableColumns(result, { wide: true })).toEqual(columns);
    const cells = lines[1]!.trim().split(/\s+/);
    expect(cells.slice(0, 12)).toEqual(['1h', 'breakout', 'up', '10', '8', '0.1435', '0.05000', '0.2500', '0.01235', 'true', '0.006100', '1']);
    expect(cells).toHaveLength(columns.length - 3); // median_return_pct, median_mfe_pct and median_mae_pct are blank
    // The prose under the wide table fits 100 columns (the table itself is as wide as its columns).
    expect(lines.slice(2, 4)).toEqual(['Returns, difference and CI in pp; ci_*_pct: 95% CI', 'q_value: Benjamini-Hochberg; significant_adjusted: q <= 0.05']);
    for (const line of lines.slice(2)) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('fits 100 columns for 180 groups (5 windows x kind x direction x symbol) with wide numbers', () => {
    const rows = WINDOWS.flatMap((window) =>
      EVENT_KINDS.flatMap((event_kind) =>
        ['up', 'down'].flatMap((direction) =>
          SYMBOLS.map((symbol, i) => ({
            ...row, window, event_kind, direction, symbol, n: 9999, n_complete: 9000 + i,
            difference_pct: -10.1234, ci_low_pct: -20.4567, ci_high_pct: -15.789, q_value: 0.00001, significant_adjusted: true,
          })),
        ),
      ),
    );
    expect(rows).toHaveLength(180);
    const wide = { ...result, rows, metadata: { ...result.metadata, by: ['event_kind', 'direction', 'symbol'] } } as unknown as EventStudyResult;
    const lines = studyTableText(wide).split('\n');
    expect(lines).toHaveLength(180 + 3);
    for (const text of lines) expect(text.length, text).toBeLessThanOrEqual(100);
    expect(lines[1]).toContain('9000/9999');
    expect(lines[1]).toContain('[-20.457, -15.789]');
    expect(lines[1]).toContain('<0.001');
  });

  it('renders the same cells as HTML, the legend as caption; wide has every column', () => {
    const html = studyTableHtml(result);
    expect([...html.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1])).toEqual(['window', 'event_kind', 'direction', 'n', 'missing', 'diff', '95% CI', 'q']);
    expect(html).toContain('<td style="text-align:right">[0.050, 0.250]</td>');
    expect(html).toContain('<caption>diff, 95% CI (unadjusted): event minus control mean return in pp;');
    expect(studyTableHtml(result, { caption: 'By window & group' })).toContain('<caption>By window &amp; group<br><small>diff, 95% CI (unadjusted):');
    expect([...studyTableHtml(result, { wide: true }).matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1])).toEqual(
      eventStudyColumns(['event_kind', 'direction']).map((column) => column.name),
    );
  });
});

describe('missingness report', () => {
  it('pivots statuses to columns per window and sample type, with the missing share', () => {
    const cells: MissingnessCell[] = [
      { window: '1h', sample_type: 'event', status: 'complete', rows: 6 },
      { window: '1h', sample_type: 'event', status: 'pending', rows: 2 },
      { window: '1h', sample_type: 'event', status: 'gap', rows: 0 },
      { window: '1h', sample_type: 'control', status: 'complete', rows: 0 },
    ] as MissingnessCell[];
    const rows = missingnessRows(cells);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ window: '1h', sample_type: 'event', rows: 8, complete: 6, pending: 2, gap: 0, missing_share: 0.25 });
    expect(rows[1]).toMatchObject({ window: '1h', sample_type: 'control', rows: 0, missing_share: null });
    expect(textTable(rows, { columns: MISSINGNESS_COLUMNS }).split('\n')[0]!.split(/\s+/)).toEqual([
      'window', 'sample_type', 'rows', 'pending', 'gap', 'invalid_price', 'not_applicable', 'complete', 'missing_share',
    ]);
  });
});

describe('snapshot history chart', () => {
  // A history as the catalog reads it back (test/catalog/snapshot-records.test.ts): the helpers only chart it.
  const entry = (generatedAt: number, change: number | null): SnapshotHistoryEntry => ({
    dataset_id: 'market-breadth', generated_at: generatedAt, updated: generatedAt - 300, stale: false, calculation_version: 'breadth-2',
    snapshot: breadthSnapshot(generatedAt, change),
  });

  it('flattens a history into one point per item, a missing value null (a gap in the chart, never 0)', () => {
    const history = [entry(1_793_491_200, null), entry(1_793_491_500, 2.5)];
    const points = snapshotHistoryPoints(history, 'change_24h');
    expect(points).toEqual([
      { time: '2026-11-01T00:00:00.000Z', series: 'BTCUSDT', value: null },
      { time: '2026-11-01T00:00:00.000Z', series: 'ETHUSDT', value: 1.5 },
      { time: '2026-11-01T00:05:00.000Z', series: 'BTCUSDT', value: 2.5 },
      { time: '2026-11-01T00:05:00.000Z', series: 'ETHUSDT', value: 1.5 },
    ]);
    // A missing value is left out of the chart (a gap), never drawn as 0.
    const values = (snapshotHistorySpec(points).data as { values: { value: number }[] }).values;
    expect(values.map((point) => point.value)).toEqual([1.5, 2.5, 1.5]);
    expect(() => snapshotHistoryPoints(history, 'symbol')).toThrow(NotebookOptionError);
    expect(snapshotHistoryPoints([], 'change_24h')).toEqual([]);
  });
});

describe('display outside a kernel', () => {
  it('throws NotInKernelError instead of writing anywhere', () => {
    expect(() => displayBundle({ 'text/html': '<b>x</b>' })).toThrow(NotInKernelError);
    try {
      displayBundle({});
    } catch (error) {
      expect((error as NotInKernelError).code).toBe('RDW_NOT_IN_KERNEL');
    }
  });
});

describe('formatValue', () => {
  it.each([
    [65446.29, '65446'],
    [2695318334.94, '2695318335'],
    [0.068246, '0.06825'],
    [1234.5, '1235'],
    [12, '12'],
    [null, ''],
  ])('%s -> %s', (value, text) => {
    expect(formatValue(value)).toBe(text);
  });
});
