// Study rows to chart data: the n behind each estimate, the interval's words, controls after the groups.

import { describe, expect, it } from 'vitest';
import type { EventStudyRow } from '../../src/analysis/index.js';
import { effectInterval, effectPoints, missingnessBars } from '../../src/report/index.js';

const row = (window: EventStudyRow['window'], kind: string, n: number, complete: number): EventStudyRow =>
  ({
    window, event_kind: kind, direction: 'up', n, n_complete: complete, difference_pct: 0.25, ci_low_pct: 0.1, ci_high_pct: 0.4,
    control_n: 400, control_n_complete: 390, p_value: 0.001, q_value: 0.004, significant_adjusted: true, missing_pending: n - complete, missing_gap: 0, missing_invalid_price: 0, missing_not_applicable: 0,
    control_missing_pending: 10, control_missing_gap: 0, control_missing_invalid_price: 0, control_missing_not_applicable: 0,
  }) as unknown as EventStudyRow;

describe('study chart data', () => {
  it('gives each effect point its n (complete events, all events, complete controls) and its adjusted significance', () => {
    expect(effectPoints([row('1h', 'breakout', 2000, 1994)])[0]).toMatchObject({ group: 'breakout up', nComplete: 1994, n: 2000, controlNComplete: 390, significant: true, qValue: 0.004 });
  });

  it('says the CI level and how it was drawn', () => {
    const interval = { samples: 2000, seed: 1, confidence: 0.95, method: 'block-jackknife' as const, blockDays: 'auto' as const };
    expect(effectInterval({ interval })).toBe('95% CI, block-jackknife t over UTC-day blocks');
    expect(effectInterval({ interval: { ...interval, confidence: 0.9, method: 'row-bootstrap' } })).toBe(
      '90% CI, row bootstrap (2,000 samples; ignores day clustering, not calibrated)',
    );
  });

  it('lists the controls once per window, after every group of it', () => {
    const bars = missingnessBars([row('1h', 'breakout', 10, 9), row('1h', 'momentum', 10, 10), row('4h', 'breakout', 10, 8)]);
    const groups = [...new Set(bars.map((bar) => `${bar.window} ${bar.group}`))];
    expect(groups).toEqual(['1h breakout up', '1h momentum up', '4h breakout up', '1h controls', '4h controls']);
    expect(bars.find((bar) => bar.group === 'controls' && bar.window === '1h' && bar.status === 'pending')?.rows).toBe(10);
  });
});
