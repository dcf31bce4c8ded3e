// Tallies the calibration bench's records (calibration-measure.ts) into the figures it reports: coverage of
// each interval kind against the truth, intervals shown vs withheld (with the reason), FDR of the BH calls on
// null groups, power on the planted effect, and the share of no-skill folds whose AUC interval excludes 0.5.

import { WINDOW_SECONDS, WINDOWS, type Window } from '../../../src/contract/index.js';
import { intervalBlockDays, MIN_INTERVAL_BLOCKS } from '../../../src/analysis/block-jackknife.js';
import type { GroupTruth } from './calibration-explore.js';
import type { EventRecord, Measurement, ModelRecord } from './calibration-measure.js';

/** Intervals of one kind in one cell: shown (and how many covered the truth), withheld by reason. */
export interface Tally {
  shown: number;
  covered: number;
  /** covered / shown, null when none shown. */
  coverage: number | null;
  withheld: Record<string, number>;
}

export const newTally = (): Tally => ({ shown: 0, covered: 0, coverage: null, withheld: {} });

function add(tally: Tally, interval: readonly [number | null, number | null], truth: number | null, withheldReason: string): void {
  // No truth (a fold fitted on no rows; NaN is saved as null): nothing to count.
  if (truth === null || !Number.isFinite(truth)) return;
  const [low, high] = interval;
  if (low === null || high === null || !Number.isFinite(low) || !Number.isFinite(high)) {
    tally.withheld[withheldReason] = (tally.withheld[withheldReason] ?? 0) + 1;
    return;
  }
  tally.shown += 1;
  if (low <= truth && truth <= high) tally.covered += 1;
  tally.coverage = tally.covered / tally.shown;
}

function reasonFor(blocks: number): string {
  return blocks < MIN_INTERVAL_BLOCKS ? `fewer than ${MIN_INTERVAL_BLOCKS} blocks` : 'other';
}

/** Null groups of a window: by the planted table at 1h (volume_spike, momentum); elsewhere non-breakout groups whose truth is within 2 truth standard errors of 0. */
export function isNullGroup(window: Window, eventKind: string, truth: GroupTruth | undefined): boolean {
  if (eventKind === 'breakout') return false;
  if (window === '1h') return true;
  return truth !== undefined && Math.abs(truth.value) <= 2 * truth.standardError;
}

const key = (r: { window: string; eventKind: string; direction: string }) => `${r.window}|${r.eventKind}|${r.direction}`;

export function summarize(measurement: Measurement, lengths: readonly number[], windows: readonly Window[] = WINDOWS) {
  const perLength = lengths.map((days) => {
    const truth = measurement.eventTruth[days]!;
    const events = measurement.events.filter((r) => r.days === days);
    const models = measurement.models.filter((r) => r.days === days);
    // Event study: coverage per window, CI/p disagreements, null groups
    const eventCoverage = Object.fromEntries(windows.map((w) => [w, newTally()])) as Record<Window, Tally>;
    let disagreements = 0;
    for (const r of events) {
      const t = truth.get(key(r));
      if (!t) continue;
      add(eventCoverage[r.window], [r.low, r.high], t.value, reasonFor(r.blocks));
      if (r.low !== null && r.high !== null && r.p !== null && (r.low > 0 || r.high < 0) !== r.p < 0.05) disagreements += 1;
    }
    const blocks = Object.fromEntries(windows.map((w) => {
      const b = events.filter((r) => r.window === w).map((r) => r.blocks);
      return [w, { blockDays: intervalBlockDays(WINDOW_SECONDS[w]), min: Math.min(...b), max: Math.max(...b) }];
    }));
    // How small the truth's own error is against the intervals: median shown width vs largest truth SE, per window
    const truthScale = Object.fromEntries(windows.map((w) => {
      const widths = events.filter((r) => r.window === w && r.low !== null && r.high !== null).map((r) => r.high! - r.low!).sort((a, b) => a - b);
      const ses = [...truth].filter(([k]) => k.startsWith(`${w}|`)).map(([, t]) => t.standardError);
      return [w, { medianWidthPct: widths.length > 0 ? widths[Math.floor(widths.length / 2)]! : null, maxTruthStandardErrorPct: ses.length > 0 ? Math.max(...ses) : null }];
    }));
    const nullGroups = [...truth].filter(([k, t]) => {
      const [w, kind] = k.split('|') as [Window, string];
      return windows.includes(w) && isNullGroup(w, kind, t);
    }).map(([k]) => k);
    const nullSet = new Set(nullGroups);
    // FDR per study (seed): false calls among all BH calls of that study, then averaged
    const studies = new Map<number, EventRecord[]>();
    for (const r of events) studies.set(r.seed, [...(studies.get(r.seed) ?? []), r]);
    let fdpSum = 0;
    let nullCalls = 0;
    let nullRows = 0;
    let calls = 0;
    for (const rows of studies.values()) {
      const called = rows.filter((r) => r.significant === true);
      const falseCalls = called.filter((r) => nullSet.has(key(r))).length;
      fdpSum += called.length > 0 ? falseCalls / called.length : 0;
      calls += called.length;
      nullCalls += falseCalls;
      nullRows += rows.filter((r) => nullSet.has(key(r))).length;
    }
    const planted = events.filter((r) => r.window === '1h' && r.eventKind === 'breakout');
    const power = planted.length > 0 ? planted.filter((r) => r.significant === true).length / planted.length : null;
    return {
      days,
      markets: studies.size,
      event: { coverage: eventCoverage, blocks, truthScale, disagreements, nullGroups, fdr: studies.size > 0 ? fdpSum / studies.size : null, calls, nullCalls, nullRows, power, plantedRows: planted.length },
      model: modelSummary(models.filter((r) => (r.split ?? 'purged-k-fold') === 'purged-k-fold'), windows),
      /** Walk-forward splits' model intervals (null when the run measured none). */
      walkForward: models.some((r) => r.split === 'walk-forward') ? modelSummary(models.filter((r) => r.split === 'walk-forward'), windows) : null,
    };
  });
  return perLength;
}

