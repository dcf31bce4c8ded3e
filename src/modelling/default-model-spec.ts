// The model rdw fits when none is given: does an event's direction-adjusted return at W come out positive,
// from its rule family, its direction and its volume? Every input is a predictor field; the target is a label.

import { DEFAULT_WINDOW, outcomeFieldName, type Window } from '../contract/index.js';
import { defineModelSpec, derivedFeature, type ModelSpec, resolveWindow } from '../analysis/index.js';

/**
 * Target `up_W`: 1 when direction_adjusted_return_pct_W > 0, 0 when not, null when the return is null (a control, or
 * an outcome not complete). Predictors: `is_breakout`, `is_volume_spike` (momentum is the reference family),
 * `is_up` (direction), `ln_volume_ratio_20` (null when the ratio is missing or not positive).
 * Meant for event rows (controls have no direction-adjusted return).
 * @throws AnalysisOptionError for an unknown window
 */
export function defaultModelSpec(window: Window = DEFAULT_WINDOW): ModelSpec {
  const checked = resolveWindow(window);
  const label = outcomeFieldName('direction_adjusted_return_pct', checked);
  return defineModelSpec({
    target: derivedFeature(`up_${checked}`, [label], `CASE WHEN ${label} IS NULL THEN NULL WHEN ${label} > 0 THEN 1 ELSE 0 END`),
    predictors: [
      derivedFeature('is_breakout', ['event_kind'], `CASE WHEN event_kind IS NULL THEN NULL WHEN event_kind = 'breakout' THEN 1 ELSE 0 END`),
      derivedFeature('is_volume_spike', ['event_kind'], `CASE WHEN event_kind IS NULL THEN NULL WHEN event_kind = 'volume_spike' THEN 1 ELSE 0 END`),
      derivedFeature('is_up', ['direction'], `CASE WHEN direction IS NULL THEN NULL WHEN direction = 'up' THEN 1 ELSE 0 END`),
      derivedFeature('ln_volume_ratio_20', ['volume_ratio_20'], 'CASE WHEN volume_ratio_20 > 0 THEN ln(volume_ratio_20) END'),
    ],
  });
}
