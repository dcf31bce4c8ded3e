// The methods the studies accept, as words: the analysis dispatches on them and the CLI's flags list them, so
// both read this one list (the CLI without loading the analysis).

/** The event study's interval methods, the default first (docs/analysis.md "The event study's interval"). */
export const INTERVAL_METHODS = ['block-jackknife', 'row-bootstrap'] as const;
export type IntervalMethod = (typeof INTERVAL_METHODS)[number];

/** The interval method's names before issue 28, still accepted: day = block-jackknife, row = row-bootstrap. */
export const BOOTSTRAP_METHODS = ['day', 'row'] as const;
export type BootstrapMethod = (typeof BOOTSTRAP_METHODS)[number];

/** The model study's split methods; row-k-fold is the naive comparison (docs/analysis.md "Time-aware splits"). */
export const MODEL_SPLIT_METHODS = ['purged-k-fold', 'walk-forward', 'row-k-fold'] as const;
export type ModelSplitMethod = (typeof MODEL_SPLIT_METHODS)[number];
