// What the research snapshots need of the market simulator: candles and derivative observations per day.

import type { Candle, DerivativeObservation, MarketSimulator } from '../simulator/index.js';

/** A 5-minute spot candle (the simulator's `Candle`). */
export type ResearchCandle = Candle;

/** A derivatives-venue observation bucket (the simulator's `DerivativeObservation`). */
export type ResearchDerivativeObservation = DerivativeObservation;

/** The part of `MarketSimulator` the research snapshots use. */
export type ResearchSimulator = Pick<MarketSimulator, 'options' | 'candles' | 'derivativeObservations'>;
