// Windows in duration order (the contract's WINDOWS: 15m, 1h, 4h, 24h, 7d), never text order (24h before 4h).

import { WINDOWS } from '../contract/index.js';

/**
 * The distinct windows of `values` in duration order: contract windows first, by duration, then any window
 * the contract does not know, in order of appearance. Use as a Vega-Lite `sort` array.
 */
export function windowOrder(values: Iterable<string>): string[] {
  const present = new Set(values);
  const known = WINDOWS.filter((window) => present.has(window));
  const unknown = [...present].filter((window) => !(WINDOWS as readonly string[]).includes(window));
  return [...known, ...unknown];
}
