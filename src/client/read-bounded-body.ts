// Reads a response body into memory up to a byte limit (decoded bytes: a gzip bomb counts what it
// inflates to), dropping the connection as soon as the limit is passed, so memory stays near the limit
// whatever the server sends: a 1 GiB body, an endless chunked one, 1 MB that inflates to 1 GiB.

import type { RdwError } from '../contract/index.js';
import type { ResponseBody } from './transport-response.js';
import { discardBody } from './discard-body.js';

/** How much of a body may be read, and what passing it is. */
export interface BodyBound {
  /** Most bytes read; one more stops the reading. */
  limit: number;
  /** The body's declared length (Content-Length of an unencoded body), when known: above `limit` it is refused unread. */
  declared?: number | undefined;
  /** The error thrown once the limit is passed; `seen` is how many bytes had been read (or declared). */
  tooLarge: (seen: number) => RdwError;
}

/** A Content-Length in bytes (BodyBound.declared), or undefined when absent or not a number. */
export function declaredBytes(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || !/^\d+$/.test(text) ? undefined : Number(text);
}

/**
 * The whole body as one Buffer, or `bound.tooLarge` thrown (the body dropped, nothing more read) when it
 * declares or delivers more than `bound.limit` bytes. Stream failures are thrown as they are (the caller maps them).
 */
export async function readBoundedBody(body: ResponseBody, bound: BodyBound): Promise<Buffer> {
  // The stream's own abort error after an early stop must not escape as an uncaught 'error' event.
  body.on('error', () => {});
  if (bound.declared !== undefined && bound.declared > bound.limit) {
    await discardBody(body);
    throw bound.tooLarge(bound.declared);
  }
  const chunks: Buffer[] = [];
  let seen = 0;
  for await (const chunk of body) {
    const bytes = chunk as Buffer;
    seen += bytes.length;
    // Leaving the loop ends the iteration, which destroys the stream (a dump inside it would wait for data
    // that a paused iterator never lets flow: an endless body hung there).
    if (seen > bound.limit) break;
    chunks.push(bytes);
  }
  if (seen > bound.limit) {
    chunks.length = 0;
    await discardBody(body);
    throw bound.tooLarge(seen);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, seen);
}
