// What the calibration bench writes with --write: the generated module src/analysis/interval-calibration.ts
// (the figure the CLI and report quote) and the table of docs/analysis.md between its calibration markers.

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { WINDOWS, type Window } from '../../../src/contract/index.js';
import { MIN_QUOTED_INTERVALS } from '../../../src/analysis/interval-calibration-note.js';
import { newTally, type CalibrationSummary, type Tally } from './calibration-summary.js';
import { outsideBinomialBand } from './calibration-binomial.js';

export interface CalibrationRun {
  markets: number;
  truthMarkets: number;
  modelTruthMarkets: number;
  modelTruthRows: Record<string, number>;
  simulatedDays: number;
  measuredOn: string;
  commit: string;
  /** Last commit that changed src/analysis (the interval code measured). */
  analysisCommit: string;
  blockWindowMultiple: number;
  minIntervalBlocks: number;
  /** Pooled rows whose intervals --from recomputed from the recorded folds (a run made before the code showed them). */
  pooledRecomputed?: number;
  /** --from: the commit whose tally code (summary, table) re-read the run's saved records. */
  talliedAt?: string;
  summary: CalibrationSummary;
}

const pct = (value: number | null | undefined) => (value === null || value === undefined || !Number.isFinite(value) ? '–' : `${(100 * value).toFixed(1)}%`);
const withheldCount = (t: Tally) => Object.values(t.withheld).reduce((a, b) => a + b, 0);
/** A coverage cell; † when the count lies outside Binomial(shown, 0.95)'s central 95% band (not chance alone). */
const cell = (t: Tally) =>
  t.shown === 0
    ? `none shown (${withheldCount(t)} withheld)`
    : `${pct(t.coverage)}${outsideBinomialBand(t.covered, t.shown) ? ' †' : ''} of ${t.shown}${withheldCount(t) > 0 ? `; ${withheldCount(t)} withheld` : ''}`;

type ModelCoverage = CalibrationSummary[number]['model']['coverage'][Window];

/** The fold rows' tallies against their estimand (the same-regime truth), or the fresh-market ones for a run made before it was recorded. */
const foldTallies = (m: ModelCoverage) =>
  m.foldAucSameRegime && m.foldAucSameRegime.shown + withheldCount(m.foldAucSameRegime) > 0
    ? { auc: m.foldAucSameRegime, logLoss: m.foldLogLossSameRegime, sameRegime: true }
    : { auc: m.foldAuc, logLoss: m.foldLogLoss, sameRegime: false };

type LengthSummary = CalibrationSummary[number];

type ModelSummary = LengthSummary['model'];

/** The pooled rows' tallies against their estimand (pooledEstimand): k-fold's the skill expected over training sets, walk-forward's the same-regime skill of the fitted models. */
const pooledTallies = (model: ModelSummary, w: Window) => {
  const expected = model.pooledEstimand?.[w];
  return expected ? { auc: expected.auc, logLoss: expected.logLoss } : { auc: model.coverage[w].pooledAuc, logLoss: model.coverage[w].pooledLogLoss };
};

/** Every coverage figure of the run in one list (cells of at least MIN_QUOTED_INTERVALS, as the CLI's note), for the overall range. */
function allCoverages(run: CalibrationRun): number[] {
  const out: number[] = [];
  for (const length of run.summary) {
    for (const w of WINDOWS) {
      const e = length.event.coverage[w];
      if (e?.coverage != null && e.shown >= MIN_QUOTED_INTERVALS) out.push(e.coverage);
      for (const model of [length.model, length.walkForward ?? undefined]) {
        const m = model?.coverage[w];
        if (model && m) for (const t of [foldTallies(m).auc, pooledTallies(model, w).auc, foldTallies(m).logLoss, pooledTallies(model, w).logLoss]) if (t.coverage != null && t.shown >= MIN_QUOTED_INTERVALS) out.push(t.coverage);
      }
    }
  }
  return out;
}

const round = (value: number | null | undefined, digits = 4) => (value === null || value === undefined || !Number.isFinite(value) ? null : Number(value.toFixed(digits)));

