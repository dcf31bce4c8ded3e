// Ad-hoc: block floors of 1, 2, 3 days for 15m-4h (block jackknife, min 8 blocks), coverage and spread ratio.
import { assignDayBlocks, blockJackknifeInterval } from '../src/analysis/block-jackknife.js';
import { marketTotals } from '../test/bench/support/calibration-totals-cache.js';
import { marketDays, groupKey, truthOf } from '../test/bench/support/calibration-explore.js';
import { differenceOf, leaveOneBlockOut, sumTotals } from '../test/bench/support/calibration-day-totals.js';
const markets = []; for (let s = 1001; s <= 1050; s++) markets.push(await marketTotals(s, 180, '.scratch/cache'));
const truthMarkets = []; for (let s = 9001; s <= 9020; s++) truthMarkets.push(await marketTotals(s, 180, '.scratch/cache'));
for (const days of [60, 180]) {
  const truth = truthOf(truthMarkets, days);
  for (const blockDays of [1, 2, 3]) {
    const out = [];
    for (const w of ['15m', '1h', '4h']) {
      let shown = 0, covered = 0; const est = new Map<string, number[]>(); const v = new Map<string, number[]>();
      for (const m of markets) for (const g of marketDays(m, days)) {
        if (g.window !== w) continue;
        const e = differenceOf(sumTotals(g)); const { block, count } = assignDayBlocks(g.days, blockDays);
        const loo = leaveOneBlockOut(g, block, count); const i = blockJackknifeInterval(e, loo, { minBlocks: 8 });
        if (i.kind !== 'interval') continue; shown++; const t = truth.get(groupKey(g))!.value; if (i.low <= t && t <= i.high) covered++;
        const k = groupKey(g); (est.get(k) ?? est.set(k, []).get(k)!).push(e); (v.get(k) ?? v.set(k, []).get(k)!).push(i.standardError ** 2);
      }
      const ratios = [...est.keys()].map((k) => { const x = est.get(k)!; const mu = x.reduce((a, b) => a + b, 0) / x.length; const sd = Math.sqrt(x.reduce((a, b) => a + (b - mu) ** 2, 0) / (x.length - 1)); return sd / Math.sqrt(v.get(k)!.reduce((a, b) => a + b, 0) / x.length); });
      out.push(`${w} ${(100 * covered / shown).toFixed(1)}% (ratio ${(ratios.reduce((a, b) => a + b, 0) / ratios.length).toFixed(2)})`);
    }
    console.log(`${days} days, blocks of ${blockDays} day(s): ${out.join('  ')}`);
  }
}
