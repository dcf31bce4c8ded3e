// Coverage counts of a release (spec: Release `coverage`): symbols, samples, statuses, outcomes per window.

import {
  FEATURE_STATUSES,
  OUTCOME_STATUSES,
  SAMPLE_TYPES,
  SYMBOLS,
  TAKER_STATUSES,
  WINDOWS,
  type MarketEventRow,
  type OutcomeStatus,
  type ReleaseCoverage,
} from '../../contract/index.js';

function zeroCounts<V extends string>(values: readonly V[]): Record<V, number> {
  return Object.fromEntries(values.map((value) => [value, 0])) as Record<V, number>;
}

/**
 * Counts of the rows by value. Every value of each value set is listed, zeros included, in value-set
 * order; `symbols` lists the pairs present in the rows, in the spec's pair order.
 */
export function releaseCoverage(rows: readonly MarketEventRow[]): ReleaseCoverage {
  const samples = zeroCounts(SAMPLE_TYPES);
  const featureStatus = zeroCounts(FEATURE_STATUSES);
  const takerStatus = zeroCounts(TAKER_STATUSES);
  const outcomes = Object.fromEntries(WINDOWS.map((window) => [window, zeroCounts(OUTCOME_STATUSES)])) as ReleaseCoverage['outcomes'];
  const present = new Set<string>();
  for (const row of rows) {
    present.add(row.symbol);
    samples[row.sample_type] += 1;
    featureStatus[row.feature_status] += 1;
    takerStatus[row.taker_status] += 1;
    for (const window of WINDOWS) {
      const counts = outcomes[window] as Record<OutcomeStatus, number>;
      counts[row[`status_${window}`]] += 1;
    }
  }
  return {
    symbols: SYMBOLS.filter((symbol) => present.has(symbol)),
    samples,
    feature_status: featureStatus,
    taker_status: takerStatus,
    outcomes,
  };
}