/** Coverage and shown count of a model interval kind's fold and pooled rows in one window. */
const modelCell = (fold: Tally, pooled: Tally, freshMarket: Tally, pooledFitted: Tally) => ({
  fold: round(fold.coverage),
  foldShown: fold.shown,
  pooled: round(pooled.coverage),
  pooledShown: pooled.shown,
  /** The fold rows against the fitted model's skill on other markets (all regimes): not their estimand, for comparison. */
  foldFreshMarket: round(freshMarket.coverage),
  /** The pooled rows against the fitted fold models' own skill (not their estimand: that is the skill expected over training sets). */
  pooledFittedModels: round(pooledFitted.coverage),
});

/** A model summary's AUC and Δ log loss cells per window, for the generated module. */
const modelCells = (model: ModelSummary) => ({
  modelAuc: Object.fromEntries(WINDOWS.map((w) => { const m = model.coverage[w]; return [w, modelCell(foldTallies(m).auc, pooledTallies(model, w).auc, m.foldAuc, m.pooledAuc)]; })),
  modelLogLossDifference: Object.fromEntries(WINDOWS.map((w) => { const m = model.coverage[w]; return [w, modelCell(foldTallies(m).logLoss, pooledTallies(model, w).logLoss, m.foldLogLoss, m.pooledLogLoss)]; })),
});

/** The generated TypeScript module's text. */
export function calibrationModule(run: CalibrationRun): string {
  const coverages = allCoverages(run);
  const data = {
    markets: run.markets,
    measuredOn: run.measuredOn,
    commit: run.commit,
    analysisCommit: run.analysisCommit,
    blockWindowMultiple: run.blockWindowMultiple,
    minIntervalBlocks: run.minIntervalBlocks,
    /** Lowest and highest coverage of any interval kind × window × market length of 30+ shown intervals. */
    coverageRange: coverages.length > 0 ? [round(Math.min(...coverages)), round(Math.max(...coverages))] : null,
    /** Highest FDR and lowest power over the market lengths. */
    fdr: round(Math.max(...run.summary.map((length) => length.event.fdr ?? Number.NaN))),
    power: round(Math.min(...run.summary.map((length) => length.event.power ?? Number.NaN))),
    lengths: run.summary.map((length) => ({
      days: length.days,
      eventDifference: Object.fromEntries(WINDOWS.map((w) => [w, { coverage: round(length.event.coverage[w].coverage), shown: length.event.coverage[w].shown, withheld: withheldCount(length.event.coverage[w]) }])),
      ...modelCells(length.model),
      fdr: round(length.event.fdr),
      power: round(length.event.power),
      noSkillFoldsExcludingHalf: length.model.noSkillFolds.shown > 0 ? round(length.model.noSkillFolds.excluding / length.model.noSkillFolds.shown) : null,
      /** The same model figures on walk-forward splits (5 test blocks, expanding training); null when not measured. */
      walkForward: length.walkForward
        ? {
            ...modelCells(length.walkForward),
            noSkillFoldsExcludingHalf: length.walkForward.noSkillFolds.shown > 0 ? round(length.walkForward.noSkillFolds.excluding / length.walkForward.noSkillFolds.shown) : null,
          }
        : null,
    })),
  };
  return `// GENERATED by \`npm run bench -- --only calibration\` with --write (test/bench/calibration.bench.ts: run
// node --import tsx test/bench/calibration.bench.ts --write). Do not edit by hand: re-run the bench.
// How sure rdw says it is, measured: coverage of rdw's intervals against the simulator's known truth over
// seeded markets (docs/analysis.md "How sure rdw says it is: calibration on simulated markets").

/** The calibration run's figures: coverage is the share of shown 95% intervals that held the truth. */
export const INTERVAL_CALIBRATION = ${JSON.stringify(data, null, 2)} as const;
`;
}

function withheldText(t: Tally): string {
  const entries = Object.entries(t.withheld);
  return entries.length === 0 ? '0' : entries.map(([reason, n]) => `${n} (${reason})`).join(', ');
}

