// The planted ground truth: which recorded event families carry a real post-event drift, and how it is made.
// The public signal database records a triggered rule with a probability that, for `breakout`, rises with
// the event's next-hour direction-adjusted return; other families are recorded at a constant rate. The
// candles stay an unconditional random walk, so every recorded event is reproducible from the candles.

import type { Direction, EventKind, Window } from '../../contract/index.js';
import { clamp } from './numbers.js';

/** One family's planted effect (the ground truth an event-vs-control study should recover). */
export interface PlantedEffect {
  readonly eventKind: EventKind;
  readonly directions: readonly Direction[];
  /** Outcome window the effect is planted on. */
  readonly window: Window;
  /**
   * Planted mean direction-adjusted return of recorded events above the control return signed the same way,
   * basis points (0 = no effect).
   */
  readonly effectBps: number;
  readonly description: string;
}

export const PLANTED_EFFECTS: readonly PlantedEffect[] = [
  {
    eventKind: 'breakout',
    directions: ['up', 'down'],
    window: '1h',
    effectBps: 25,
    description:
      'Recorded breakout events (1h and 4h rules, both directions) are followed by a mean direction-adjusted 1h return about 25 bps above the control 1h return signed the same way.',
  },
  {
    eventKind: 'volume_spike',
    directions: ['up', 'down'],
    window: '1h',
    effectBps: 0,
    description: 'No effect: volume spikes are recorded at a constant rate and volume is independent of later returns.',
  },
  {
    eventKind: 'momentum',
    directions: ['up', 'down'],
    window: '1h',
    effectBps: 0,
    description: 'No effect: momentum triggers are recorded at a constant rate.',
  },
];

/** Share of triggers of a family without a planted effect that the signal database records. */
const CONSTANT_RECORDING = 0.9;
/** Mean recording probability of a family with an effect (keeps the selection linear and rarely clipped). */
const EFFECT_RECORDING = 0.5;

/**
 * Probability that a trigger is recorded. With p = b + k r and E[r] = 0, the recorded mean is
 * E[r p] / E[p] = k Var(r) / b, so k = effect * b / Var(r) plants `effect` (here in percent).
 * @param directionAdjustedReturnPct the trigger's next-window direction-adjusted return, percent (null if unknown).
 * @param varianceSquaredPct model variance of that return, percent squared.
 */
export function recordingProbability(kind: EventKind, directionAdjustedReturnPct: number | null, varianceSquaredPct: number): number {
  const effect = PLANTED_EFFECTS.find((planted) => planted.eventKind === kind);
  if (!effect || effect.effectBps === 0) return CONSTANT_RECORDING;
  if (directionAdjustedReturnPct === null || !(varianceSquaredPct > 0)) return EFFECT_RECORDING;
  const slope = ((effect.effectBps / 100) * EFFECT_RECORDING) / varianceSquaredPct;
  return clamp(EFFECT_RECORDING + slope * directionAdjustedReturnPct, 0, 1);
}
