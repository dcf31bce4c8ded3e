// Every user-facing sentence of the analysis layer (tests assert classes and codes, not these texts).

export const analysisMessages = {
  danfojsMissing: () =>
    'toDataFrame needs the optional package danfojs, which is not installed here: add "overrides": { "xlsx": "0.18.5" } to your package.json (danfojs 1.2 otherwise fetches xlsx from a CDN), then run "npm install danfojs@1.2.0" (or use the Arrow table itself).',
  labelAsPredictor: (column: string, window: string) =>
    `Column "${column}" is an outcome label of window ${window}: it holds future information and cannot be a predictor. Drop it from the predictors (use it only as a target).`,
  derivedFromLabel: (derived: string, label: string, window: string) =>
    `Feature "${derived}" is derived from "${label}", an outcome label of window ${window}, so it cannot be a predictor. Build it from predictor fields only.`,
  unknownColumn: (column: string) =>
    `Column "${column}" is neither a Market Events field nor a derived feature defined with derivedFeature(); check the name.`,
  targetNotLabel: (column: string) =>
    `Model target "${column}" is not an outcome label; pick a label field such as direction_adjusted_return_pct_1h.`,
  badWindow: (value: string, allowed: readonly string[]) =>
    `Window "${value}" is not one of ${allowed.join(', ')}.`,
  badGrouping: (value: string, allowed: readonly string[]) =>
    `Cannot group the event study by "${value}": give one or more of ${allowed.join(', ')}.`,
  badBootstrap: (detail: string) => `Invalid bootstrap option: ${detail}.`,
  badFlag: (name: string, expected: string) => `The event study option ${name} must be ${expected}.`,
  badReleaseId: (value: string) =>
    `"${value}" is not a release ID (64 letters, digits or . _ ~ -, exactly as listed); name releases exactly by ID.`,
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
};
