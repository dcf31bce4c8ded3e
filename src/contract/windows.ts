// The five outcome windows of Market Events (spec: "Outcome fields exist once per window W").

/** Outcome windows, shortest first. */
export const WINDOWS = ['15m', '1h', '4h', '24h', '7d'] as const;
export type Window = (typeof WINDOWS)[number];

/** The window a study uses when none is given (event study, model, splits, and the CLI's `--window`). */
export const DEFAULT_WINDOW: Window = '1h';

/** Length of each window, in seconds. */
export const WINDOW_SECONDS: Readonly<Record<Window, number>> = {
  '15m': 15 * 60,
  '1h': 3600,
  '4h': 4 * 3600,
  '24h': 24 * 3600,
  '7d': 7 * 24 * 3600,
};

/** Candle length of the spot data behind features and outcomes, in seconds. */
export const CANDLE_SECONDS = 300;

/** Expected number of 5-minute candles in a complete window. */
export function expectedCandles(window: Window): number {
  return WINDOW_SECONDS[window] / CANDLE_SECONDS;
}

export function isWindow(value: unknown): value is Window {
  return typeof value === 'string' && (WINDOWS as readonly string[]).includes(value);
}
