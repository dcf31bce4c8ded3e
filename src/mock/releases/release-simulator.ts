// What the release archive needs of the market simulator: its clock options and a day's rows as of a time.

import type { MarketSimulator } from '../simulator/index.js';

/**
 * The part of `MarketSimulator` the archive uses: `options` (now, schemaSince), `days()`, and
 * `dayContent(day, asOf)` (a day's rows as of a check and when they last changed).
 */
export type ReleaseSimulator = Pick<MarketSimulator, 'options' | 'days' | 'dayContent'>;
