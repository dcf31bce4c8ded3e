// The six fixed spot pairs of Market Events v1 (spec: "six fixed spot pairs on one spot exchange").

export const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'DOGEUSDT'] as const;
export type MarketSymbol = (typeof SYMBOLS)[number];

/** Base asset of each pair; the quote asset is always USDT. */
export const BASE_ASSET: Readonly<Record<MarketSymbol, string>> = {
  BTCUSDT: 'BTC',
  ETHUSDT: 'ETH',
  SOLUSDT: 'SOL',
  BNBUSDT: 'BNB',
  XRPUSDT: 'XRP',
  DOGEUSDT: 'DOGE',
};

export const QUOTE_ASSET = 'USDT';

/** The spot exchange behind prices and outcomes (the spec does not name it). */
export const SPOT_VENUE = 'spotex';
/** The derivatives venue giving funding and open-interest context; not the spot exchange. */
export const DERIVATIVE_VENUE = 'derivex';

export function isMarketSymbol(value: unknown): value is MarketSymbol {
  return typeof value === 'string' && (SYMBOLS as readonly string[]).includes(value);
}
