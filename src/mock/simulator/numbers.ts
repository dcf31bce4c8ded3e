// Rounding helpers: every number the simulator emits has a short decimal form that JSON, CSV and Parquet keep exactly.

/** 10 ** d for d = 0..15, computed by the same expression once (a hot path; `**` with a variable exponent is slow). */
const FACTORS = Array.from({ length: 16 }, (_, digits) => 10 ** digits);

/** `value` rounded to `digits` decimals, never -0. */
export function round(value: number, digits: number): number {
  const factor = FACTORS[digits] ?? 10 ** digits;
  const rounded = Math.round(value * factor) / factor;
  return rounded === 0 ? 0 : rounded; // -0 === 0: returns +0
}

/** `value` clamped to [low, high]. */
export function clamp(value: number, low: number, high: number): number {
  return value < low ? low : value > high ? high : value;
}
