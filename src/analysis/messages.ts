// Every user-facing sentence of the analysis layer (tests assert classes and codes, not these texts).

import type { IntervalGap } from './interval-gap.js';
import { DEFAULT_SPLIT_METHOD, SPLIT_METHODS, type CalibratedSplitMethod } from '../contract/index.js';
import { printableText } from '../base/index.js';

export const analysisMessages = {
  danfojsMissing: () =>
    'toDataFrame needs the optional package danfojs, which is not installed here: add "overrides": { "xlsx": "0.18.5" } to your package.json (danfojs 1.2 otherwise fetches xlsx from a CDN), then run "npm install danfojs@1.2.0" (or use the Arrow table itself).',
  groupStatsNoValues: () => 'groupStats needs at least one value column: give values, e.g. { values: [\'return_pct_1h\'] }.',
  groupStatsUnknownColumn: (column: string, columns: readonly string[]) =>
    `groupStats: the frame has no column "${column}"; its columns are ${columns.join(', ')}.`,
  groupStatsBadStat: (stat: string, allowed: readonly string[]) => `groupStats: "${stat}" is not a statistic; give one or more of ${allowed.join(', ')}.`,
  groupStatsNotNumber: (column: string, row: number, value: unknown) =>
    `groupStats: column "${column}" holds ${JSON.stringify(value)} at row ${row}, which is not a number; summarise numeric columns only (group by the others).`,
  labelAsPredictor: (column: string, window: string) =>
    `Column "${column}" is an outcome label of window ${window}: it holds future information and cannot be a predictor. Drop it from the predictors (use it only as a target).`,
  derivedFromLabel: (derived: string, label: string, window: string) =>
    `Feature "${derived}" is derived from "${label}", an outcome label of window ${window}, so it cannot be a predictor. Build it from predictor fields only.`,
  derivedReadsLabel: (derived: string, label: string, window: string) =>
    `Feature "${derived}" reads "${label}", an outcome label of window ${window}, in its SQL (whatever its declared inputs say), so it cannot be a predictor. Build it from predictor fields only.`,
  /** A construct for crossRowFeature: a function that plans SQL text against the catalog. */
  plansAgainstCatalog: (fn: string) => `${fn}, which plans a query against the catalog's tables (their statistics summarise every row, labels included)`,
  crossRowFeature: (derived: string, construct: string) =>
    `Feature "${derived}" uses ${construct}, which reads rows other than its own (a later row holds the future); a derived feature may read only its own row, so for history use trailingMean, trailingChange or trailingRank (earlier rows of the same symbol only).`,
  notOneExpression: (derived: string, detail: string) =>
    `The SQL of feature "${derived}" is not one expression over the row's fields (${detail}); give a single expression such as ln(volume_ratio_20).`,
  featureNameTaken: (derived: string, taken: 'label' | 'field' | 'run-time') =>
    `"${derived}" cannot name a derived feature: it is ${taken === 'label' ? 'a label' : taken === 'field' ? 'a Market Events field' : "a column or relation name of rdw's own queries"}, which the feature would stand in for; give it a name of its own, e.g. "${derived}_derived".`,
  inputNameTwice: (derived: string) =>
    `Two different derived inputs are named "${derived}" (their SQL differs); give each its own name.`,
  qualifiedName: (derived: string, column: string) =>
    `The SQL of feature "${derived}" reads "${column}", a qualified name; name each field by itself (e.g. price, not t.price): a feature reads only its own row.`,
  unstableFunction: (derived: string, fn: string) =>
    `Feature "${derived}" calls ${fn}, whose value changes from run to run (or with the moment it runs), so a study would not give the same numbers twice; compute the feature from the row's fields only.`,
  featureNotText: (name: string, part: 'name' | 'sql') =>
    `A derived feature's ${part} must be a string${part === 'sql' ? ` (feature "${name}")` : ''}, not an object; give plain text, e.g. derivedFeature('ln_price', ['price'], 'ln(price)').`,
  featureNameTwice: (name: string) =>
    `Two different features are named "${name}" (DuckDB reads names without regard to case), so one would stand in for the other; give each its own name.`,
  setReturning: (derived: string, construct: string) =>
    `Feature "${derived}" uses ${construct}, which makes several rows out of one (the rows would no longer line up with the split); a derived feature gives one value per row.`,
  unknownColumnInSql: (derived: string, column: string) =>
    `The SQL of feature "${derived}" reads "${column}", which is neither a Market Events field nor one of its declared derived inputs; check the name.`,
  featureNotChecked: (derived: string) =>
    `The SQL of feature "${derived}" has not been read by the leakage guard; await checkFeatureSet(features) before predictorSelectSql (modelStudy does this itself).`,
  trailingFieldNotPredictor: (field: string) =>
    `A trailing feature summarises a numeric predictor field, and "${field}" is not one; pick one such as volume_ratio_20 or price.`,
  badTrailingName: (name: string) =>
    `"${name}" cannot name a trailing feature: use letters, digits and _ (starting with a letter or _), and no Market Events field name or name of rdw's own queries (reason, release_id, day, label_end, __…).`,
  unknownColumn: (column: string) =>
    `Column "${column}" is neither a Market Events field nor a derived feature defined with derivedFeature(); check the name.`,
  targetNotLabel: (column: string) =>
    `Model target "${column}" is not an outcome label; pick a label field such as direction_adjusted_return_pct_1h.`,
  badWindow: (value: string, allowed: readonly string[]) =>
    `Window "${value}" is not one of ${allowed.join(', ')}.`,
  badGrouping: (value: string, allowed: readonly string[]) =>
    `Cannot group the event study by "${value}": give one or more of ${allowed.join(', ')}.`,
  badBootstrap: (detail: string, name = 'bootstrap') => `Invalid ${name} option: ${detail}.`,
  badFlag: (name: string, expected: string) => `The event study option ${name} must be ${expected}.`,
  releasesNotInCatalog: (ids: readonly string[]) =>
    `${ids.length} release(s) are not in the local catalog (${ids.map((id) => id.slice(0, 12) + '…').join(', ')}); pull them first with "rdw pull <RELEASE_ID>". Nothing falls back to another revision.`,
  mixedCalculationVersions: (mix: readonly { calculation_version: string | null; rows: number; releases: number }[]) =>
    `The study's rows come from ${mix.length} calculation versions (${mix
      .map((entry) => `${entry.calculation_version ?? '(none)'}: ${entry.rows} rows in ${entry.releases} release(s)`)
      .join('; ')}), and results of different formula versions are not pooled by default; study releases of one version (name them, or --lock), or opt in with --allow-mixed-versions (allowMixedCalculationVersions: true).`,
  emptyStudy: () => 'The catalog holds no Market Events rows for this study; pull releases first with "rdw pull --latest N".',
  noRowId: () => 'The table has no row_id column, so predictors and labels could not be joined back; select row_id (and release_id).',
  noCatalog: (home: string) =>
    `There is no catalog at ${home}; pull releases first with "rdw pull --latest N" (or point --home / RDW_HOME at one).`,
  reportWritten: (file: string) => `Report written to ${file}`,
  badMeasure: (value: string) => `"${value}" is not an outcome measure.`,
  /** How well the block-jackknife intervals covered the truth on simulated markets (intervalCalibrationNote). */
  intervalCalibration: (markets: number, days: readonly number[], range: readonly [number, number] | null) =>
    range === null
      ? `No calibration run has measured these intervals yet (npm run bench -- --only calibration).`
      : `Calibrated on ${markets} simulated markets (${days.join(' and ')} days): these 95% intervals held the known truth in ${(range[0] * 100).toFixed(1)}-${(range[1] * 100).toFixed(1)}% of cases (docs/analysis.md).`,
  /** How the model's fold intervals did on simulated markets (intervalCalibrationNote('model')). */
  modelIntervalCalibration: (
    markets: number,
    days: readonly number[],
    noSkill: readonly [number, number] | null,
    coverage: readonly [number, number] | null,
    pooled: readonly [number, number] | null = null,
    freshMarket: readonly [number, number] | null = null,
    split: CalibratedSplitMethod = DEFAULT_SPLIT_METHOD,
  ) => {
    if (noSkill === null || coverage === null) return `No calibration run has measured these intervals on ${split} splits yet (npm run bench -- --only calibration).`;
    const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
    const freshText = freshMarket === null ? '' : ` (against its skill on other markets: ${pct(freshMarket[0])}-${pct(freshMarket[1])})`;
    // The pooled row's estimand follows its interval (contract's SPLIT_METHODS): the corrected resampled t over the
    // folds, the skill expected over training sets; the jackknife over every fold's test days, the fold models' skill.
    const pooledEstimand =
      SPLIT_METHODS[split].pooledInterval === 'test-days' ? "the fold models' skill under the test days' conditions" : 'the skill expected over training sets';
    const pooledText = pooled === null ? '' : `; pooled intervals held ${pooledEstimand} in ${pct(pooled[0])}-${pct(pooled[1])}`;
    return `Calibrated on ${markets} simulated markets (${days.join(' and ')} days${split === DEFAULT_SPLIT_METHOD ? '' : `, ${split} splits`}): a no-skill model's fold AUC intervals excluded 0.5 in ${pct(noSkill[0])}-${pct(noSkill[1])} of folds; fold intervals held the fold model's skill under its test days' conditions in ${pct(coverage[0])}-${pct(coverage[1])}${freshText}${pooledText} (docs/analysis.md).`;
  },
  intervalTwice: () =>
    'The event study got both interval and bootstrap (its old name); give the interval options once, as interval: { method, blockDays, confidence }.',
  badIntervalMethod: (value: string, allowed: readonly string[]) =>
    `The interval method must be one of ${allowed.join(', ')} (day and row are the old names), not ${value}.`,
  /** The interval's method and level in words (metadata.intervalDescription, the report). */
  intervalDescription: (
    interval: { method: string; confidence: number; samples: number; seed: number },
    blockDays: Readonly<Partial<Record<string, number>>>,
  ) =>
    interval.method === 'row-bootstrap'
      ? `${levelPercent(interval.confidence)}% percentile bootstrap over single rows (${interval.samples.toLocaleString('en-US')} samples, seed ${interval.seed}): it ignores day clustering (same-day rows and overlapping windows are not independent), so it is too narrow and not calibrated; for comparison only. p_value comes from the same draws (twice the smaller share beyond 0), so the interval excludes 0 exactly when p_value < ${alphaText(interval.confidence)}.`
      : `${levelPercent(interval.confidence)}% block-jackknife t interval over UTC-day blocks (${blockDaysText(blockDays)}), G-1 degrees of freedom (G: the blocks of a window, each left out in turn); p_value comes from the same t distribution, so the interval excludes 0 exactly when p_value < ${alphaText(interval.confidence)}.`,
  /** The interval's method and level in a few words: the effect chart's subtitle (block lengths: the report's description). */
  intervalShort: (interval: { method: string; confidence: number; samples: number }) =>
    interval.method === 'row-bootstrap'
      ? `${levelPercent(interval.confidence)}% CI, row bootstrap (${interval.samples.toLocaleString('en-US')} samples; ignores day clustering, not calibrated)`
      : `${levelPercent(interval.confidence)}% CI, block-jackknife t over UTC-day blocks`,
  /** Why a window's groups have no interval, in one sentence (the CLI, the report and the notebook helpers say it). */
  noIntervalAt: (gap: IntervalGap) => {
    const which = gap.groups < gap.windowGroups ? ` for ${gap.groups} of ${gap.windowGroups} groups` : '';
    if (gap.reason === 'not_estimable') {
      return `${gap.window}: no interval${which}: leaving out one block of days leaves no complete event or control return; pull more days.`;
    }
    if (gap.reason === 'no_variation') return `${gap.window}: no interval${which}: the difference is the same whichever days are left out.`;
    const made = `${gap.days} UTC ${plural(gap.days, 'day')} ${gap.days === 1 ? 'makes' : 'make'} ${gap.blocks} ${plural(gap.blocks, 'block')} of ${gap.blockDays} ${plural(gap.blockDays, 'day')}`;
    const need =
      gap.moreDays > 0
        ? `so ${gap.moreDays} more ${plural(gap.moreDays, 'day')} (${gap.daysNeeded} in all)`
        : 'and some blocks of these days hold no complete return; pull the missing days';
    return `${gap.window}: no interval${which}: ${made}; an interval needs ${gap.minBlocks} blocks, ${need}.`;
  },
  /** A study where no group has an interval: nothing is tested (the sentences per window say why). */
  noGroupTested: () => 'No group has an interval, so none is tested (q_value is empty).',
  /** A trailing helper's `hours` that is not a number (a string such as '6', or none). */
  trailingHoursNotNumber: (value: unknown) =>
    `The trailing window's hours must be a number of hours, not ${valueWithType(value)}; give e.g. { hours: 6 }.`,
  /** A trailing helper's numeric `hours` below one second or above the maximum (so the default name is well formed). */
  trailingHoursOutOfRange: (hours: number, maxHours: number) =>
    `The trailing window's hours must be from 1 second (1/3600 hour) to ${maxHours.toLocaleString('en-US')} hours, not ${hours}.`,
};

function levelPercent(confidence: number): number {
  return Number((confidence * 100).toPrecision(10));
}

function alphaText(confidence: number): string {
  return String(Number((1 - confidence).toPrecision(10)));
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}

/** Block lengths by window, windows of one length together: `1 day at 15m, 1h, 4h; 2 days at 24h; 14 days at 7d`. */
function blockDaysText(blockDays: Readonly<Partial<Record<string, number>>>): string {
  const byLength = new Map<number, string[]>();
  for (const [window, days] of Object.entries(blockDays)) {
    if (days === undefined) continue;
    byLength.set(days, [...(byLength.get(days) ?? []), window]);
  }
  return [...byLength].map(([days, windows]) => `${days} ${plural(days, 'day')} at ${windows.join(', ')}`).join('; ');
}

/** A value as given, with its type when that is not a number: `'6' (a string)`, `true (a boolean)`. */
function valueWithType(value: unknown): string {
  if (value === undefined) return 'undefined (none was given)';
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${printableText(value, 40)}' (a string)`;
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return `${String(value)} (a ${typeof value})`;
}
