import { tableFromJSON } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnalysisOptionError,
  LABELS_VIEW,
  PREDICTORS_VIEW,
  createAnalysisViews,
  filterPointInTime,
  pointInTimeCounts,
  splitPredictorsAndLabels,
} from '../../src/analysis/index.js';
import { IDENTITY_FIELD_NAMES, LABEL_FIELD_NAMES, PREDICTOR_FIELD_NAMES, WINDOWS } from '../../src/contract/index.js';
import type { MarketEventRow } from '../../src/contract/index.js';
import { rowsToArrow } from '../support/rows-to-arrow.js';
import { buildFixtureCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';
import { syntheticDays } from '../support/synthetic-rows.js';

const days = syntheticDays({ days: 4, seed: 7 });
const allRows = days.flatMap((day) => day.rows);
let catalog: FixtureCatalog;

beforeAll(async () => {
  catalog = await buildFixtureCatalog(days.map((day) => ({ releaseId: day.releaseId, day: day.day, rows: day.rows })));
  await createAnalysisViews(catalog.connection);
});
afterAll(async () => catalog?.close());

async function columnsOf(view: string): Promise<string[]> {
  const reader = await catalog.connection.runAndReadAll(`SELECT * FROM ${view} LIMIT 0`);
  return reader.columnNames();
}

describe('createAnalysisViews', () => {
  it('mev_predictors holds release_id, identity and predictor fields only, point-in-time rows only', async () => {
    expect(await columnsOf(PREDICTORS_VIEW)).toEqual(['release_id', ...IDENTITY_FIELD_NAMES, ...PREDICTOR_FIELD_NAMES]);
    const count = (await catalog.connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${PREDICTORS_VIEW}`)).getRowObjectsJS()[0]!.n;
    const expected = filterPointInTime(allRows).counts.kept;
    expect(expected).toBeLessThan(allRows.length); // the fixture has rows to drop
    expect(count).toBe(expected);
  });

  it('mev_labels holds release_id, identity and every label field, for every row', async () => {
    const columns = await columnsOf(LABELS_VIEW);
    expect(columns).toEqual(['release_id', ...IDENTITY_FIELD_NAMES, ...LABEL_FIELD_NAMES]);
    expect(columns.filter((c) => PREDICTOR_FIELD_NAMES.includes(c))).toEqual([]);
    const count = (await catalog.connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${LABELS_VIEW}`)).getRowObjectsJS()[0]!.n;
    expect(count).toBe(allRows.length);
  });

  it('joins predictors back to their labels by row_id and release_id', async () => {
    const reader = await catalog.connection.runAndReadAll(
      `SELECT count(*)::INTEGER AS n, count(l.status_1h)::INTEGER AS labelled
       FROM ${PREDICTORS_VIEW} p JOIN ${LABELS_VIEW} l USING (row_id, release_id)`,
    );
    const row = reader.getRowObjectsJS()[0]!;
    expect(row.n).toBe(filterPointInTime(allRows).counts.kept);
    expect(row.labelled).toBe(row.n);
  });
});

describe('point-in-time counts', () => {
  it('SQL and TypeScript agree on kept rows and drop reasons', async () => {
    const sql = await pointInTimeCounts(catalog.connection);
    const ts = filterPointInTime(allRows).counts;
    expect(sql).toEqual(ts);
    expect(sql.dropped.not_pit_eligible).toBeGreaterThan(0);
    expect(sql.dropped.feature_after_sample_time).toBeGreaterThan(0);
    expect(sql.dropped.derivative_after_sample_time).toBeGreaterThan(0);
    expect(sql.kept + Object.values(sql.dropped).reduce((a, b) => a + b, 0)).toBe(sql.total);
  });

  it.each([
    ['eligible and known in time', { feature_pit_eligible: true, feature_available_at: 90, derivative_available_at: 95 }, null],
    ['no derivative observation', { feature_pit_eligible: true, feature_available_at: 100, derivative_available_at: null }, null],
    ['not eligible', { feature_pit_eligible: false, feature_available_at: 90, derivative_available_at: 95 }, 'not_pit_eligible'],
    ['feature time unknown', { feature_pit_eligible: true, feature_available_at: null, derivative_available_at: 95 }, 'feature_available_at_missing'],
    ['feature archived late', { feature_pit_eligible: true, feature_available_at: 101, derivative_available_at: 95 }, 'feature_after_sample_time'],
    ['derivative archived late', { feature_pit_eligible: true, feature_available_at: 90, derivative_available_at: 100.5 }, 'derivative_after_sample_time'],
  ])('%s', (_name, fields, reason) => {
    const { counts } = filterPointInTime([{ sample_time: 100, ...fields }]);
    if (reason === null) expect(counts.kept).toBe(1);
    else expect(counts.dropped[reason as keyof typeof counts.dropped]).toBe(1);
  });
});

