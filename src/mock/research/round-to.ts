// Rounding of derived snapshot numbers, so CSV and JSON carry stable, readable values.

/** `value` rounded to `digits` decimals; null stays null. */
export function roundTo(value: number | null, digits: number): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  const factor = 10 ** digits;
  const rounded = Math.round(value * factor) / factor;
  return Object.is(rounded, -0) ? 0 : rounded;
}
