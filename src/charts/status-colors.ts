// The one colour of each outcome status, used by every chart, the report and the notebooks, so `pending`
// looks the same everywhere. Okabe–Ito colours (readable with the common colour-vision deficiencies).

import { OUTCOME_STATUSES, type OutcomeStatus } from '../contract/index.js';

/** CSS colour (hex) per outcome status of the contract. Typed by the contract's list: a new status fails to compile until it has a colour. */
export const STATUS_COLORS: Readonly<Record<OutcomeStatus, string>> = {
  complete: '#009E73', // bluish green: usable outcome
  pending: '#56B4E9', // sky blue: not yet known, will come
  gap: '#E69F00', // orange: data missing in the window
  invalid_price: '#D55E00', // vermillion: bad input price
  not_applicable: '#CC79A7', // reddish purple: no outcome defined (grey is taken: n/a cells, grid lines)
};

/**
 * A Vega-Lite colour scale fixing each status to its colour. `statuses` (default: every status of the
 * contract, in contract order) sets the legend's order; a status the contract does not know is drawn grey.
 */
export function statusColorScale(statuses: readonly string[] = OUTCOME_STATUSES): { domain: string[]; range: string[] } {
  return {
    domain: [...statuses],
    range: statuses.map((status) => STATUS_COLORS[status as OutcomeStatus] ?? '#bbbbbb'),
  };
}