describe('splitPredictorsAndLabels', () => {
  it('returns predictor and label tables over the same rows, joinable by row_id and release_id', () => {
    const sample = allRows.slice(0, 50);
    const table = rowsToArrow(sample as never, { release_id: days[0]!.releaseId });
    const { predictors, labels } = splitPredictorsAndLabels(table);
    const keys = ['release_id', ...IDENTITY_FIELD_NAMES];
    expect(predictors.schema.fields.map((f) => f.name)).toEqual([...keys, ...PREDICTOR_FIELD_NAMES]);
    expect(labels.schema.fields.map((f) => f.name)).toEqual([...keys, ...LABEL_FIELD_NAMES]);
    expect(predictors.numRows).toBe(50);
    expect(labels.numRows).toBe(50);
    expect(predictors.getChild('row_id')!.toArray()).toEqual(labels.getChild('row_id')!.toArray());
    expect(labels.getChild('return_pct_1h')!.get(3)).toBe(sample[3]!.return_pct_1h);
    expect(predictors.getChild('price')!.get(7)).toBe(sample[7]!.price);
  });

  it('refuses a table without row_id', () => {
    expect(() => splitPredictorsAndLabels(tableFromJSON([{ price: 1 }]))).toThrow(AnalysisOptionError);
  });
});

describe('mev_labels outcome values', () => {
  // A release that stores 0 (not null) for outcomes that are not complete: the view must still give
  // missing values (spec: "Pending or gap outcomes are missing values, not zero returns").
  const VALUE_MEASURES = ['return_pct', 'direction_adjusted_return_pct', 'mfe_pct', 'mae_pct'] as const;
  const STATUSES = ['pending', 'gap', 'invalid_price', 'not_applicable', 'complete'] as const;
  let zeros: FixtureCatalog;

  beforeAll(async () => {
    const [day] = syntheticDays({ days: 1, seed: 11, lastDayPending: false });
    const rows = day!.rows.slice(0, STATUSES.length).map((row, index) => {
      const stored: Record<string, unknown> = { ...row };
      for (const window of WINDOWS) {
        stored[`status_${window}`] = STATUSES[index];
        for (const measure of VALUE_MEASURES) stored[`${measure}_${window}`] = STATUSES[index] === 'complete' ? 1.25 : 0;
        stored[`missing_candles_${window}`] = STATUSES[index] === 'gap' ? 2 : null;
      }
      return stored as unknown as MarketEventRow;
    });
    zeros = await buildFixtureCatalog([{ releaseId: day!.releaseId, day: day!.day, rows }]);
    await createAnalysisViews(zeros.connection);
  });
  afterAll(async () => zeros?.close());

  it.each(STATUSES)('gives null outcome values for status %s unless it is complete, even where 0 is stored', async (status) => {
    const reader = await zeros.connection.runAndReadAll(`SELECT * FROM ${LABELS_VIEW} WHERE status_1h = '${status}'`);
    const [row] = reader.getRowObjectsJS();
    for (const window of WINDOWS) {
      for (const measure of VALUE_MEASURES) {
        expect({ field: `${measure}_${window}`, value: row![`${measure}_${window}`] }).toEqual({
          field: `${measure}_${window}`,
          value: status === 'complete' ? 1.25 : null,
        });
      }
      // missing_candles describes a gap: kept as stored.
      expect(row![`missing_candles_${window}`]).toBe(status === 'gap' ? 2 : null);
    }
  });

  it('the raw table still holds the stored zeros', async () => {
    const reader = await zeros.connection.runAndReadAll(`SELECT return_pct_1h FROM market_events WHERE status_1h = 'pending'`);
    expect(reader.getRowObjectsJS()[0]!.return_pct_1h).toBe(0);
  });
});
