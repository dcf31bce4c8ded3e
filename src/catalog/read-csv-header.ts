// The header of a csv data file, read by rdw and not by DuckDB: a one-column read of the first line made
// DuckDB detect the line ends from a sample, and a file with CRLF line ends and a line break inside a quoted
// value (what Python's csv.writer writes) stopped its CSV state machine before any row (issue 31).

import { open } from 'node:fs/promises';
import { SchemaMismatchError } from './catalog-errors.js';
import { catalogMessages } from './messages.js';

/** How far the header may reach into the file: far more than the spec's ~70 column names need. */
export const CSV_HEADER_MAX_BYTES = 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

const BYTE_ORDER_MARK = '\uFEFF';

/**
 * The first record of a CSV text (RFC 4180): up to the first CR or LF outside double quotes, without a
 * leading UTF-8 byte order mark; undefined when the text has no line end outside quotes.
 */
export function firstCsvRecord(text: string): string | undefined {
  const source = text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
  let quoted = false;
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i];
    if (char === '"') quoted = !quoted; // a doubled quote toggles twice: still inside
    else if (!quoted && (char === '\r' || char === '\n')) return source.slice(0, i);
  }
  return undefined;
}

/** The names of a csv header record (quotes removed, `""` inside quotes kept as one quote, spaces around a name dropped). */
export function csvHeaderNames(record: string): string[] {
  const names: string[] = [];
  const pattern = /\s*(?:"((?:[^"]|"")*)"|([^,]*?))\s*(?:,|$)/gy;
  for (let match = pattern.exec(record); match !== null && match.index < record.length; match = pattern.exec(record)) {
    names.push(match[1] === undefined ? match[2]! : match[1].replaceAll('""', '"'));
  }
  if (record.endsWith(',')) names.push('');
  return names;
}

/** Whether every field of a csv record is in double quotes (csv.writer's QUOTE_ALL and QUOTE_NONNUMERIC quote every name). */
export function everyFieldQuoted(record: string): boolean {
  return record.length > 0 && /^\s*"(?:[^"]|"")*"\s*(?:,\s*"(?:[^"]|"")*"\s*)*$/.test(record);
}

/** A csv file's header: its column names, and whether its producer quoted every one of them. */
export interface CsvHeader {
  names: string[];
  /**
   * Every name quoted: a writer that quotes every field (or every non-number), which writes a missing value as
   * `""` (Python's csv.writer with QUOTE_ALL or QUOTE_NONNUMERIC writes None so), so there a quoted empty
   * field is a missing value, not an empty string.
   */
  everyFieldQuoted: boolean;
}

/**
 * The header of csv file `file` of release `id`, from its first record (any of CRLF, LF or CR line ends,
 * quoted names, a UTF-8 BOM). A file that is only a header (no line end) is its header; a header reaching
 * past CSV_HEADER_MAX_BYTES is SchemaMismatchError (exit 3).
 */
export async function readCsvHeader(id: string, file: string): Promise<CsvHeader> {
  const handle = await open(file, 'r');
  try {
    // Chunk by chunk: a header is a few KiB, a csv release file hundreds.
    const chunks: Buffer[] = [];
    let size = 0;
    while (size < CSV_HEADER_MAX_BYTES) {
      const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, CSV_HEADER_MAX_BYTES - size));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, size);
      const text = Buffer.concat([...chunks, chunk.subarray(0, bytesRead)]).toString('utf8');
      const record = firstCsvRecord(text) ?? (bytesRead === 0 ? text.replace(/^\uFEFF/, '') : undefined);
      if (record !== undefined) return { names: csvHeaderNames(record), everyFieldQuoted: everyFieldQuoted(record) };
      chunks.push(chunk.subarray(0, bytesRead));
      size += bytesRead;
    }
  } finally {
    await handle.close();
  }
  throw new SchemaMismatchError(catalogMessages.csvHeaderTooLong(id, CSV_HEADER_MAX_BYTES));
}