/** The markdown section body for docs/analysis.md. */
export function calibrationMarkdown(run: CalibrationRun): string {
  const lines: string[] = [];
  lines.push(
    `Measured by \`npm run bench -- --only calibration\` on ${run.measuredOn} at commit \`${run.commit}\` (interval code: src/analysis as of \`${run.analysisCommit}\`): ${run.markets} simulated markets ` +
      `(MarketSimulator seeds ${1001}–${1000 + run.markets}, ${run.simulatedDays} days each; a ${run.summary.map((l) => l.days).join('- and ')}-day market is the newest days of it; ` +
      `event truth pooled over ${run.truthMarkets} truth markets, seeds 9001–${9000 + run.truthMarkets}), ` +
      `intervals as that code computes them (block-jackknife constants there: blocks of ≥ ${run.blockWindowMultiple} outcome windows, no interval below ${run.minIntervalBlocks} blocks; the blocks column and the withheld reasons use them). ` +
      `Coverage is the share of shown 95% intervals that held the truth (goal 93–97%); † marks a count outside the central 95% band of Binomial(shown, 0.95), i.e. farther from 95% than chance alone explains (100 intervals: 90–99 covered is inside). ` +
      `Each model column counts against its interval's estimand (docs/analysis.md): fold rows, the fitted fold model's skill on fresh events under its test days' volatility regimes; purged k-fold's pooled rows (corrected resampled t), the skill expected over training sets (the mean of the pooled truths over the markets per window and spec; the no-skill AUC 0.5); walk-forward's pooled rows (the jackknife over every fold's test days), the fold models' same-regime skill mixed as the pooled score mixes the folds. The bullets give the k-fold rows against the fitted models' skill on other markets.` +
      (run.pooledRecomputed
        ? ` The pooled rows' intervals (${run.pooledRecomputed} rows) were recorded before the code showed them and are recomputed from the recorded fold scores and row counts with the function the pooled row uses (\`correctedResampledInterval\`, test/bench/support/calibration-pooled.ts).`
        : '') +
      (run.talliedAt ? ` Tallied from the run's saved records (\`--from\`) by the tally code of \`${run.talliedAt}\`: the same intervals and truths, counted against each interval's estimand.` : ''),
    '',
  );
  for (const length of run.summary) {
    lines.push(`**${length.days}-day markets** (${length.markets} markets)`, '');
    lines.push('| window | event difference | blocks (days each) | withheld (reason) | median CI width / largest truth SE, pp | fold AUC | pooled AUC | fold Δ log loss | pooled Δ log loss |');
    lines.push('|---|---|---|---|---|---|---|---|---|');
    for (const w of WINDOWS) {
      const e = length.event.coverage[w];
      const m = length.model.coverage[w];
      const b = length.event.blocks[w]!;
      const scale = length.event.truthScale[w]!;
      const scaleText = `${scale.medianWidthPct?.toFixed(3) ?? '–'} / ${scale.maxTruthStandardErrorPct?.toFixed(3) ?? '–'}`;
      const fold = foldTallies(m);
      const pooled = pooledTallies(length.model, w);
      lines.push(`| ${w} | ${cell(e)} | ${b.min === b.max ? b.min : `${b.min}–${b.max}`} (${b.blockDays}) | ${withheldText(e)} | ${scaleText} | ${cell(fold.auc)} | ${cell(pooled.auc)} | ${cell(fold.logLoss)} | ${cell(pooled.logLoss)} |`);
    }
    const ns = length.model.noSkillFolds;
    const np = length.model.noSkillPooled;
    lines.push(
      '',
      `- FDR of the Benjamini–Hochberg calls (\`significant_adjusted\`) on null groups: ${pct(length.event.fdr)} (mean false-discovery proportion per study; ${length.event.nullCalls} false calls among ${length.event.calls} calls; ${length.event.nullRows} null rows).`,
      `- Power on the planted effect (breakout 1h, up and down): ${pct(length.event.power)} of ${length.event.plantedRows} rows called significant.`,
      `- Rows whose CI excludes 0 while p ≥ 0.05, or the reverse: ${length.event.disagreements}.`,
      `- Model truth: ${run.modelTruthMarkets} truth markets (seeds 9001–${9000 + run.modelTruthMarkets}), ${Object.entries(run.modelTruthRows).filter(([k]) => k.endsWith('|1h')).map(([k, n]) => `${k.split('|')[0]} spec ${n} rows at 1h`).join(', ')}; mean standard error of a fold's truth AUC ${length.model.truthAucStandardError?.toFixed(4) ?? '–'}.`,
      `- No-skill folds whose AUC interval excludes 0.5: ${ns.shown > 0 ? pct(ns.excluding / ns.shown) : '–'} of ${ns.shown} (pooled: ${np.shown > 0 ? pct(np.excluding / np.shown) : '–'} of ${np.shown}); mean true AUC of the default model's folds ${length.model.meanTrueAuc.default?.toFixed(3) ?? '–'}, of the no-skill folds ${length.model.meanTrueAuc.noSkill?.toFixed(3) ?? '–'}.`,
      `- Fold rows against the fresh-market truth instead (the fitted model on other markets, all regimes: not their estimand), AUC; Δ log loss: ${WINDOWS.map((w) => {
        const m = length.model.coverage[w];
        return `${w} ${m.foldAuc.shown > 0 ? cell(m.foldAuc) : '–'}; ${m.foldLogLoss.shown > 0 ? cell(m.foldLogLoss) : '–'}`;
      }).join(', ')}.`,
      `- Model estimate − truth, mean (AUC; Δ log loss), and AUC misses with the fresh-market truth above / below the interval: ${Object.entries(length.model.bias)
        .map(([name, b]) => `${name} ${b.auc?.toFixed(4) ?? '–'}; ${b.logLossDifference?.toFixed(4) ?? '–'} (${b.aucTruthAbove} / ${b.aucTruthBelow})${b.aucSameRegime != null ? `, AUC − same-regime truth ${b.aucSameRegime.toFixed(4)}` : ''}`)
        .join(', ')}.`,
      `- Pooled rows against the fitted fold models' own skill on other markets instead (not their estimand: the interval also holds what other training sets would have fitted), AUC; Δ log loss: ${WINDOWS.map((w) => {
        const m = length.model.coverage[w];
        return `${w} ${m.pooledAuc.shown > 0 ? cell(m.pooledAuc) : '–'}; ${m.pooledLogLoss.shown > 0 ? cell(m.pooledLogLoss) : '–'}`;
      }).join(', ')}.`,
      pooledBySpecLine(length.model),
      `- Null groups (FDR): ${length.event.nullGroups.join(', ') || 'none'}.`,
      '',
    );
    if (length.walkForward) lines.push(...walkForwardLines(length.days, length.walkForward));
  }
  lines.push(...windowKindLines(run));
  return lines.join('\n');
}

