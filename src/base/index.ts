// src/base: small shared primitives that know nothing of the API (seeded random, SHA-256, SQL quoting,
// text patterns, a bounded cache, text-table/CSV/HTML writers, makeFolder). Imports nothing of ours; every layer
// may import it.

export { seededRandom } from './seeded-random.js';
export { RandomStream, randomStream } from './random-stream.js';
export { sha256Hex, sha256Digest, hashFile, hashFileInto } from './sha256.js';
export type { Sha256Digest } from './sha256.js';
export { quoteIdentifier, quoteLiteral } from './sql-text.js';
export { DAY_PATTERN, SHA256_HEX_PATTERN } from './patterns.js';
export { BoundedCache } from './bounded-cache.js';
export type { BoundedCacheOptions, EvictionOrder } from './bounded-cache.js';
export { textTableLines } from './text-table.js';
export type { TextTableOptions } from './text-table.js';
export { csvField, formatCsv } from './csv-text.js';
export type { CsvOptions } from './csv-text.js';
export { escapeHtml } from './html-text.js';
export { makeFolder } from './make-folder.js';
