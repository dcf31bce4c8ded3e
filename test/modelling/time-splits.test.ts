// Time-aware splits on hand-built rows (a real catalog, exact control over times, statuses and point-in-time
// fields): purge, embargo and walk-forward checked against plain loops over label intervals written here, the
// rows left out counted by reason, and bad options refused with their codes.

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnalysisOptionError,
  EmptyStudyError,
  MixedCalculationVersionsError,
  ReleaseNotInCatalogError,
} from '../../src/analysis/index.js';
import {
  MODEL_SPLIT_METHODS,
  SPLIT_FUNCTIONS,
  purgedKFoldSplits,
  rowKFoldSplits,
  splitCatalog,
  splitRowIdentities,
  walkForwardSplits,
  type TimeSplits,
} from '../../src/modelling/index.js';
import type { MarketEventRow } from '../../src/contract/index.js';
import { buildFixtureCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';
import { syntheticDays } from '../support/synthetic-rows.js';

const HOUR = 3600;
const DAY0 = Date.parse('2026-03-01T00:00:00Z') / 1000;
const DAYS = 6;
const template = syntheticDays({ days: 1, seed: 5 })[0]!.rows[0]!;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const releaseOf = (day: number) => sha(`split-release|${day}`);
const dayText = (day: number) => new Date((DAY0 + day * 86400) * 1000).toISOString().slice(0, 10);

interface Planned {
  name: string;
  day: number;
  /** Seconds after the day's midnight. */
  at: number;
  status?: string;
  pit?: 'not_pit_eligible' | 'feature_after_sample_time' | 'feature_available_at_missing' | 'derivative_after_sample_time';
}

// Per day: a row just after midnight, one at noon, one late in the evening whose reference_start (the next
// 5-minute boundary) lies after sample_time, and one an hour after midnight (inside a 2 h embargo).
const planned: Planned[] = [];
for (let day = 0; day < DAYS; day += 1) {
  planned.push({ name: `d${day}-0003`, day, at: 3 * 60 });
  planned.push({ name: `d${day}-0100`, day, at: HOUR });
  planned.push({ name: `d${day}-1200`, day, at: 12 * HOUR });
  planned.push({ name: `d${day}-2302`, day, at: 23 * HOUR + 150 });
}
// Rows left out, one per reason.
planned.push({ name: 'pending', day: 2, at: 6 * HOUR, status: 'pending' });
planned.push({ name: 'gap', day: 2, at: 7 * HOUR, status: 'gap' });
planned.push({ name: 'invalid', day: 3, at: 6 * HOUR, status: 'invalid_price' });
planned.push({ name: 'not-applicable', day: 3, at: 7 * HOUR, status: 'not_applicable' });
planned.push({ name: 'not-pit', day: 4, at: 6 * HOUR, pit: 'not_pit_eligible' });
planned.push({ name: 'feature-late', day: 4, at: 7 * HOUR, pit: 'feature_after_sample_time' });
planned.push({ name: 'feature-unknown', day: 4, at: 8 * HOUR, pit: 'feature_available_at_missing' });
planned.push({ name: 'derivative-late', day: 5, at: 6 * HOUR, pit: 'derivative_after_sample_time' });
// A pending row whose point-in-time check also fails: the outcome status is checked first.
planned.push({ name: 'pending-not-pit', day: 5, at: 7 * HOUR, status: 'pending', pit: 'not_pit_eligible' });

function rowOf(plan: Planned): MarketEventRow {
  const time = DAY0 + plan.day * 86400 + plan.at;
  const row: Record<string, unknown> = {
    ...template,
    row_id: sha(plan.name),
    sample_time: time,
    reference_start: Math.ceil(time / 300) * 300,
    feature_pit_eligible: plan.pit !== 'not_pit_eligible',
    feature_available_at: plan.pit === 'feature_available_at_missing' ? null : plan.pit === 'feature_after_sample_time' ? time + 5 : time - 30,
    derivative_available_at: plan.pit === 'derivative_after_sample_time' ? time + 5 : time - 60,
  };
  for (const window of ['15m', '1h', '4h', '24h', '7d']) row[`status_${window}`] = plan.status ?? 'complete';
  return row as unknown as MarketEventRow;
}

const nameOf = new Map(planned.map((plan) => [sha(plan.name), plan.name]));
const eligible = planned.filter((plan) => plan.status === undefined && plan.pit === undefined);
let built: FixtureCatalog;

beforeAll(async () => {
  built = await buildFixtureCatalog(
    Array.from({ length: DAYS }, (_, day) => ({ releaseId: releaseOf(day), day: dayText(day), rows: planned.filter((plan) => plan.day === day).map(rowOf) })),
  );
});
afterAll(async () => built?.close());

const names = (splits: TimeSplits, indices: ArrayLike<number>) => splitRowIdentities(splits.rows, indices).map((row) => nameOf.get(row.row_id)!).sort();

/** Independent reference: a row's label interval [t, ceil(t/300)*300 + W]. */
function interval(plan: Planned, windowSeconds: number): [number, number] {
  const time = DAY0 + plan.day * 86400 + plan.at;
  return [time, Math.ceil(time / 300) * 300 + windowSeconds];
}

/** Expected train / purged / embargoed names of a test set, by plain loops over the intervals. */
function expectedAround(test: Planned[], candidates: Planned[], windowSeconds: number, embargo: number) {
  let start = Infinity;
  let end = -Infinity;
  for (const plan of test) {
    const [t, e] = interval(plan, windowSeconds);
    start = Math.min(start, t);
    end = Math.max(end, e);
  }
  const out = { train: [] as string[], purged: [] as string[], embargoed: [] as string[] };
  for (const plan of candidates) {
    if (test.includes(plan)) continue;
    const [t, e] = interval(plan, windowSeconds);
    if (t <= end && e >= start) out.purged.push(plan.name);
    else if (t > end && t <= end + embargo) out.embargoed.push(plan.name);
    else out.train.push(plan.name);
  }
  for (const list of Object.values(out)) list.sort();
  return out;
}

describe('purgedKFoldSplits on hand-built rows', () => {
  it('tests contiguous day blocks, purges overlapping labels and embargoes the rows just after, as plain loops say', async () => {
    const splits = await purgedKFoldSplits(built.connection, { window: '1h', folds: 3, embargoSeconds: 2 * HOUR });
    expect(splits.splits.map((split) => split.testDays)).toEqual([[dayText(0), dayText(1)], [dayText(2), dayText(3)], [dayText(4), dayText(5)]]);
    for (const split of splits.splits) {
      const testPlans = eligible.filter((plan) => split.testDays.includes(dayText(plan.day)));
      const expected = expectedAround(testPlans, eligible, HOUR, 2 * HOUR);
      expect(names(splits, split.test)).toEqual(testPlans.map((plan) => plan.name).sort());
      expect(names(splits, split.train)).toEqual(expected.train);
      expect(split.purged).toBe(expected.purged.length);
      expect(split.embargoed).toBe(expected.embargoed.length);
      expect(split.testReleaseIds).toEqual(split.testDays.map((day) => releaseOf(Number(day.slice(8)) - 1)).sort());
      // No train label interval overlaps any test row's label interval (nested loops).
      for (const trainName of names(splits, split.train)) {
        const [t, e] = interval(eligible.find((plan) => plan.name === trainName)!, HOUR);
        for (const plan of testPlans) {
          const [tt, te] = interval(plan, HOUR);
          expect(t <= te && e >= tt, `${trainName} vs ${plan.name}`).toBe(false);
        }
      }
    }
    // The middle fold, by hand: d1-2302's label ends at d2 00:05 (reference_start 23:05 + 1h), after the fold's
    // first sample (d2 00:03), though sample_time + W (d2 00:02:30) is before it; d4-0003 starts before the fold's
    // last label end (d4 00:05); d4-0100 falls in the 2 h embargo after it; d4-1200 trains.
    const middle = splits.splits[1]!;
    expect(middle.testSpan).toEqual({ start: DAY0 + 2 * 86400 + 180, end: DAY0 + 4 * 86400 + 300 });
    expect(expectedAround(eligible.filter((p) => p.day === 2 || p.day === 3), eligible, HOUR, 2 * HOUR)).toMatchObject({
      purged: ['d1-2302', 'd4-0003'],
      embargoed: ['d4-0100'],
    });
    expect(names(splits, middle.train)).toContain('d4-1200');
    expect(names(splits, middle.train)).not.toContain('d4-0100');
  });

  it('counts every row once: train + test + purged + embargoed + left out = all rows, left out by reason', async () => {
    const splits = await purgedKFoldSplits(built.connection, { window: '1h', folds: 3, embargoSeconds: 2 * HOUR });
    expect(splits.total).toBe(planned.length);
    expect(splits.rows.sampleTime).toHaveLength(eligible.length);
    // row_id is read on first access (a getter), then the same array; it is still a key of the table (JSON, spreads).
    expect(splits.rows.rowId).toHaveLength(eligible.length);
    expect(splits.rows.rowId).toBe(splits.rows.rowId);
    expect(new Set(splits.rows.rowId.map((id) => nameOf.get(id)))).toEqual(new Set(eligible.map((plan) => plan.name)));
    expect(JSON.parse(JSON.stringify({ ...splits.rows })).rowId).toEqual(splits.rows.rowId);
    expect(splits.leftOut).toEqual({
      sample_type_not_selected: 0,
      row_id_missing: 0,
      sample_time_missing: 0,
      status_missing: 0,
      pending: 2,
      gap: 1,
      invalid_price: 1,
      not_applicable: 1,
      not_pit_eligible: 1,
      feature_available_at_missing: 1,
      feature_after_sample_time: 1,
      derivative_after_sample_time: 1,
    });
    const leftOut = Object.values(splits.leftOut).reduce((sum, n) => sum + n, 0);
    for (const split of splits.splits) {
      expect(split.train.length + split.test.length + split.purged + split.embargoed + split.unused + leftOut).toBe(planned.length);
    }
    expect(splits.releaseIds).toEqual(Array.from({ length: DAYS }, (_, day) => releaseOf(day)).sort());
  });

  it("embargo 'auto' is max(1% of the span, W), and W = 7d purges a week on each side", async () => {
    const hour = await purgedKFoldSplits(built.connection, { window: '1h', folds: 3 });
    // span: d0 00:03 .. d5 23:05 + 1h; 1% of it is about 1.4 h, more than W = 1 h
    const span = DAY0 + 5 * 86400 + 23 * HOUR + 300 + HOUR - (DAY0 + 180);
    expect(hour.embargoSeconds).toBe(Math.ceil(span / 100));
    const week = await purgedKFoldSplits(built.connection, { window: '7d', folds: 3 });
    expect(week.embargoSeconds).toBe(7 * 86400);
    // Every 7d label of the other folds reaches into or starts within a week of a 2-day block: nothing trains
    // before the middle fold, and after it only the embargo's remainder.
    expect(week.splits[1]!.train.length).toBe(0);
  });

  it('gives identical splits on two runs, and splitCatalog gives the same through the catalog', async () => {
    const first = await purgedKFoldSplits(built.connection, { window: '4h', folds: 2 });
    const second = await purgedKFoldSplits(built.connection, { window: '4h', folds: 2 });
    expect(second).toEqual(first);
    expect(await splitCatalog(built.catalog, { method: 'purged-k-fold', window: '4h', folds: 2 })).toEqual(first);
  });

  it('splitCatalog runs every method of SPLIT_METHODS as its own function, and refuses an unknown method', async () => {
    expect(Object.keys(SPLIT_FUNCTIONS)).toEqual([...MODEL_SPLIT_METHODS]);
    expect(await splitCatalog(built.catalog, { method: 'walk-forward', window: '4h', folds: 2 })).toEqual(
      await walkForwardSplits(built.connection, { window: '4h', folds: 2 }),
    );
    const rows = await splitCatalog(built.catalog, { method: 'row-k-fold', window: '4h', folds: 2, seed: 3 });
    expect(rows).toEqual(await rowKFoldSplits(built.connection, { window: '4h', folds: 2, seed: 3 }));
    expect(rows.method).toBe('row-k-fold');
    // Before issue 30 an unknown method fell through to purged k-fold.
    const unknown = { method: 'purged-kfold', window: '4h' } as unknown as Parameters<typeof splitCatalog>[1];
    const error = await splitCatalog(built.catalog, unknown).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AnalysisOptionError);
    expect(error).toMatchObject({ code: 'RDW_ANALYSIS_OPTION', option: 'method' });
    expect((error as Error).message).toBe('The split method must be one of purged-k-fold, walk-forward, row-k-fold, not purged-kfold.');
  });
});

