// The methods the studies accept, as words: the analysis dispatches on them and the CLI's flags list them, so
// both read this one list (the CLI without loading the analysis).

/** The event study's interval methods, the default first (docs/analysis.md "The event study's interval"). */
export const INTERVAL_METHODS = ['block-jackknife', 'row-bootstrap'] as const;
export type IntervalMethod = (typeof INTERVAL_METHODS)[number];

/** The interval method's names before issue 28, still accepted: day = block-jackknife, row = row-bootstrap. */
export const BOOTSTRAP_METHODS = ['day', 'row'] as const;
export type BootstrapMethod = (typeof BOOTSTRAP_METHODS)[number];

/**
 * The split methods, the default first, each with the `rdw study model` flags that only it reads; row-k-fold is
 * the naive comparison (docs/modelling.md "Time-aware splits"). Modelling's dispatch (split-methods.ts) is
 * keyed by this record, so a method added here does not compile until it runs.
 */
export const SPLIT_METHODS = {
  'purged-k-fold': { ownFlags: ['embargo'] },
  'walk-forward': { ownFlags: ['test-days', 'train-days'] },
  'row-k-fold': { ownFlags: [] },
} as const satisfies Record<string, { readonly ownFlags: readonly string[] }>;
export type ModelSplitMethod = keyof typeof SPLIT_METHODS;

/** The names of SPLIT_METHODS, in its order (for lists and messages). */
export const MODEL_SPLIT_METHODS: readonly ModelSplitMethod[] = Object.keys(SPLIT_METHODS) as ModelSplitMethod[];

/** The split method used when none is given. */
export const DEFAULT_SPLIT_METHOD: ModelSplitMethod = 'purged-k-fold';

export function isSplitMethod(value: unknown): value is ModelSplitMethod {
  return typeof value === 'string' && Object.hasOwn(SPLIT_METHODS, value);
}