/** Tallies of one kind summed over market lengths (the issue's cells are window × interval kind). */
function sumTallies(tallies: readonly (Tally | undefined)[]): Tally {
  const sum = newTally();
  for (const t of tallies) {
    if (!t) continue;
    sum.shown += t.shown;
    sum.covered += t.covered;
    for (const [reason, n] of Object.entries(t.withheld)) sum.withheld[reason] = (sum.withheld[reason] ?? 0) + n;
  }
  sum.coverage = sum.shown > 0 ? sum.covered / sum.shown : null;
  return sum;
}

/**
 * Every interval kind per window with the market lengths together, and how many of those cells lie outside
 * 93–97% (the issue's goal) and outside Binomial(shown, 0.95)'s band.
 */
export function windowKindLines(run: CalibrationRun): string[] {
  const kinds: { name: string; tally: (length: LengthSummary, w: Window) => Tally | undefined }[] = [
    { name: 'event difference', tally: (l, w) => l.event.coverage[w] },
    { name: 'fold AUC', tally: (l, w) => foldTallies(l.model.coverage[w]).auc },
    { name: 'pooled AUC', tally: (l, w) => pooledTallies(l.model, w).auc },
    { name: 'fold Δ log loss', tally: (l, w) => foldTallies(l.model.coverage[w]).logLoss },
    { name: 'pooled Δ log loss', tally: (l, w) => pooledTallies(l.model, w).logLoss },
    { name: 'walk-forward fold AUC', tally: (l, w) => (l.walkForward ? foldTallies(l.walkForward.coverage[w]).auc : undefined) },
    { name: 'walk-forward pooled AUC', tally: (l, w) => (l.walkForward ? pooledTallies(l.walkForward, w).auc : undefined) },
    { name: 'walk-forward fold Δ log loss', tally: (l, w) => (l.walkForward ? foldTallies(l.walkForward.coverage[w]).logLoss : undefined) },
    { name: 'walk-forward pooled Δ log loss', tally: (l, w) => (l.walkForward ? pooledTallies(l.walkForward, w).logLoss : undefined) },
  ];
  const used = kinds.filter((kind) => run.summary.some((l) => WINDOWS.some((w) => (kind.tally(l, w)?.shown ?? 0) + withheldCount(kind.tally(l, w) ?? newTally()) > 0)));
  const lines = [
    `**Each window and interval kind, ${run.summary.map((l) => l.days).join(' and ')}-day markets together** (the issue's cells)`,
    '',
    `| window | ${used.map((kind) => kind.name).join(' | ')} |`,
    `|---|${used.map(() => '---').join('|')}|`,
  ];
  let cells = 0;
  let outsideGoal = 0;
  let outsideBand = 0;
  for (const w of WINDOWS) {
    const row = used.map((kind) => {
      const t = sumTallies(run.summary.map((l) => kind.tally(l, w)));
      if (t.shown > 0) {
        cells += 1;
        if (t.coverage! < 0.93 || t.coverage! > 0.97) outsideGoal += 1;
        if (outsideBinomialBand(t.covered, t.shown)) outsideBand += 1;
      }
      return cell(t);
    });
    lines.push(`| ${w} | ${row.join(' | ')} |`);
  }
  lines.push('', `- Cells with an interval shown: ${cells}; outside 93–97%: ${outsideGoal}; outside Binomial(shown, 0.95)'s central band (†): ${outsideBand}.`, '');
  return lines;
}

