// Step 6 of the event study: the multiple-comparison adjustment over every group of the study (all windows
// × groups together), beside the intervals: q_value and significant_adjusted per row.

import { benjaminiHochberg } from './benjamini-hochberg.js';
import type { IntervalMethod } from './event-study-options.js';
import type { EventStudyRow, MultipleComparisons } from './event-study-result.js';

/** What "adjusted significance" means; recorded in every result's metadata and shown in the report. */
export const ADJUSTMENT_DESCRIPTION =
  'Benjamini–Hochberg over all groups of the study that have a p-value (every window and group together): q_value is the smallest false discovery rate at which the group would be called non-zero; significant_adjusted is q_value <= the level (1 - confidence). BH assumes independent or positively dependent tests; groups share days, so treat the level as approximate.';

/** Where p_value comes from, per interval method (appended to ADJUSTMENT_DESCRIPTION in the metadata). */
const P_VALUE_SOURCE: Readonly<Record<IntervalMethod, string>> = {
  'block-jackknife': 'p_value is two-sided, from the same block-jackknife t distribution as the interval (G - 1 degrees of freedom).',
  'row-bootstrap': 'p_value is two-sided, from the same row-bootstrap draws as the interval (twice the smaller share beyond 0).',
};

/**
 * Sets `q_value` (BH over the rows' `p_value`s) and `significant_adjusted` (q <= level) on every row; a row
 * without a p-value gets nulls and is not counted.
 * @param level false discovery rate, in (0, 1): the study's 1 - confidence (0.05 by default)
 * @param method the interval method the p-values come from (named in the description). Default block-jackknife.
 */
export function addAdjustedSignificance(rows: EventStudyRow[], level: number, method: IntervalMethod = 'block-jackknife'): MultipleComparisons {
  const q = benjaminiHochberg(rows.map((row) => row.p_value));
  let tested = 0;
  let significant = 0;
  rows.forEach((row, index) => {
    const value = q[index] ?? null;
    row.q_value = value;
    row.significant_adjusted = value === null ? null : value <= level;
    if (value !== null) tested += 1;
    if (row.significant_adjusted) significant += 1;
  });
  return { method: 'benjamini-hochberg', level, tested, significant, description: `${ADJUSTMENT_DESCRIPTION} ${P_VALUE_SOURCE[method]}` };
}
