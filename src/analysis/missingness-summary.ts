// Missingness by outcome status per window and sample type: the counts that travel with every statistic.

import { OUTCOME_STATUSES, WINDOWS, outcomeFieldName } from '../contract/index.js';
import type { OutcomeStatus, SampleType, Window } from '../contract/index.js';
import type { AnalysisSourceLike } from './analysis-source.js';
import { resolveReleaseIds, rowsFromSql, toAnalysisSource } from './analysis-source.js';
import { resolveWindow } from './outcome.js';
import { quoteIdentifier, quoteLiteral } from '../base/index.js';
import { assertNothingShadowed, MARKET_EVENTS_TABLE } from '../catalog/index.js';

/** Rows of one window, sample type and outcome status. */
export interface MissingnessCell {
  window: Window;
  sample_type: SampleType;
  status: OutcomeStatus;
  rows: number;
}

/**
 * Row counts by window × sample type × status (every status listed, zeros included).
 * @param options.windows default every window; options.releases exact IDs, default the current view.
 */
export async function missingnessSummary(
  source: AnalysisSourceLike,
  options: { windows?: readonly Window[]; releases?: readonly string[] } = {},
): Promise<MissingnessCell[]> {
  const resolved = toAnalysisSource(source);
  // A macro named like count() or a temp view named like the catalog's would change what is counted as missing.
  await assertNothingShadowed(resolved.connection, resolved.eventsTable === MARKET_EVENTS_TABLE ? resolved.eventsTable : undefined);
  const windows = (options.windows ?? WINDOWS).map(resolveWindow);
  const releaseIds = options.releases === undefined ? undefined : resolveReleaseIds(options.releases);
  const from = rowsFromSql(resolved, releaseIds);
  const statuses = `unnest([${OUTCOME_STATUSES.map(quoteLiteral).join(', ')}])`;
  const parts = windows.map(
    (window) => `SELECT ${quoteLiteral(window)} AS "window", sample_type, ${quoteIdentifier(outcomeFieldName('status', window))} AS status, count(*)::INTEGER AS rows
FROM base GROUP BY ALL`,
  );
  const sql = `WITH base AS NOT MATERIALIZED (SELECT * FROM ${from}),
counted AS (${parts.join('\nUNION ALL\n')}),
grid AS (SELECT w."window", t.sample_type, s.status FROM (SELECT DISTINCT "window" FROM counted) w,
  (SELECT unnest(['event', 'control']) AS sample_type) t, (SELECT ${statuses} AS status) s)
SELECT g."window", g.sample_type, g.status, coalesce(c.rows, 0)::INTEGER AS rows
FROM grid g LEFT JOIN counted c USING ("window", sample_type, status)
ORDER BY list_position([${windows.map(quoteLiteral).join(', ')}], g."window"), g.sample_type DESC, list_position([${OUTCOME_STATUSES.map(quoteLiteral).join(', ')}], g.status)`;
  return (await resolved.connection.runAndReadAll(sql)).getRowObjectsJS() as unknown as MissingnessCell[];
}