describe('walkForwardSplits on hand-built rows', () => {
  it('trains only on days before each test block (expanding), purging labels that reach into it', async () => {
    const splits = await walkForwardSplits(built.connection, { window: '1h', folds: 2, testDays: 2 });
    expect(splits.splits.map((split) => split.testDays)).toEqual([[dayText(2), dayText(3)], [dayText(4), dayText(5)]]);
    for (const split of splits.splits) {
      const firstTestDay = Math.min(...split.testDays.map((day) => Date.parse(day) / 1000));
      const testPlans = eligible.filter((plan) => split.testDays.includes(dayText(plan.day)));
      const before = eligible.filter((plan) => DAY0 + plan.day * 86400 < firstTestDay);
      const expected = expectedAround(testPlans, before, HOUR, 0);
      expect(names(splits, split.train)).toEqual(expected.train);
      expect(split.purged).toBe(expected.purged.length);
      expect(split.embargoed).toBe(0);
      expect(split.unused).toBe(eligible.length - before.length - testPlans.length);
      for (const index of split.train) expect(splits.rows.sampleTime[index]!).toBeLessThan(firstTestDay);
    }
    expect(names(splits, splits.splits[0]!.train)).toEqual(['d0-0003', 'd0-0100', 'd0-1200', 'd0-2302', 'd1-0003', 'd1-0100', 'd1-1200']);
  });

  it('with a rolling window trains on the last trainDays days only', async () => {
    const splits = await walkForwardSplits(built.connection, { window: '1h', folds: 2, testDays: 2, trainDays: 1 });
    expect(names(splits, splits.splits[1]!.train)).toEqual(['d3-0003', 'd3-0100', 'd3-1200']);
    expect(splits.splits[1]!.unused).toBe(12);
    // default test length: floor(6 days / (folds + 1))
    const defaults = await walkForwardSplits(built.connection, { window: '1h', folds: 2 });
    expect(defaults.splits.map((split) => split.testDays.length)).toEqual([2, 2]);
  });
});