/** The model intervals' tallies of one split method's records (one market length). */
function modelSummary(models: readonly ModelRecord[], windows: readonly Window[]) {
  // Coverage of the four interval kinds per window and spec
  const modelCells = Object.fromEntries(
    windows.map((w) => {
      const cell = {
        foldAuc: newTally(),
        pooledAuc: newTally(),
        foldLogLoss: newTally(),
        pooledLogLoss: newTally(),
        foldAucSameRegime: newTally(),
        foldLogLossSameRegime: newTally(),
      };
      for (const r of models.filter((m) => m.window === w)) {
        // The pooled row of several k-folds: its interval comes from the folds' scores, whatever its blocks.
        const reason = r.fold === 0 && r.overFolds !== false ? 'a fold score undefined, or all alike' : reasonFor(Math.ceil(r.testDays / intervalBlockDays(WINDOW_SECONDS[w])));
        add(r.fold === 0 ? cell.pooledAuc : cell.foldAuc, r.aucInterval, r.trueAuc, reason);
        add(r.fold === 0 ? cell.pooledLogLoss : cell.foldLogLoss, r.logLossInterval, r.trueLogLossDifference, reason);
        // The fold interval's estimand: the fold model's skill under its test days' volatility regimes.
        if (r.fold > 0 && r.sameRegimeAuc !== undefined) {
          add(cell.foldAucSameRegime, r.aucInterval, r.sameRegimeAuc, reason);
          add(cell.foldLogLossSameRegime, r.logLossInterval, r.sameRegimeLogLossDifference ?? null, reason);
        }
      }
      return [w, cell];
    }),
  ) as Record<Window, Record<'foldAuc' | 'pooledAuc' | 'foldLogLoss' | 'pooledLogLoss' | 'foldAucSameRegime' | 'foldLogLossSameRegime', Tally>>;
  // Each pooled interval against its estimand. The corrected resampled t (overFolds, k-fold) targets the score
  // expected over training sets (Nadeau & Bengio; Bates, Hastie & Tibshirani 2023), not the fitted fold models'
  // own: its truth per window × spec is the mean of the pooled truths over the markets (the no-skill AUC: 0.5
  // either way). The test-days jackknife (walk-forward) targets the fitted models' skill on days like the test
  // days: the pooled same-regime truth.
  const pooledBySpec = { default: {} as Record<Window, { auc: Tally; logLoss: Tally }>, 'no-skill': {} as Record<Window, { auc: Tally; logLoss: Tally }> };
  const pooledEstimand = Object.fromEntries(
    windows.map((w) => {
      const cell = { auc: newTally(), logLoss: newTally() };
      for (const spec of ['default', 'no-skill'] as const) {
        // The same tallies per spec: whether a cell's coverage depends on the model having skill to find.
        const own = (pooledBySpec[spec][w] = { auc: newTally(), logLoss: newTally() });
        const rows = models.filter((m) => m.window === w && m.spec === spec && m.fold === 0);
        const mean = (pick: (r: ModelRecord) => number) => {
          const v = rows.map(pick).filter((x) => x !== null && Number.isFinite(x));
          return v.length > 0 ? v.reduce((a, b) => a + b, 0) / v.length : null;
        };
        const auc = spec === 'no-skill' ? 0.5 : mean((r) => r.trueAuc);
        const logLoss = mean((r) => r.trueLogLossDifference);
        for (const r of rows) {
          if (r.overFolds === false) {
            const reason = reasonFor(Math.ceil(r.testDays / intervalBlockDays(WINDOW_SECONDS[w])));
            for (const t of [cell, own]) {
              add(t.auc, r.aucInterval, r.sameRegimeAuc ?? null, reason);
              add(t.logLoss, r.logLossInterval, r.sameRegimeLogLossDifference ?? null, reason);
            }
            continue;
          }
          for (const t of [cell, own]) {
            add(t.auc, r.aucInterval, auc, 'a fold score undefined, or all alike');
            // The cross-fold interval (crossFoldInterval) targets the fitted models' own skill on days like the test days.
            if (r.logLossCrossFold === true) add(t.logLoss, r.logLossInterval, r.sameRegimeLogLossDifference ?? null, reasonFor(Math.ceil(r.testDays / intervalBlockDays(WINDOW_SECONDS[w]))));
            else add(t.logLoss, r.logLossInterval, logLoss, 'a fold score undefined, or all alike');
          }
        }
      }
      return [w, cell];
    }),
  ) as Record<Window, { auc: Tally; logLoss: Tally }>;
  const noSkill = (pooled: boolean) => {
    const rows = models.filter((r) => r.spec === 'no-skill' && (r.fold === 0) === pooled && Number.isFinite(r.aucInterval[0]));
    return { shown: rows.length, excluding: rows.filter((r) => r.aucInterval[0] > 0.5 || r.aucInterval[1] < 0.5).length };
  };
  const meanOf = (rows: ModelRecord[], pick: (r: ModelRecord) => number) => {
    const v = rows.map(pick).filter(Number.isFinite);
    return v.length > 0 ? v.reduce((a, b) => a + b, 0) / v.length : null;
  };
  return {
    coverage: modelCells,
    pooledEstimand,
    /** pooledEstimand's tallies per spec (the default model, with skill at 15m–4h; the no-skill one). */
    pooledBySpec,
    noSkillFolds: noSkill(false),
    noSkillPooled: noSkill(true),
    meanTrueAuc: {
      default: meanOf(models.filter((r) => r.spec === 'default' && r.fold > 0), (r) => r.scoredTruthAuc),
      noSkill: meanOf(models.filter((r) => r.spec === 'no-skill' && r.fold > 0), (r) => r.scoredTruthAuc),
    },
    truthAucStandardError: meanOf(models, (r) => r.trueAucStandardError),
    /** Mean estimate − truth and the side of the misses, per spec and fold/pooled: a bias shows as misses on one side. */
    bias: Object.fromEntries((['default', 'no-skill'] as const).flatMap((spec) => [false, true].map((pooled) => {
      const rows = models.filter((r) => r.spec === spec && (r.fold === 0) === pooled);
      const shown = rows.filter((r) => Number.isFinite(r.aucInterval[0]));
      return [`${spec} ${pooled ? 'pooled' : 'fold'}`, {
        auc: meanOf(rows, (r) => r.auc - r.trueAuc),
        /** Fold rows: estimate − same-regime truth (the fold interval's estimand); null for pooled rows. */
        aucSameRegime: pooled ? null : meanOf(rows, (r) => r.auc - (r.sameRegimeAuc ?? Number.NaN)),
        logLossDifference: meanOf(rows, (r) => r.logLossDifference - r.trueLogLossDifference),
        aucTruthAbove: shown.filter((r) => r.trueAuc > r.aucInterval[1]).length,
        aucTruthBelow: shown.filter((r) => r.trueAuc < r.aucInterval[0]).length,
      }];
    }))),
  };
}

export type CalibrationSummary = ReturnType<typeof summarize>;
