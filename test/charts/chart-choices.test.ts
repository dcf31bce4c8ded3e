// The choices every chart shares: windows in duration order, each window on its own scale, one fixed
// colour per outcome status, n and the CI level on the effect chart, small missing counts made visible.

import { describe, expect, it } from 'vitest';
import { STATUS_COLORS, effectChartSpec, missingnessChartSpec, renderSvg, statusColorScale, windowOrder, type EffectPoint, type MissingnessBar } from '../../src/charts/index.js';
import { OUTCOME_STATUSES, WINDOWS } from '../../src/contract/index.js';

const TEXT_ORDER = ['15m', '1h', '24h', '4h', '7d'];
/** The parts of a faceted spec these tests read. */
type FacetedSpec = { facet: { row: { sort: string[] } }; resolve: { scale: { x: string } } };
/** Text positions of each label in an SVG (document order is drawing order, top to bottom here). */
const positions = (svg: string, labels: readonly string[]) => labels.map((label) => svg.indexOf(`>${label}<`));

/** One group per window with an interval about as wide as the window is long (15m ~ ±0.05, 7d ~ ±2). */
const points: EffectPoint[] = [
  { window: '7d', group: 'breakout up', difference: 1.2, ciLow: -0.8, ciHigh: 3.1, nComplete: 813, n: 1335, controlNComplete: 300 },
  { window: '24h', group: 'breakout up', difference: 0.4, ciLow: -0.3, ciHigh: 1.0, nComplete: 1221, n: 1335, controlNComplete: 320 },
  { window: '4h', group: 'breakout up', difference: 0.2, ciLow: -0.1, ciHigh: 0.5, nComplete: 1324, n: 1335, controlNComplete: 340 },
  { window: '1h', group: 'breakout up', difference: 0.26, ciLow: 0.14, ciHigh: 0.4, nComplete: 1332, n: 1335, controlNComplete: 348 },
  { window: '15m', group: 'breakout up', difference: 0.05, ciLow: 0.01, ciHigh: 0.11, nComplete: 1332, n: 1335, controlNComplete: 349 },
];

describe('windowOrder', () => {
  it('orders windows by duration, never as text, and keeps unknown ones last', () => {
    expect(windowOrder(['7d', '24h', '4h', '1h', '15m', '1h'])).toEqual([...WINDOWS]);
    expect([...TEXT_ORDER].sort()).not.toEqual([...WINDOWS]); // the trap: text order puts 24h before 4h
    expect(windowOrder(['2d', '24h', '4h'])).toEqual(['4h', '24h', '2d']);
  });
});

