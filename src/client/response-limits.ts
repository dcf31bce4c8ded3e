// How many bytes of one response rdw holds in memory, by what the response is: a JSON document, a page
// of rows, a CSV table. Counted after decoding (a gzip bomb is bounded by what it inflates to). Release
// files streamed to disk are bounded by the manifest's `bytes` instead (receive-file.ts).

/** What a response read into memory is, for its size limit. */
export type ResponseKind = 'document' | 'rows' | 'csv';

/** Largest decoded size, in bytes, of each kind of response read into memory. */
export type ResponseLimits = Record<ResponseKind, number>;

const MiB = 1024 * 1024;

/**
 * Defaults, each far above what the spec's documents hold and far below what would strain memory:
 * a JSON document (catalog, schema, a listing of at most 100 releases, a manifest, a research snapshot or
 * live page) 8 MiB; a `/rows` page (at most 500 rows) 32 MiB; a research or live CSV table 32 MiB.
 */
export const DEFAULT_RESPONSE_LIMITS: Readonly<ResponseLimits> = { document: 8 * MiB, rows: 32 * MiB, csv: 32 * MiB };

/** Words for a kind, in a sentence ("a JSON document"). */
export const RESPONSE_KIND_WORDS: Readonly<Record<ResponseKind, string>> = {
  document: 'a JSON document',
  rows: 'a page of rows',
  csv: 'a CSV table',
};