describe('split options and inputs', () => {
  it.each([
    ['an unknown window', { window: '2h' }, 'window'],
    ['k < 2', { folds: 1 }, 'folds'],
    ['a fractional k', { folds: 2.5 }, 'folds'],
    ['more folds than days', { folds: 7 }, 'folds'],
    ['a negative embargo', { embargoSeconds: -1 }, 'embargoSeconds'],
    ['a release ID that is not one', { releases: ['nope'] }, 'releases'],
  ])('purgedKFoldSplits refuses %s', async (_, options, option) => {
    const error = await purgedKFoldSplits(built.connection, options as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AnalysisOptionError);
    expect(error).toMatchObject({ code: 'RDW_ANALYSIS_OPTION', exitCode: 2, option });
  });

  it('purgedKFoldSplits refuses an embargo that leaves the first fold nothing to train on, saying the fold and what auto gives', async () => {
    // A new user's trial (session 37): --embargo 99999999999 ran, fold 1 had 0 training rows and no score, and
    // its note blamed "one class left".
    const auto = (await purgedKFoldSplits(built.connection, { window: '1h', folds: 2 })).embargoSeconds;
    const later = (await purgedKFoldSplits(built.connection, { window: '1h', folds: 2, embargoSeconds: 0 })).splits[0]!.train.length;
    const error = await purgedKFoldSplits(built.connection, { window: '1h', folds: 2, embargoSeconds: 99_999_999_999 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AnalysisOptionError);
    expect(error).toMatchObject({ code: 'RDW_ANALYSIS_OPTION', exitCode: 2, option: 'embargoSeconds' });
    expect((error as Error).message).toBe(
      `The embargo of 99999999999 s keeps the ${later} rows after fold 1's test days out of training, so fold 1 has none to train on; give a shorter embargo (auto gives ${auto} s here).`,
    );
  });

  it.each([
    ['folds < 1', { folds: 0 }, 'folds'],
    ['testDays < 1', { testDays: 0 }, 'testDays'],
    ['trainDays < 1', { trainDays: 0 }, 'trainDays'],
    ['too few days for the test blocks', { folds: 3, testDays: 2 }, 'testDays'],
    ['too few days for the default test length', { folds: 6 }, 'folds'],
  ])('walkForwardSplits refuses %s', async (_, options, option) => {
    const error = await walkForwardSplits(built.connection, options as never).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'RDW_ANALYSIS_OPTION', option });
  });

  it('refuses eligible rows of two calculation versions unless allowed, and reports the mix', async () => {
    const mixed = await buildFixtureCatalog(
      Array.from({ length: 4 }, (_, day) => ({
        releaseId: releaseOf(day),
        day: dayText(day),
        rows: planned
          .filter((plan) => plan.day === day)
          .map((plan) => ({ ...rowOf(plan), calculation_version: day < 2 ? 'mev-calc-4' : 'mev-calc-5' }) as MarketEventRow),
      })),
    );
    try {
      const error = await purgedKFoldSplits(mixed.connection, { folds: 2 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MixedCalculationVersionsError);
      expect(error).toMatchObject({ code: 'RDW_MIXED_CALCULATION_VERSIONS', calculationVersions: ['mev-calc-4', 'mev-calc-5'] });
      await expect(walkForwardSplits(mixed.connection, { folds: 1 })).rejects.toBeInstanceOf(MixedCalculationVersionsError);
      const pooled = await walkForwardSplits(mixed.connection, { folds: 1, allowMixedCalculationVersions: true });
      expect(pooled.calculationVersionMix).toEqual([
        { calculation_version: 'mev-calc-4', rows: 8, releases: 2 },
        { calculation_version: 'mev-calc-5', rows: 8, releases: 2 },
      ]);
      // one version among the eligible rows is enough, whatever the left-out rows carry
      const single = await purgedKFoldSplits(mixed.connection, { folds: 2, releases: [releaseOf(2), releaseOf(3)] });
      expect(single.calculationVersionMix).toEqual([{ calculation_version: 'mev-calc-5', rows: 8, releases: 2 }]);
    } finally {
      await mixed.close();
    }
  });

  it('refuses releases the catalog lacks, and a selection with no eligible row', async () => {
    await expect(purgedKFoldSplits(built.connection, { releases: ['0'.repeat(64)] })).rejects.toBeInstanceOf(ReleaseNotInCatalogError);
    await expect(walkForwardSplits(built.connection, { releases: [] })).rejects.toMatchObject({ code: 'RDW_STUDY_EMPTY' });
    await expect(purgedKFoldSplits(built.connection, { releases: [] })).rejects.toBeInstanceOf(EmptyStudyError);
  });
});
