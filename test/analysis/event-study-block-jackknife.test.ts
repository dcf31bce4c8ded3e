// The event study's interval and p-value come from one method, the delete-one-block jackknife over calendar
// blocks of UTC days: recomputed here in plain SQL (per-block sums, each block left out, the SE formula, a
// t quantile from a table); on 60 simulator days no row has a CI and a p-value that disagree; where a
// window has too few blocks there is no interval, and one sentence says how many more days it needs.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WINDOW_SECONDS, WINDOWS } from '../../src/contract/index.js';
import {
  MIN_INTERVAL_BLOCKS,
  analysisMessages,
  daysForInterval,
  eventStudy,
  intervalBlockDays,
  type EventStudyRow,
} from '../../src/analysis/index.js';
import { simulatorCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';

const DAYS = 60;
let sim: FixtureCatalog;
beforeAll(async () => {
  sim = await simulatorCatalog({ seed: 1, days: DAYS, label: 'block-jackknife-60' });
}, 180_000);
afterAll(async () => sim?.close());

/** Student's t 0.975 quantiles for 1..80 degrees of freedom (scipy.stats.t.ppf(0.975, df), scipy 1.17.1). */
const T_975 = [
  12.706204736174694, 4.302652729749462, 3.1824463052837078, 2.7764451051977934, 2.5705818356363146, 2.4469118511449786,
  2.364624251592784, 2.306004135204166, 2.262157162798205, 2.228138851986274, 2.200985160091639, 2.1788128296672284,
  2.1603686564627913, 2.144786687917804, 2.131449545559776, 2.1199052992212546, 2.1098155778333156, 2.1009220402410382,
  2.0930240544083087, 2.085963447265864, 2.0796138447276795, 2.0738730679040254, 2.0686576104190486, 2.0638985616280245,
  2.0595385527532972, 2.0555294386428735, 2.0518305164802846, 2.0484071417952454, 2.045229642132703, 2.0422724563012378,
  2.039513446396408, 2.0369333434601016, 2.0345152974493383, 2.0322445093177186, 2.030107928250343, 2.0280940009804502,
  2.0261924630291093, 2.0243941639119694, 2.022690920036761, 2.021075390306273, 2.019540970441376, 2.0180817028184443,
  2.016692199227824, 2.0153675744437636, 2.014103388880846, 2.012895598919429, 2.0117405137297655, 2.010634757624232,
  2.0095752371292392, 2.008559112100761, 2.007583770315836, 2.006646805061688, 2.0057459953178687, 2.0048792881880564,
  2.0040447832891455, 2.003240718847872, 2.002465459291007, 2.0017174841452356, 2.000995378088267, 2.0002978220142604,
  1.999623584994939, 1.9989715170333788, 1.998340542520741, 1.997729654317693, 1.9971379083920038, 1.9965644189523117,
  1.996008354025296, 1.9954689314298435, 1.9949454151072374, 1.994437111771186, 1.9939433678456255, 1.9934635666618719,
  1.992997125889855, 1.992543495180932, 1.9921021540022417, 1.9916726096446642, 1.9912543953883846, 1.9908470688116906,
  1.9904502102301285, 1.990063421254446,
];

/** Whether a row's interval excludes 0 and whether its p-value is below `level`: the two must agree. */
function disagrees(row: EventStudyRow, level: number): boolean {
  const excludes = row.ci_low_pct! > 0 || row.ci_high_pct! < 0;
  return excludes !== row.p_value! < level;
}

describe('the block-jackknife interval, recomputed in plain SQL', () => {
  it('equals rdw to 1e-9 for 24h breakout down: per-block sums, each block left out, SE² = (G−1)/G Σ(θ₋g − θ̄)², θ̂ ± t(G−1)·SE', async () => {
    const window = '24h';
    const blockDays = intervalBlockDays(WINDOW_SECONDS[window]);
    const result = await eventStudy(sim.connection, { windows: [window] });
    const row = result.rows.find((r) => r.event_kind === 'breakout' && r.direction === 'down')!;
    const sql = `WITH base AS (SELECT * FROM market_events_current),
first AS (SELECT min(day) AS d0 FROM base),
ev AS (
  SELECT floor((day - d0) / ${blockDays})::INTEGER AS g, sum(direction_adjusted_return_pct_24h) AS s, count(*) AS n
  FROM base, first
  WHERE sample_type = 'event' AND event_kind = 'breakout' AND direction = 'down' AND status_24h = 'complete'
  GROUP BY g),
ct AS (
  SELECT floor((day - d0) / ${blockDays})::INTEGER AS g, sum(return_pct_24h) AS s, count(*) AS n
  FROM base, first WHERE sample_type = 'control' AND status_24h = 'complete'
  GROUP BY g),
blocks AS (SELECT g FROM ev UNION SELECT g FROM ct),
total AS (SELECT (SELECT sum(s) FROM ev) AS es, (SELECT sum(n) FROM ev) AS en, (SELECT sum(s) FROM ct) AS cs, (SELECT sum(n) FROM ct) AS cn),
-- a down event is compared with the control return signed down: difference = mean(events) + mean(controls)
left_out AS (
  SELECT b.g, (es - coalesce(ev.s, 0)) / (en - coalesce(ev.n, 0)) + (cs - coalesce(ct.s, 0)) / (cn - coalesce(ct.n, 0)) AS theta
  FROM blocks b LEFT JOIN ev ON ev.g = b.g LEFT JOIN ct ON ct.g = b.g, total)
SELECT count(*)::INTEGER AS blocks,
  (SELECT es / en + cs / cn FROM total) AS estimate,
  sqrt((count(*) - 1) / count(*) * sum(power(theta - (SELECT avg(theta) FROM left_out), 2))) AS se
FROM left_out`;
    const expected = (await sim.connection.runAndReadAll(sql)).getRowObjectsJS()[0] as { blocks: number; estimate: number; se: number };
    expect(expected.blocks).toBeGreaterThanOrEqual(MIN_INTERVAL_BLOCKS);
    expect(result.metadata.intervalBlocks[window]).toBe(expected.blocks);
    const g = expected.blocks;
    const se = expected.se;
    const t = T_975[g - 2]!; // G − 1 degrees of freedom
    expect(Math.abs(row.difference_pct! - expected.estimate)).toBeLessThan(1e-9);
    expect(Math.abs(row.ci_low_pct! - (expected.estimate - t * se))).toBeLessThan(1e-9);
    expect(Math.abs(row.ci_high_pct! - (expected.estimate + t * se))).toBeLessThan(1e-9);

    // The p-value is the level at which the interval just touches 0: an interval at confidence 1 − p has 0 as an end.
    const touching = await eventStudy(sim.connection, { windows: [window], interval: { confidence: 1 - row.p_value! } });
    const same = touching.rows.find((r) => r.event_kind === 'breakout' && r.direction === 'down')!;
    expect(Math.min(Math.abs(same.ci_low_pct!), Math.abs(same.ci_high_pct!))).toBeLessThan(1e-9);
  });
});

describe('60 simulator days of seed 1 at every window, by event_kind × direction', () => {
  it('no row where "CI excludes 0" and "p < 0.05" disagree; 7d has no interval, p or q, and says how many more days', async () => {
    const result = await eventStudy(sim.connection, { windows: [...WINDOWS] });
    const withInterval = result.rows.filter((row) => row.ci_low_pct !== null);
    expect(withInterval.length).toBeGreaterThan(0);
    expect(withInterval.filter((row) => disagrees(row, 0.05))).toEqual([]);
    expect(result.metadata.multipleComparisons.tested).toBe(withInterval.length);
    for (const row of result.rows.filter((r) => r.ci_low_pct === null)) expect([row.p_value, row.q_value, row.significant_adjusted]).toEqual([null, null, null]);

    // 7d: the window's days make fewer blocks than an interval needs.
    const blockDays = intervalBlockDays(WINDOW_SECONDS['7d']);
    expect(Math.ceil(DAYS / blockDays)).toBeLessThan(MIN_INTERVAL_BLOCKS); // so the test means what it says
    const week = result.rows.filter((row) => row.window === '7d');
    expect(week.length).toBe(6);
    expect(week.every((row) => row.ci_low_pct === null && row.ci_high_pct === null && row.p_value === null && row.q_value === null)).toBe(true);
    const gaps = result.metadata.intervalGaps;
    expect(gaps.map((gap) => [gap.window, gap.reason, gap.groups])).toEqual([['7d', 'too_few_blocks', 6]]);
    const gap = gaps[0]!;
    expect(gap.blockDays).toBe(blockDays);
    expect(gap.blocks).toBe(Math.ceil(gap.days / blockDays));
    expect(gap.days).toBeLessThanOrEqual(DAYS);
    expect(gap.daysNeeded).toBe(daysForInterval(blockDays));
    expect(gap.moreDays).toBe(daysForInterval(blockDays) - gap.days);
    const sentence = analysisMessages.noIntervalAt(gap);
    expect(sentence).toContain(`${gap.days} UTC days make ${gap.blocks} blocks of ${blockDays} days`);
    expect(sentence).toContain(`needs ${MIN_INTERVAL_BLOCKS} blocks, so ${gap.moreDays} more days (${gap.daysNeeded} in all)`);
    // Every other window has its block length in the metadata and the description names it.
    for (const window of WINDOWS) expect(result.metadata.intervalBlockDays[window]).toBe(intervalBlockDays(WINDOW_SECONDS[window]));
    expect(result.metadata.intervalDescription).toContain(`${blockDays} days at 7d`);
  });

  it('the row bootstrap (opt-in) takes its p-value from its own draws: no row disagrees at any level', async () => {
    const result = await eventStudy(sim.connection, { windows: [...WINDOWS], interval: { method: 'row-bootstrap', samples: 400 } });
    expect(result.rows.every((row) => row.ci_low_pct !== null && row.p_value !== null)).toBe(true);
    for (const confidence of [0.9, 0.95, 0.99]) {
      const at = confidence === 0.95 ? result : await eventStudy(sim.connection, { windows: [...WINDOWS], interval: { method: 'row-bootstrap', samples: 400, confidence } });
      expect(at.rows.filter((row) => disagrees(row, Number((1 - confidence).toPrecision(12))))).toEqual([]);
    }
    expect(result.metadata.intervalDescription).toMatch(/ignores day clustering/);
    expect(result.metadata.intervalBlockDays).toEqual({});
  });

  it('accepts the old spelling: bootstrap { method: day } is the block jackknife, row the row bootstrap', async () => {
    const [now, old] = await Promise.all([
      eventStudy(sim.connection, { windows: ['1h'] }),
      eventStudy(sim.connection, { windows: ['1h'], bootstrap: { method: 'day', samples: 50 } }),
    ]);
    expect(old.rows).toEqual(now.rows);
    expect(old.metadata.interval.method).toBe('block-jackknife');
    const row = await eventStudy(sim.connection, { windows: ['1h'], bootstrap: { method: 'row', samples: 50 } });
    expect(row.metadata.interval.method).toBe('row-bootstrap');
    await expect(eventStudy(sim.connection, { interval: {}, bootstrap: {} })).rejects.toMatchObject({ code: 'RDW_ANALYSIS_OPTION' });
    await expect(eventStudy(sim.connection, { interval: { method: 'moving-block' as 'row' } })).rejects.toMatchObject({ option: 'interval.method' });
    // a bad value names the spelling it was given in
    await expect(eventStudy(sim.connection, { interval: { confidence: 1 } })).rejects.toMatchObject({ option: 'interval.confidence' });
    await expect(eventStudy(sim.connection, { bootstrap: { blockDays: 0 } })).rejects.toMatchObject({ option: 'bootstrap.blockDays' });
  });

  it('an explicit blockDays overrides the automatic length: 1h in blocks too long for the minimum has no interval', async () => {
    const blockDays = Math.ceil(DAYS / (MIN_INTERVAL_BLOCKS - 1));
    const blocks = Math.ceil(DAYS / blockDays);
    const result = await eventStudy(sim.connection, { windows: ['1h'], interval: { blockDays } });
    expect(result.metadata.intervalBlockDays).toEqual({ '1h': blockDays });
    expect(result.metadata.intervalBlocks['1h']).toBe(blocks);
    expect(result.rows.every((row) => row.ci_low_pct === null)).toBe(true);
    expect(result.metadata.intervalGaps).toEqual([
      expect.objectContaining({ window: '1h', reason: 'too_few_blocks', blocks, blockDays, days: DAYS, moreDays: daysForInterval(blockDays) - DAYS }),
    ]);
  });
});
