// The model score chart (issue 20): AUC and the log-loss difference per fold and pooled, with intervals, the
// reference lines inside each panel whatever the data, each panel on its own scale, n and the CI level shown.

import { describe, expect, it } from 'vitest';
import { modelScoreChartSpec, renderSvg, type ModelScorePoint } from '../../src/charts/index.js';

/** Every score far from its reference: AUC 0.55-0.62 (chance 0.5), differences all below 0. */
const points: ModelScorePoint[] = [
  { fold: '1', test_days: '2026-10-12..2026-10-15', test_rows: 1577, auc: 0.58, auc_ci_low: 0.56, auc_ci_high: 0.61, log_loss_difference: -0.0126, log_loss_difference_ci_low: -0.0234, log_loss_difference_ci_high: -0.0035 },
  { fold: '2', test_days: '2026-10-16..2026-10-19', test_rows: 1770, auc: 0.57, auc_ci_low: 0.55, auc_ci_high: 0.59, log_loss_difference: -0.0042, log_loss_difference_ci_low: -0.0104, log_loss_difference_ci_high: -0.001 },
  // a fold with one class only: no AUC, no interval (drawn nowhere), its log loss still shown
  { fold: '3', test_days: '2026-10-20', test_rows: 12, auc: null, auc_ci_low: null, auc_ci_high: null, log_loss_difference: -0.002, log_loss_difference_ci_low: -0.01, log_loss_difference_ci_high: -0.0005 },
  { fold: 'pooled', test_days: '2026-10-12..2026-10-20', test_rows: 3359, auc: 0.575, auc_ci_low: 0.56, auc_ci_high: 0.6, log_loss_difference: -0.008, log_loss_difference_ci_low: -0.012, log_loss_difference_ci_high: -0.004 },
];

/** The marks of one named group of the SVG (up to its first closing tag). */
function group(svg: string, name: string): string {
  const start = svg.indexOf(name);
  expect(start, name).toBeGreaterThan(-1);
  return svg.slice(start, svg.indexOf('</g>', start));
}

/** x of each dashed reference rule, in panel order (AUC, then the log-loss difference). */
function referenceRules(svg: string): number[] {
  return [...svg.matchAll(/<line transform="translate\(([\d.]+),0\)"[^>]*stroke-dasharray="4,3"/g)].map((match) => Number(match[1]));
}

describe('model score chart', () => {
  it('draws one interval per fold with an AUC and the pooled one, in each panel', async () => {
    const svg = await renderSvg(modelScoreChartSpec(points, { interval: '95% CI, day-clustered bootstrap (1,000 samples)' }));
    expect([...group(svg, 'auc_interval_marks').matchAll(/<line /g)]).toHaveLength(3);
    expect([...group(svg, 'log_loss_difference_interval_marks').matchAll(/<line /g)]).toHaveLength(4);
    for (const label of ['fold 1 · 2026-10-12..2026-10-15 · n 1,577', 'fold 3 · 2026-10-20 · n 12', 'pooled · 2026-10-12..2026-10-20 · n 3,359']) {
      expect(svg).toContain(`>${label}<`);
    }
  });

  it('labels chance and no gain on their axes (the demo\'s 4h scores: with the default ticks every other label was dropped)', async () => {
    const demo: ModelScorePoint[] = [
      [0.5765, -0.0079], [0.4954, 0.0088], [0.554, -0.0044], [0.5889, -0.0108], [0.5151, 0.004],
    ].map(([auc, difference], i) => ({
      fold: String(i + 1), test_rows: 2000, auc: auc!, auc_ci_low: null, auc_ci_high: null,
      log_loss_difference: difference!, log_loss_difference_ci_low: null, log_loss_difference_ci_high: null,
    }));
    demo.push({ fold: 'pooled', test_rows: 10000, auc: 0.5597, auc_ci_low: 0.4851, auc_ci_high: 0.6342, log_loss_difference: -0.0034, log_loss_difference_ci_low: -0.0189, log_loss_difference_ci_high: 0.0121 });
    const svg = await renderSvg(modelScoreChartSpec(demo));
    // Vega-Lite writes every tick's label and hides the ones that would overlap (opacity 0): the shown ones count.
    expect(svg).toMatch(/opacity="1">0\.50?</);
    expect(svg).toMatch(/opacity="1">0(\.0+)?</);
  });

  it('keeps chance (AUC 0.5) and no gain (0) inside their panels when no score is near them', async () => {
    const svg = await renderSvg(modelScoreChartSpec(points));
    const rules = referenceRules(svg);
    expect(rules).toHaveLength(2);
    // padded away from the axis line, inside the 280 px panel
    for (const x of rules) {
      expect(x).toBeGreaterThan(5);
      expect(x).toBeLessThan(275);
    }
  });

  it('puts each panel on its own x scale and says what the bars are', () => {
    const spec = modelScoreChartSpec(points, { target: 'target up_1h at 1h', split: 'purged k-fold, 5 folds, embargo 1 h', interval: '90% CI, day-clustered bootstrap (500 samples)' }) as unknown as {
      resolve: { scale: Record<string, string> };
      title: { subtitle: string[] };
    };
    expect(spec.resolve.scale.x).toBe('independent');
    expect(spec.title.subtitle[0]).toBe('target up_1h at 1h · purged k-fold, 5 folds, embargo 1 h');
    expect(spec.title.subtitle[1]).toContain('90% CI, day-clustered bootstrap (500 samples)');
    const bare = modelScoreChartSpec(points) as unknown as { title: { subtitle: string[] } };
    expect(bare.title.subtitle.join(' ')).toContain('CI (method and level not given)');
    expect(bare.title.subtitle[0]).toBe('target not given · split not given');
  });

  it('wraps a long interval description between words, so the subtitle stays within the two panels', () => {
    const interval =
      "95% block-jackknife t intervals over 1-day blocks of test days (G−1 df, fitted models fixed); pooled: Nadeau–Bengio corrected resampled t over the 5 folds' scores (4 df)";
    const spec = modelScoreChartSpec(points, { target: 't', split: 's', interval }) as unknown as { title: { subtitle: string[] } };
    const lines = spec.title.subtitle.slice(1, -1);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(110);
    expect(lines.join(' ')).toBe(`${interval}; n = test rows scored; pooled = every fold's test rows`);
  });
});
