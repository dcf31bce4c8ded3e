// Every user-facing sentence of the notebook helpers.

export const notebookMessages = {
  notInKernel: () =>
    'This display helper only works inside a running tslab kernel (a Jupyter notebook); in a script, print textTable(...) or write the SVG with renderSvg(...) instead.',
  badHistoryField: (field: string) => `"${field}" is not a numeric field of the snapshot items; pick a column of the dataset's CSV.`,
  // the study table's legend (study-table-text.ts): units, CI level, what q and the mark mean
  studyLegend: (confidencePercent: number, level: number) =>
    `diff, ${confidencePercent}% CI (unadjusted): event minus control mean return in pp; n: complete/all; *: BH q <= ${level}`,
  /** Two lines: the wide table is as wide as its columns, its prose still fits 100 columns. */
  studyWideLegend: (confidencePercent: number, level: number) =>
    `Returns, difference and CI in pp; ci_*_pct: ${confidencePercent}% CI\nq_value: Benjamini-Hochberg; significant_adjusted: q <= ${level}`,
  studyFooter: (rows: number, releases: number, interval: string) => `rows ${rows}, releases ${releases}; CI: ${interval}`,
  /** The footer's interval, block jackknife: its block length per window, e.g. `1d at 15m/1h/4h`, `2d at 24h`. */
  jackknifeSettings: (blocks: readonly string[]) => `block jackknife (t)${blocks.length > 0 ? `, blocks ${blocks.join(', ')}` : ''}`,
  rowBootstrapSettings: (samples: number, seed: number) => `row bootstrap, ${samples} samples, seed ${seed} (ignores day clustering)`,
};
