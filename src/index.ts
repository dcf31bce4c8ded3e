// rdw: the public library surface. Each layer's index is its only door.

export * as spec from './spec/index.js';
export {
  RdwError,
  UsageError,
  IntegrityError,
  AuthError,
  LimitError,
  NotFoundError,
  EXIT_CODES,
  MARKET_EVENT_FIELDS,
  WINDOWS,
  SYMBOLS,
} from './spec/index.js';
export type { MarketEventRow, Release, Window, MarketSymbol, FieldSpec, FieldRole } from './spec/index.js';
