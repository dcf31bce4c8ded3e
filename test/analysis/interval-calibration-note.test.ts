// The calibration sentence a study prints under its intervals: from the generated figures, per split method, and
// never a figure of a cell too small to say anything.

import { describe, expect, it } from 'vitest';
import { calibratedCoverage, intervalCalibrationNote, type CalibrationFigures } from '../../src/analysis/interval-calibration-note.js';
import { INTERVAL_CALIBRATION } from '../../src/analysis/interval-calibration.js';

const cell = (fold: number | null, foldShown: number, pooled: number, pooledShown = 100) => ({ fold, foldShown, pooled, pooledShown, foldFreshMarket: fold === null ? null : fold - 0.05 });
const model = (fold: number, pooled: number, noSkill: number) => ({
  modelAuc: { '1h': cell(fold, 500, pooled), '7d': cell(1, 4, pooled + 0.01) },
  modelLogLossDifference: { '1h': cell(fold + 0.01, 500, pooled - 0.01), '7d': cell(null, 0, pooled) },
  noSkillFoldsExcludingHalf: noSkill,
});
const figures = (walkForward: boolean): CalibrationFigures => ({
  markets: 250,
  lengths: [60, 180].map((days, i) => ({
    days,
    eventDifference: { '1h': { coverage: 0.94 + i * 0.01, shown: 1500 }, '7d': { coverage: 1, shown: 4 } },
    ...model(0.95 + i * 0.005, 0.94, 0.04),
    walkForward: walkForward ? model(0.93 + i * 0.01, 0.96 + i * 0.005, 0.05 + i * 0.01) : null,
  })),
});

/** A range equal to the expected one to floating-point precision (the fixture's figures are sums). */
function expectRange(range: [number, number] | null, expected: [number, number]): void {
  expect(range).not.toBeNull();
  expect(range![0]).toBeCloseTo(expected[0], 12);
  expect(range![1]).toBeCloseTo(expected[1], 12);
}

describe('intervalCalibrationNote', () => {
  it('quotes the range over windows and lengths, leaving out cells of fewer than 30 intervals', () => {
    expectRange(calibratedCoverage('event', figures(true)), [0.94, 0.95]);
    expectRange(calibratedCoverage('model', figures(true)), [0.95, 0.965]);
    expectRange(calibratedCoverage('pooled', figures(true)), [0.93, 0.95]);
    expect(intervalCalibrationNote('event', figures(true))).toBe(
      'Calibrated on 250 simulated markets (60 and 180 days): these 95% intervals held the known truth in 94.0-95.0% of cases (docs/analysis.md).',
    );
  });

  it('gives walk-forward splits their own figures, and says so', () => {
    expectRange(calibratedCoverage('model', figures(true), 'walk-forward'), [0.93, 0.95]);
    expectRange(calibratedCoverage('pooled', figures(true), 'walk-forward'), [0.95, 0.975]);
    const note = intervalCalibrationNote('model', figures(true), 'walk-forward');
    expect(note).toMatch(/^Calibrated on 250 simulated markets \(60 and 180 days, walk-forward splits\): a no-skill model's fold AUC intervals excluded 0\.5 in 5\.0%-6\.0% of folds; fold intervals held .* in 93\.0%-95\.0%/);
    // Walk-forward's pooled interval (the jackknife over every fold's test days) is about the fitted models.
    expect(note).toContain("pooled intervals held the fold models' skill under the test days' conditions in 95.0%-97.5%");
    expect(intervalCalibrationNote('model', figures(true))).toContain('pooled intervals held the skill expected over training sets in 93.0%-95.0%');
    expect(intervalCalibrationNote('model', figures(true))).toMatch(/^Calibrated on 250 simulated markets \(60 and 180 days\): a no-skill model's fold AUC intervals excluded 0\.5 in 4\.0%-4\.0%/);
  });

  it('says no run measured a split whose figures are absent', () => {
    expect(intervalCalibrationNote('model', figures(false), 'walk-forward')).toBe(
      'No calibration run has measured these intervals on walk-forward splits yet (npm run bench -- --only calibration).',
    );
  });

  it('reads the generated module of the last run: every model figure it quotes is a coverage the run measured', () => {
    const generated = INTERVAL_CALIBRATION as unknown as CalibrationFigures;
    for (const split of ['purged-k-fold', 'walk-forward'] as const) {
      const range = calibratedCoverage('model', generated, split);
      if (split === 'walk-forward' && generated.lengths.every((length) => !length.walkForward)) expect(range).toBeNull();
      else expect(range![0]).toBeGreaterThan(0.5);
    }
  });
});
