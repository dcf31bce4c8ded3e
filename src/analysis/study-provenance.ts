// What every study checks about where its rows come from, in one place: each named release is in the catalog,
// and the rows are of one calculation version unless pooling was asked for (the event study and the splits).

import type { DuckDBConnection } from '@duckdb/node-api';
import { MixedCalculationVersionsError, ReleaseNotInCatalogError } from './analysis-errors.js';
import { calculationVersionMixSql } from './event-study-sql.js';
import type { CalculationVersionShare } from './event-study-result.js';
import { analysisMessages } from './messages.js';

/** @throws ReleaseNotInCatalogError naming each release of `asked` (undefined: the current view) not among `found` */
export function assertReleasesFound(asked: readonly string[] | undefined, found: Iterable<string>): void {
  if (asked === undefined) return;
  const present = new Set(found);
  const missing = asked.filter((id) => !present.has(id));
  if (missing.length > 0) throw new ReleaseNotInCatalogError(analysisMessages.releasesNotInCatalog(missing), missing);
}

/**
 * Rows and releases per calculation_version of the rows `from` (a FROM clause). Rows of different formula
 * versions are not comparable as one sample, so several versions are refused unless `allowMixed`.
 * @throws MixedCalculationVersionsError
 */
export async function studyVersionMix(connection: DuckDBConnection, from: string, allowMixed: boolean): Promise<CalculationVersionShare[]> {
  const mix = (await connection.runAndReadAll(calculationVersionMixSql(from))).getRowObjectsJS().map(
    (row): CalculationVersionShare => ({
      calculation_version: row.calculation_version === null ? null : String(row.calculation_version),
      rows: Number(row.rows),
      releases: Number(row.releases),
    }),
  );
  if (mix.length > 1 && !allowMixed) {
    throw new MixedCalculationVersionsError(
      analysisMessages.mixedCalculationVersions(mix),
      mix.map((entry) => entry.calculation_version),
    );
  }
  return mix;
}
