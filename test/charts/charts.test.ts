import { describe, expect, it } from 'vitest';
import { VEGA_LITE_SCHEMA, coverageHeatmapSpec, effectChartSpec, missingnessChartSpec, renderSvg } from '../../src/charts/index.js';

describe('chart specs', () => {
  it('are plain JSON Vega-Lite v5 specs holding the given values', () => {
    const spec = effectChartSpec([
      { window: '1h', group: 'breakout up', difference: 0.3, ciLow: 0.2, ciHigh: 0.4 },
      { window: '1h', group: 'momentum down', difference: null, ciLow: null, ciHigh: null },
    ]);
    expect(spec.$schema).toBe(VEGA_LITE_SCHEMA);
    expect(JSON.parse(JSON.stringify(spec))).toEqual(spec);
    expect((spec.data as { values: unknown[] }).values).toHaveLength(1); // a null estimate is not drawn
  });
});

describe('renderSvg', () => {
  it('draws the effect chart: a point per estimate, an interval rule per group and the group labels', async () => {
    const svg = await renderSvg(
      effectChartSpec([
        { window: '1h', group: 'breakout up', difference: 0.31, ciLow: 0.2, ciHigh: 0.42 },
        { window: '1h', group: 'volume_spike down', difference: -0.01, ciLow: -0.06, ciHigh: 0.04 },
        { window: '4h', group: 'breakout up', difference: 0.5, ciLow: 0.1, ciHigh: 0.9 },
      ]),
    );
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('mark-symbol');
    expect(svg).toContain('mark-rule');
    expect(svg).toContain('breakout up');
    expect(svg).toContain('volume_spike down');
    expect(svg).toContain('event − control mean return (percentage points; 0.01 = 1 bp)');
    expect(svg.match(/aria-roledescription="point"/g)).toHaveLength(3);
    expect(svg).toContain('ciHigh: 0.420');
  });

  it('draws the missingness chart with one colour per missing status in the legend (complete is the denominator)', async () => {
    const svg = await renderSvg(
      missingnessChartSpec(
        [
          { window: '1h', group: 'breakout up', status: 'complete', rows: 90 },
          { window: '1h', group: 'breakout up', status: 'pending', rows: 7 },
          { window: '1h', group: 'breakout up', status: 'gap', rows: 3 },
        ],
        { statuses: ['pending', 'gap', 'invalid_price', 'not_applicable', 'complete'] },
      ),
    );
    expect(svg).toContain('mark-rect');
    for (const status of ['pending', 'gap', 'invalid_price', 'not_applicable']) expect(svg).toContain(`>${status}<`);
    expect(svg).not.toContain('>complete<');
    expect(svg).toContain('breakout up · 10 of 100 missing');
  });

  it('draws the coverage heatmap: a rect per day x symbol cell with both axes labelled', async () => {
    const cells = ['2026-01-01', '2026-01-02'].flatMap((day) =>
      ['BTCUSDT', 'ETHUSDT'].map((symbol, i) => ({ day, symbol, rows: 100 + i })),
    );
    const svg = await renderSvg(coverageHeatmapSpec(cells));
    expect(svg).toContain('mark-rect');
    for (const label of ['BTCUSDT', 'ETHUSDT', '2026-01-01', '2026-01-02']) expect(svg).toContain(label);
    const rects = svg.slice(svg.indexOf('mark-rect')).match(/<path /g) ?? [];
    expect(rects.length).toBeGreaterThanOrEqual(4);
  });
});
