// The multiple-comparison adjustment validated on the mock's planted ground truth (docs/mock-simulator.md):
// over every window × group of a study, the planted 1h breakout groups survive Benjamini–Hochberg and no
// group of a null family (volume_spike, momentum) does. MarketSimulator rows, seed 1, 180 days.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benjaminiHochberg, eventStudy, type EventStudyRow } from '../../src/analysis/index.js';
import { WINDOWS } from '../../src/contract/index.js';
import { MarketSimulator, PLANTED_EFFECTS } from '../../src/mock/index.js';
import { simulatorCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';

// 180 days: enough for every per-symbol planted group (≈ 25 bps, standard error ≈ 5–9 bps at 60 days) to
// clear BH's thresholds among 90–180 groups. The rows are the mock's current release content of each day
// (dayRows as of the archive's check time), inserted in bulk (the import step is catalog's tests' job and
// costs ~4× more here).
const DAYS = 180;
const SYMBOLS = 6;
let fixture: FixtureCatalog;

beforeAll(async () => {
  fixture = await simulatorCatalog({ seed: 1, days: DAYS, label: 'ground-truth' });
}, 120_000);
afterAll(async () => fixture?.close());

const planted = PLANTED_EFFECTS.filter((effect) => effect.effectBps !== 0);
const nullKinds = new Set(PLANTED_EFFECTS.filter((effect) => effect.effectBps === 0).map((effect) => effect.eventKind));
const isPlanted = (row: EventStudyRow) => planted.some((effect) => effect.eventKind === row.event_kind && effect.window === row.window);
const excludesZero = (row: EventStudyRow) => row.ci_low_pct! > 0 || row.ci_high_pct! < 0;

describe('adjusted significance on the planted ground truth (seed 1, 180 days, all five windows)', () => {
  it('keeps every planted group and drops every null-family group (directions pooled, per symbol: 90 groups)', async () => {
    const result = await eventStudy(fixture.connection, { windows: [...WINDOWS], by: ['event_kind', 'symbol'] });
    const { multipleComparisons } = result.metadata;
    expect(result.rows).toHaveLength(WINDOWS.length * 3 * SYMBOLS);
    expect(multipleComparisons).toMatchObject({ method: 'benjamini-hochberg', level: 0.05, tested: result.rows.length });

    const plantedRows = result.rows.filter(isPlanted);
    expect(plantedRows).toHaveLength(SYMBOLS);
    for (const row of plantedRows) expect(row.significant_adjusted, `${row.symbol}: q ${row.q_value}`).toBe(true);
    const nullRows = result.rows.filter((row) => nullKinds.has(row.event_kind!));
    expect(nullRows).toHaveLength(WINDOWS.length * nullKinds.size * SYMBOLS);
    for (const row of nullRows) expect(row.significant_adjusted, `${row.window} ${row.event_kind} ${row.symbol}: q ${row.q_value}`).toBe(false);
    // What the adjustment is for: some null groups' 95% intervals exclude 0 by chance alone.
    expect(nullRows.filter(excludesZero).length).toBeGreaterThan(0);
  });

  it('keeps every planted group among all 180 groups (window × kind × direction × symbol), q from the rows\' p-values', async () => {
    const result = await eventStudy(fixture.connection, { windows: [...WINDOWS], by: ['event_kind', 'direction', 'symbol'] });
    expect(result.rows).toHaveLength(180);
    expect(result.rows.every((row) => row.p_value !== null && row.p_value > 0 && row.p_value <= 1)).toBe(true);
    expect(result.rows.map((row) => row.q_value)).toEqual(benjaminiHochberg(result.rows.map((row) => row.p_value)));
    expect(result.rows.every((row) => row.significant_adjusted === row.q_value! <= 0.05)).toBe(true);
    expect(result.metadata.multipleComparisons.significant).toBe(result.rows.filter((row) => row.significant_adjusted).length);

    const plantedRows = result.rows.filter(isPlanted);
    expect(plantedRows).toHaveLength(2 * SYMBOLS);
    for (const row of plantedRows) expect(row.significant_adjusted, `${row.direction} ${row.symbol}: q ${row.q_value}`).toBe(true);
    // Split by direction, null groups are not asserted: up and down carry one sample term with opposite
    // signs (events fall in busier hours than controls; docs/analysis.md "Many groups").
  });

  it('puts the new columns in the Arrow table, typed', async () => {
    const result = await eventStudy(fixture.connection, { window: '1h' });
    const names = result.table.schema.fields.map((field) => field.name);
    // results first (eventStudyColumns): the interval, q and the mark beside the difference, p_value first of the detail
    expect(names.slice(names.indexOf('difference_pct'), names.indexOf('difference_pct') + 6)).toEqual(['difference_pct', 'ci_low_pct', 'ci_high_pct', 'q_value', 'significant_adjusted', 'p_value']);
    expect(String(result.table.schema.fields.find((field) => field.name === 'significant_adjusted')!.type)).toBe('Bool');
    expect(result.table.getChild('significant_adjusted')!.toArray()).toEqual(result.rows.map((row) => row.significant_adjusted));
  });
});
