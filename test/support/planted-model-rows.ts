// Shared data for the model tests: rows with real predictor field names and a planted logistic effect.
import { seededRandom } from '../../src/base/index.js';

/** Standard normal from a uniform stream (Box–Muller). */
export function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * `days` days of `perDay` rows; predictors volume_ratio_20 (planted +1 effect), taker_buy_fraction
 * (planted -0.7), oi_usd (no effect, large scale). Target 1 with probability sigmoid(0.2 + effects) ×
 * `signal` (0 = pure noise at the base rate sigmoid(0.2)).
 */
export function plantedRows(days: number, perDay: number, seed: number, signal = 1) {
  const random = seededRandom(seed);
  const rows: Record<string, number | null>[] = [];
  const target: (number | null)[] = [];
  const dayIndex: number[] = [];
  for (let day = 0; day < days; day += 1) {
    for (let k = 0; k < perDay; k += 1) {
      const a = normal(random);
      const b = normal(random);
      const c = 1e9 + 1e8 * normal(random);
      rows.push({ volume_ratio_20: a, taker_buy_fraction: b, oi_usd: c });
      const eta = 0.2 + signal * (1 * a - 0.7 * b);
      target.push(random() < 1 / (1 + Math.exp(-eta)) ? 1 : 0);
      dayIndex.push(day);
    }
  }
  return { rows, target, dayIndex };
}