describe('status colours', () => {
  it('gives every status of the contract its own colour, declared once', () => {
    expect(Object.keys(STATUS_COLORS).sort()).toEqual([...OUTCOME_STATUSES].sort());
    expect(new Set(Object.values(STATUS_COLORS)).size).toBe(OUTCOME_STATUSES.length);
    for (const colour of Object.values(STATUS_COLORS)) expect(colour).toMatch(/^#[0-9A-F]{6}$/i);
  });

  it('keeps a status on its colour whatever order or subset a chart lists', () => {
    const a = statusColorScale(['pending', 'gap']);
    const b = statusColorScale(['gap', 'invalid_price', 'pending']);
    const colourOf = (scale: { domain: string[]; range: string[] }, status: string) => scale.range[scale.domain.indexOf(status)];
    for (const status of ['pending', 'gap']) expect(colourOf(a, status)).toBe(colourOf(b, status));
    expect(colourOf(b, 'pending')).toBe(STATUS_COLORS.pending);
  });

  it('colours the missingness bars by status, the same with or without a status list (the notebook 01/02 drift)', async () => {
    const bars: MissingnessBar[] = ['complete', 'pending', 'gap'].map((status, i) => ({ window: '1h', group: 'event', status, rows: [90, 7, 3][i]! }));
    const withList = await renderSvg(missingnessChartSpec(bars, { statuses: [...OUTCOME_STATUSES].reverse() }));
    const without = await renderSvg(missingnessChartSpec(bars));
    for (const svg of [withList, without]) {
      expect(svg).toContain(`fill="${STATUS_COLORS.pending}"`);
      expect(svg).toContain(`fill="${STATUS_COLORS.gap}"`);
      expect(svg).not.toContain(`fill="${STATUS_COLORS.complete}"`); // complete is the denominator, not a bar
    }
  });
});

describe('effect chart', () => {
  it('puts windows in duration order, each on its own x scale', async () => {
    const spec = effectChartSpec(points) as unknown as FacetedSpec;
    expect(spec.facet.row.sort).toEqual([...WINDOWS]);
    expect(spec.resolve.scale.x).toBe('independent');
    const svg = await renderSvg(spec as never);
    const order = positions(svg, WINDOWS);
    expect(order.every((p) => p > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // one x axis per window, and its ticks fit the window: 15m gets 0.0x ticks, 7d whole points
    expect(svg.match(/>event − control mean return \(percentage points; 0\.01 = 1 bp\)</g)).toHaveLength(5);
    expect(svg).toContain('>0.02<');
    expect(svg).toMatch(/>3(\.0)?</);
    // Every window's axis labels 0, where the dashed line is: no tick is dropped for overlap (a new user's trial met
    // a 1h axis labelled −0.25, −0.15, −0.05, 0.05 …).
    expect(svg.match(/opacity="1">0(\.0+)?</g)).toHaveLength(5);
  });

  it('labels 0 on an axis whose ticks could not all be labelled (the demo\'s 1h panel)', async () => {
    // The demo's 1h rows: -0.21 … 0.42 pp. With vega-lite's default tick count the labels overlapped and every other
    // one was dropped: -0.25, -0.15, -0.05, 0.05 …, never 0.
    const demo: EffectPoint[] = [
      [0.305, 0.191, 0.42], [0.193, 0.076, 0.309], [0.139, -0.005, 0.283], [-0.077, -0.201, 0.046], [0.087, -0.044, 0.218], [-0.093, -0.214, 0.027],
    ].map(([difference, ciLow, ciHigh], i) => ({ window: '1h', group: `group ${i}`, difference: difference!, ciLow: ciLow!, ciHigh: ciHigh! }));
    const svg = await renderSvg(effectChartSpec(demo));
    // Vega-Lite writes every tick's label and hides the ones that would overlap (opacity 0): the shown ones count.
    expect(svg).toMatch(/opacity="1">0(\.0+)?</);
  });

  it('shows n per group and says what the interval is', async () => {
    const svg = await renderSvg(effectChartSpec(points, { interval: '95% CI, block-jackknife t over UTC-day blocks' }));
    expect(svg).toContain('breakout up  (n 813 of 1,335)');
    expect(svg).toContain('95% CI, block-jackknife t over UTC-day blocks');
    expect(svg).toContain('controls complete: 349');
  });

  it('fills a point that survives the multiple-comparison adjustment and leaves the others hollow', async () => {
    const tested = points.map((p, i) => ({ ...p, significant: i === 3, qValue: i === 3 ? 0.004 : 0.4 }));
    const svg = await renderSvg(effectChartSpec(tested));
    const fills = [...svg.matchAll(/aria-roledescription="point"[^>]*fill="(#[0-9a-f]{6})"/gi)].map((m) => m[1]!.toLowerCase());
    expect(fills.filter((f) => f === '#222222')).toHaveLength(1);
    expect(fills.filter((f) => f === '#ffffff')).toHaveLength(4);
    expect(svg).toContain('>non-zero after multiple-comparison adjustment<');
    expect(svg).toContain('q-value: 0.004');
    // untested points (no `significant`) are all filled and there is no such legend
    expect(await renderSvg(effectChartSpec(points))).not.toContain('after adjustment');
  });

  it('draws a group that was never tested (no interval, significant null) grey with its own legend entry, not hollow', async () => {
    const mixed = points.map((p, i) => ({ ...p, significant: i === 4 ? null : i === 3, qValue: i === 4 ? null : i === 3 ? 0.004 : 0.4 }));
    const svg = await renderSvg(effectChartSpec(mixed));
    const fills = [...svg.matchAll(/aria-roledescription="point"[^>]*fill="(#[0-9a-f]{6})"/gi)].map((m) => m[1]!.toLowerCase());
    expect(fills.filter((f) => f === '#222222')).toHaveLength(1);
    expect(fills.filter((f) => f === '#ffffff')).toHaveLength(3);
    expect(fills.filter((f) => f === '#bbbbbb')).toHaveLength(1);
    expect(svg).toContain('>not tested (no interval)<');
    // Every group tested: no such entry.
    expect(await renderSvg(effectChartSpec(points.map((p, i) => ({ ...p, significant: i === 3 }))))).not.toContain('not tested');
  });
});

describe('missingness chart', () => {
  it('makes 6 missing in 2,000 a visible bar with its count and share, each window on its own scale', async () => {
    const bars: MissingnessBar[] = [
      { window: '7d', group: 'event', status: 'complete', rows: 1200 },
      { window: '7d', group: 'event', status: 'pending', rows: 800 },
      { window: '1h', group: 'event', status: 'complete', rows: 1994 },
      { window: '1h', group: 'event', status: 'gap', rows: 4 },
      { window: '1h', group: 'event', status: 'invalid_price', rows: 2 },
    ];
    const spec = missingnessChartSpec(bars) as unknown as FacetedSpec;
    expect(spec.facet.row.sort).toEqual(['1h', '7d']);
    expect(spec.resolve.scale.x).toBe('independent');
    const svg = await renderSvg(spec as never);
    expect(svg).toContain('event · 6 of 2,000 missing');
    expect(svg).toContain('>0.3%<');
    // the 1h bar (gap + invalid_price) spans most of its 420 px panel, not 420 × 6/2000 ≈ 1 px
    const widths = (colour: string) => [...svg.matchAll(new RegExp(`d="M[-\\d.]+,[-\\d.]+h([\\d.]+)v[\\d.]+h-[\\d.]+Z" fill="${colour}"`, 'g'))].map((m) => Number(m[1]));
    const oneHour = widths(STATUS_COLORS.gap)[0]! + widths(STATUS_COLORS.invalid_price)[0]!;
    expect(oneHour).toBeGreaterThan(300);
  });
});
