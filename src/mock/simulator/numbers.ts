// Rounding helpers: every number the simulator emits has a short decimal form that JSON, CSV and Parquet keep exactly.

/** `value` rounded to `digits` decimals, never -0. */
export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  const rounded = Math.round(value * factor) / factor;
  return Object.is(rounded, -0) ? 0 : rounded;
}

/** `value` clamped to [low, high]. */
export function clamp(value: number, low: number, high: number): number {
  return value < low ? low : value > high ? high : value;
}
