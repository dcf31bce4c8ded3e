// The methods the studies accept, as words: the analysis dispatches on them and the CLI's flags list them, so
// both read this one list (the CLI without loading the analysis).

/** The event study's interval methods, the default first (docs/analysis.md "The event study's interval"). */
export const INTERVAL_METHODS = ['block-jackknife', 'row-bootstrap'] as const;
export type IntervalMethod = (typeof INTERVAL_METHODS)[number];

/** The interval method's names before issue 28, still accepted: day = block-jackknife, row = row-bootstrap. */
export const BOOTSTRAP_METHODS = ['day', 'row'] as const;
export type BootstrapMethod = (typeof BOOTSTRAP_METHODS)[number];

/**
 * How a model study's pooled row of several folds gets its interval: `folds`, the corrected resampled t over the
 * folds' scores (k-fold: each fold model trained on the others' test rows); `test-days`, the folds' block
 * jackknife over every fold's test days (walk-forward: folds trained on the past, on growing sets).
 */
export const POOLED_INTERVAL_METHODS = ['folds', 'test-days'] as const;
export type PooledIntervalMethod = (typeof POOLED_INTERVAL_METHODS)[number];

/**
 * How the pooled Δ log loss of several k-folds gets its interval (evaluateModel's pooledDifference):
 * 'corrected-resampled-t' (Nadeau & Bengio, the default) or 'cross-fold' (experimental: the test-days jackknife plus
 * the folds' cross-fold term; models that give their score geometry) or 'nested' (experimental: nested
 * cross-validation, Bates, Hastie & Tibshirani; J(J − 1)/2 more fits).
 */
export const POOLED_DIFFERENCE_METHODS = ['cross-fold', 'nested', 'corrected-resampled-t'] as const;
export type PooledDifferenceMethod = (typeof POOLED_DIFFERENCE_METHODS)[number];

/**
 * The split methods, the default first, each with the `rdw study model` flags that only it reads, its pooled
 * row's interval, and whether the calibration bench measures its intervals; row-k-fold is the naive comparison
 * (docs/modelling.md "Time-aware splits"). Modelling's dispatch (split-methods.ts) is keyed by this record, so a
 * method added here does not compile until it runs.
 */
export const SPLIT_METHODS = {
  'purged-k-fold': { ownFlags: ['embargo'], pooledInterval: 'folds', calibrated: true },
  'walk-forward': { ownFlags: ['test-days', 'train-days'], pooledInterval: 'test-days', calibrated: true },
  'row-k-fold': { ownFlags: [], pooledInterval: 'folds', calibrated: false },
} as const satisfies Record<string, { readonly ownFlags: readonly string[]; readonly pooledInterval: PooledIntervalMethod; readonly calibrated: boolean }>;
export type ModelSplitMethod = keyof typeof SPLIT_METHODS;

/** The split methods whose intervals the calibration bench measures (docs/analysis.md). */
export type CalibratedSplitMethod = { [M in ModelSplitMethod]: (typeof SPLIT_METHODS)[M]['calibrated'] extends true ? M : never }[ModelSplitMethod];
export const CALIBRATED_SPLIT_METHODS: readonly CalibratedSplitMethod[] = (Object.keys(SPLIT_METHODS) as ModelSplitMethod[]).filter(
  (method): method is CalibratedSplitMethod => SPLIT_METHODS[method].calibrated,
);

/** The names of SPLIT_METHODS, in its order (for lists and messages). */
export const MODEL_SPLIT_METHODS: readonly ModelSplitMethod[] = Object.keys(SPLIT_METHODS) as ModelSplitMethod[];

/** The split method used when none is given. */
export const DEFAULT_SPLIT_METHOD = 'purged-k-fold' satisfies CalibratedSplitMethod;

export function isSplitMethod(value: unknown): value is ModelSplitMethod {
  return typeof value === 'string' && Object.hasOwn(SPLIT_METHODS, value);
}
