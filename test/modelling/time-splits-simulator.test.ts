// Time-aware splits on the mock's MarketSimulator rows (seed 1, 20 days, the current release content of each
// day, so the newest days hold pending outcomes): every fold checked against a reference computed here from
// plain SQL rows and loops (eligibility, day blocks, label intervals, purge, embargo), counts adding up, and
// two runs equal.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgedKFoldSplits, splitRowIdentities, walkForwardSplits, type TimeSplits } from '../../src/modelling/index.js';
import { MARKET_EVENT_FIELD_NAMES, WINDOW_SECONDS, type Window } from '../../src/contract/index.js';
import { classifiedSplitRowsSql } from '../../src/modelling/split-rows.js';
import { toAnalysisSource } from '../../src/analysis/analysis-source.js';
import { RUN_TIME_COLUMNS } from '../../src/analysis/feature-names.js';
import { MarketSimulator } from '../../src/mock/index.js';
import { simulatorCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';

const DAYS = 20;
let fixture: FixtureCatalog;

beforeAll(async () => {
  fixture = await simulatorCatalog({ seed: 1, days: DAYS, label: 'splits' });
}, 120_000);
afterAll(async () => fixture?.close());

interface Reference {
  key: string;
  time: number;
  end: number;
  day: string;
}

/** The reference: every row by plain SQL, eligibility and label intervals decided here. */
async function reference(window: Window): Promise<{ total: number; leftOut: number; eligible: Reference[]; byReason: Record<string, number> }> {
  const rows = (
    await fixture.connection.runAndReadAll(
      `SELECT release_id, row_id, sample_time, reference_start, status_${window} AS status, feature_pit_eligible,
        feature_available_at, derivative_available_at FROM market_events_current`,
    )
  ).getRowObjectsJS();
  const eligible: Reference[] = [];
  const byReason: Record<string, number> = {};
  for (const row of rows) {
    const time = row.sample_time as number;
    let reason: string | null = null;
    if (row.status !== 'complete') reason = String(row.status);
    else if (row.feature_pit_eligible !== true) reason = 'not_pit_eligible';
    else if (row.feature_available_at === null) reason = 'feature_available_at_missing';
    else if ((row.feature_available_at as number) > time) reason = 'feature_after_sample_time';
    else if (row.derivative_available_at !== null && (row.derivative_available_at as number) > time) reason = 'derivative_after_sample_time';
    if (reason !== null) {
      byReason[reason] = (byReason[reason] ?? 0) + 1;
      continue;
    }
    eligible.push({
      key: `${row.release_id}|${row.row_id}`,
      time,
      end: (row.reference_start as number) + WINDOW_SECONDS[window],
      day: new Date(time * 1000).toISOString().slice(0, 10),
    });
  }
  return { total: rows.length, leftOut: rows.length - eligible.length, eligible, byReason };
}

const keys = (splits: TimeSplits, indices: ArrayLike<number>) => splitRowIdentities(splits.rows, indices).map((row) => `${row.release_id}|${row.row_id}`);

describe('purgedKFoldSplits on simulator rows', () => {
  it.each([
    ['1h', 5],
    ['24h', 4],
    ['7d', 3],
  ] as const)('window %s, %i folds: each fold equals the reference computed by loops', async (window, folds) => {
    const splits = await purgedKFoldSplits(fixture.connection, { window, folds });
    const ref = await reference(window);
    expect(splits.total).toBe(ref.total);
    expect(splits.rows.rowId.length).toBe(ref.eligible.length);
    for (const [reason, count] of Object.entries(ref.byReason)) expect(splits.leftOut[reason as keyof typeof splits.leftOut], reason).toBe(count);
    const days = [...new Set(ref.eligible.map((row) => row.day))].sort();
    expect(splits.rows.days).toEqual(days);
    const testKeys = new Set<string>();
    let firstDay = 0;
    for (const split of splits.splits) {
      // the fold's days: the next contiguous block, the first days % k blocks one day longer
      const length = Math.floor(days.length / folds) + (split.fold - 1 < days.length % folds ? 1 : 0);
      const blockDays = days.slice(firstDay, firstDay + length);
      firstDay += length;
      expect(split.testDays).toEqual(blockDays);
      const test = ref.eligible.filter((row) => blockDays.includes(row.day));
      let start = Infinity;
      let end = -Infinity;
      for (const row of test) {
        start = Math.min(start, row.time);
        end = Math.max(end, row.end);
      }
      expect(split.testSpan).toEqual({ start, end });
      const train: string[] = [];
      let purged = 0;
      let embargoed = 0;
      for (const row of ref.eligible) {
        if (blockDays.includes(row.day)) continue;
        if (row.time <= end && row.end >= start) purged += 1;
        else if (row.time > end && row.time <= end + splits.embargoSeconds) embargoed += 1;
        else train.push(row.key);
      }
      expect(keys(splits, split.test).sort()).toEqual(test.map((row) => row.key).sort());
      expect(keys(splits, split.train).sort()).toEqual(train.sort());
      expect([split.purged, split.embargoed]).toEqual([purged, embargoed]);
      expect(split.train.length + split.test.length + split.purged + split.embargoed + ref.leftOut).toBe(ref.total);
      // no train label interval overlaps the test span
      for (const index of split.train) {
        expect(splits.rows.labelEnd[index]! < start || splits.rows.sampleTime[index]! > end).toBe(true);
      }
      for (const key of keys(splits, split.test)) testKeys.add(key);
    }
    // the folds' test sets partition the eligible rows
    expect(testKeys.size).toBe(ref.eligible.length);
    // embargo 'auto': max(1% of the span, W)
    const span = Math.max(...ref.eligible.map((row) => row.end)) - Math.min(...ref.eligible.map((row) => row.time));
    expect(splits.embargoSeconds).toBe(Math.ceil(Math.max(span / 100, WINDOW_SECONDS[window])));
  });

  it('gives identical splits on two runs', async () => {
    const first = await purgedKFoldSplits(fixture.connection, { window: '1h' });
    const second = await purgedKFoldSplits(fixture.connection, { window: '1h' });
    expect(second).toEqual(first);
  });
});

describe('walkForwardSplits on simulator rows', () => {
  it.each([
    ['1h', undefined],
    ['24h', 5],
  ] as const)('window %s, trainDays %s: never trains on a day at or after its test days, nor on a label reaching into them', async (window, trainDays) => {
    const splits = await walkForwardSplits(fixture.connection, { window, folds: 4, testDays: 2, trainDays });
    const ref = await reference(window);
    const days = [...new Set(ref.eligible.map((row) => row.day))].sort();
    for (const split of splits.splits) {
      const firstTestDay = split.testDays[0]!;
      expect(split.testDays).toEqual(days.slice(days.indexOf(firstTestDay), days.indexOf(firstTestDay) + 2));
      const test = ref.eligible.filter((row) => split.testDays.includes(row.day));
      const start = Math.min(...test.map((row) => row.time));
      const earliest = trainDays === undefined ? days[0]! : days[Math.max(0, days.indexOf(firstTestDay) - trainDays)]!;
      const expected = ref.eligible.filter((row) => row.day < firstTestDay && row.day >= earliest && row.end < start);
      expect(keys(splits, split.train).sort()).toEqual(expected.map((row) => row.key).sort());
      for (const index of split.train) {
        expect(splits.rows.days[splits.rows.dayIndex[index]!]! < firstTestDay).toBe(true);
        expect(splits.rows.labelEnd[index]!).toBeLessThan(start);
      }
      expect(split.train.length + split.test.length + split.purged + split.unused + ref.leftOut).toBe(ref.total);
    }
    expect(splits.splits.at(-1)!.testDays.at(-1)).toBe(days.at(-1));
  });
});

describe("the split rows' columns", () => {
  it('are the Market Events fields plus RUN_TIME_COLUMNS exactly (a derived feature may take none of these names)', async () => {
    const classified = classifiedSplitRowsSql(toAnalysisSource(fixture.connection), '1h', undefined);
    const names = (await fixture.connection.runAndReadAll(`SELECT * FROM ${classified} LIMIT 0`)).columnNames();
    const extra = names.filter((name) => !MARKET_EVENT_FIELD_NAMES.includes(name));
    expect(extra.sort()).toEqual([...RUN_TIME_COLUMNS].sort());
  });
});
