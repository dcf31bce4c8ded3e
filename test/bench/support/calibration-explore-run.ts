// Runs the exploration grid (calibration-explore.ts) over seeded markets and returns it as JSON.

import { WINDOWS } from '../../../src/contract/index.js';
import {
  bootstrapMethod,
  coverageOf,
  coverageShare,
  EXPLORE_MIN_BLOCKS,
  EXPLORE_MULTIPLES,
  jackknifeMethod,
  spreadRatio,
  truthOf,
  type CoverageTally,
  type MarketTotals,
} from './calibration-explore.js';
import { marketTotals } from './calibration-totals-cache.js';

export interface ExploreOptions {
  seeds: readonly number[];
  truthSeeds: readonly number[];
  /** Simulated days per market (the longest length). */
  days: number;
  /** Market lengths measured, in days (each the newest days of the simulated market). */
  lengths: readonly number[];
  cacheDir?: string;
  log: (line: string) => void;
}

const cell = (t: CoverageTally) => ({
  coverage: Number(coverageShare(t).toFixed(4)),
  shown: t.shown,
  withheld: t.withheld,
  meanWidthPct: Number(t.meanWidth.toFixed(4)),
  disagree: t.disagree,
});

export async function runExplore(options: ExploreOptions) {
  const load = async (seeds: readonly number[], label: string) => {
    const out: MarketTotals[] = [];
    for (const seed of seeds) {
      const started = performance.now();
      out.push(await marketTotals(seed, options.days, options.cacheDir));
      options.log(`${label} market seed ${seed}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    return out;
  };
  const markets = await load(options.seeds, 'study');
  const truthMarkets = await load(options.truthSeeds, 'truth');
  const lengths = [];
  // No truth markets: each market's truth is pooled over the OTHER study markets (independent of it).
  const leaveOneOut = truthMarkets.length === 0;
  for (const days of options.lengths) {
    const truth = leaveOneOut ? truthOf(markets, days) : truthOf(truthMarkets, days);
    const looTruth = new Map(markets.map((m) => [m.seed, leaveOneOut ? truthOf(markets.filter((o) => o !== m), days) : truth]));
    const truthFor = (m: MarketTotals) => looTruth.get(m.seed)!;
    const grid = [];
    for (const multiple of EXPLORE_MULTIPLES) {
      for (const minBlocks of EXPLORE_MIN_BLOCKS) {
        const { byWindow } = coverageOf(markets, days, truthFor, jackknifeMethod(multiple, minBlocks));
        grid.push({ method: 'block-jackknife', multiple, minBlocks, windows: Object.fromEntries(WINDOWS.map((w) => [w, cell(byWindow.get(w)!)])) });
      }
    }
    const before = coverageOf(markets, days, truthFor, bootstrapMethod());
    const current = coverageOf(markets, days, truthFor, jackknifeMethod(2, 8));
    lengths.push({
      days,
      truth: Object.fromEntries([...truth].map(([key, t]) => [key, { valuePct: Number(t.value.toFixed(5)), standardErrorPct: Number(t.standardError.toFixed(5)), markets: t.markets }])),
      grid,
      bootstrapBefore: {
        method: 'moving-block day bootstrap, 2000 draws, block days 1 + floor(window / 1 day)',
        windows: Object.fromEntries(WINDOWS.map((w) => [w, cell(before.byWindow.get(w)!)])),
        groups: Object.fromEntries([...before.byGroup].map(([key, t]) => [key, cell(t)])),
      },
      /** sd of the estimates across markets ÷ rms block-jackknife SE, per block multiple and window (1 = calibrated). */
      spreadOverJackknifeSe: Object.fromEntries(EXPLORE_MULTIPLES.map((multiple) => [multiple, spreadRatio(markets, days, multiple)])),
      jackknifeCurrentDefaultsGroups: Object.fromEntries([...current.byGroup].map(([key, t]) => [key, cell(t)])),
    });
  }
  return { markets: options.seeds.length, truthMarkets: options.truthSeeds.length, truth: leaveOneOut ? 'each market: pooled over the other study markets' : 'pooled over the truth markets', simulatedDays: options.days, seeds: [options.seeds[0], options.seeds.at(-1)], truthSeeds: [options.truthSeeds[0], options.truthSeeds.at(-1)], lengths };
}

/** The grid as text: one line per length × configuration, coverage (shown) per window. */
export function exploreTable(result: Awaited<ReturnType<typeof runExplore>>): string {
  const lines: string[] = [];
  for (const length of result.lengths) {
    lines.push(`\n${length.days} days, ${result.markets} markets (truth: ${result.truthMarkets} markets); coverage % (intervals shown / withheld) per window`);
    lines.push(`${'method'.padEnd(28)}${WINDOWS.map((w) => w.padStart(18)).join('')}`);
    const row = (label: string, windows: Record<string, ReturnType<typeof cell>>) =>
      `${label.padEnd(28)}${WINDOWS.map((w) => {
        const c = windows[w]!;
        const withheld = Object.values(c.withheld).reduce((a, b) => a + b, 0);
        return `${Number.isNaN(c.coverage) ? '   -' : (100 * c.coverage).toFixed(1)} (${c.shown}/${withheld})`.padStart(18);
      }).join('')}`;
    lines.push(row('bootstrap (before)', length.bootstrapBefore.windows));
    for (const g of length.grid) lines.push(row(`jackknife x${g.multiple} min ${g.minBlocks}`, g.windows));
  }
  return lines.join('\n');
}

/** The grid as a markdown table per length (for docs/analysis.md): coverage % (shown/withheld) per window. */
export function exploreMarkdown(result: Awaited<ReturnType<typeof runExplore>>): string {
  const lines: string[] = [];
  for (const length of result.lengths) {
    lines.push('', `**${length.days}-day markets**, ${result.markets} markets; truth: ${result.truth}${result.truthMarkets > 0 ? ` (${result.truthMarkets})` : ''}`, '');
    lines.push(`| method | ${WINDOWS.join(' | ')} |`, `|---|${WINDOWS.map(() => '---').join('|')}|`);
    const row = (label: string, windows: Record<string, ReturnType<typeof cell>>) =>
      `| ${label} | ${WINDOWS.map((w) => {
        const c = windows[w]!;
        const withheld = Object.values(c.withheld).reduce((a, b) => a + b, 0);
        return c.shown === 0 ? `none (${withheld} withheld)` : `${(100 * c.coverage).toFixed(1)}%${withheld > 0 ? ` (${withheld} withheld)` : ''}`;
      }).join(' | ')} |`;
    lines.push(row('day bootstrap (before)', length.bootstrapBefore.windows));
    for (const g of length.grid) lines.push(row(`jackknife, blocks ≥ ${g.multiple} windows, min ${g.minBlocks} blocks`, g.windows));
    lines.push('', `sd of the estimates across the ${result.markets} markets ÷ rms jackknife SE (1 = calibrated; mean over groups [min–max]):`, '');
    lines.push(`| blocks ≥ | ${WINDOWS.join(' | ')} |`, `|---|${WINDOWS.map(() => '---').join('|')}|`);
    for (const [multiple, windows] of Object.entries(length.spreadOverJackknifeSe)) {
      lines.push(`| ${multiple} windows | ${WINDOWS.map((w) => `${windows[w]!.mean.toFixed(2)} [${windows[w]!.min.toFixed(2)}–${windows[w]!.max.toFixed(2)}]`).join(' | ')} |`);
    }
  }
  return lines.join('\n');
}