/** The pooled columns per spec, against the same estimand (runs tallied before it was kept: empty cells). */
function pooledBySpecLine(model: ModelSummary): string {
  const specs = Object.entries(model.pooledBySpec).map(([spec, cells]) =>
    `${spec}: ${WINDOWS.map((w) => `${w} ${cells[w] && cells[w].auc.shown > 0 ? cell(cells[w].auc) : '–'}; ${cells[w] && cells[w].logLoss.shown > 0 ? cell(cells[w].logLoss) : '–'}`).join(', ')}`);
  return `- Pooled columns per model spec (AUC; Δ log loss), the default model (skill at 15m–4h, true AUC 0.53–0.56; at 24h and 7d AUC 0.50–0.51 and no log-loss gain) and the no-skill one: ${specs.join('; ')}.`;
}

/** The walk-forward table of one market length: the model intervals only (the event study has no split). */
function walkForwardLines(days: number, model: ModelSummary): string[] {
  const lines = [
    `**Walk-forward splits, ${days}-day markets** (5 test blocks of ⌊days / 6⌋ days at the end, each trained on every earlier day; the same markets and truths)`,
    '',
    '| window | fold AUC | pooled AUC | fold Δ log loss | pooled Δ log loss |',
    '|---|---|---|---|---|',
  ];
  for (const w of WINDOWS) {
    const fold = foldTallies(model.coverage[w]);
    const pooled = pooledTallies(model, w);
    lines.push(`| ${w} | ${cell(fold.auc)} | ${cell(pooled.auc)} | ${cell(fold.logLoss)} | ${cell(pooled.logLoss)} |`);
  }
  const ns = model.noSkillFolds;
  const np = model.noSkillPooled;
  lines.push(
    '',
    `- No-skill folds whose AUC interval excludes 0.5: ${ns.shown > 0 ? pct(ns.excluding / ns.shown) : '–'} of ${ns.shown} (pooled: ${np.shown > 0 ? pct(np.excluding / np.shown) : '–'} of ${np.shown}); mean true AUC of the default model's folds ${model.meanTrueAuc.default?.toFixed(3) ?? '–'}.`,
    pooledBySpecLine(model),
    `- Model estimate − truth, mean (AUC; Δ log loss): ${Object.entries(model.bias)
      .map(([name, b]) => `${name} ${b.auc?.toFixed(4) ?? '–'}; ${b.logLossDifference?.toFixed(4) ?? '–'}${b.aucSameRegime != null ? ` (AUC − same-regime truth ${b.aucSameRegime.toFixed(4)})` : ''}`)
      .join(', ')}.`,
    '',
  );
  return lines;
}

const START = '<!-- calibration:start (generated by the calibration bench --write) -->';
const END = '<!-- calibration:end -->';

/** Writes the module and replaces the docs section between the markers (appended when absent). */
export async function writeCalibration(root: string, run: CalibrationRun): Promise<void> {
  await writeFile(path.join(root, 'src/analysis/interval-calibration.ts'), calibrationModule(run));
  const docs = path.join(root, 'docs/analysis.md');
  const text = await readFile(docs, 'utf8');
  const block = `${START}\n${calibrationMarkdown(run)}\n${END}`;
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  const next = start >= 0 && end > start ? `${text.slice(0, start)}${block}${text.slice(end + END.length)}` : `${text.trimEnd()}\n\n${block}\n`;
  await writeFile(docs, next);
}

export type { Window };
