// A response as the transport hands it back: status, headers and a body the caller must read or discard. Its own
// file so the transport and the body readers (decode-body.ts, discard-body.ts …) import it without a circle.

import type { RequestDeadline } from './request-deadline.js';

/**
 * A response body as the client reads it: undici's body, or the decoded stream with the same methods.
 * Read by iterating (read-bounded-body.ts holds a whole one within its size limit): no unbounded text()/arrayBuffer().
 */
export interface ResponseBody extends AsyncIterable<unknown> {
  /** Reads and drops the rest (or tears the stream down); see discardBody. */
  dump(): Promise<void>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/** A response whose body the caller must consume (or discard). */
export interface TransportResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body, decoded when it was content-encoded. */
  body: ResponseBody;
  /**
   * True when the body was content-encoded on the wire and is decoded here: its length and byte offsets
   * are not those of the wire (Content-Length is removed from `headers`; a Range does not apply to it).
   */
  encoded: boolean;
  /** This attempt's total deadline: already running; done when the body has been read or dropped. */
  deadline: RequestDeadline;
  /**
   * True when a redirect led to another origin and the key was therefore not sent there: a 401 from it says
   * nothing about the key.
   */
  keyWithheld: boolean;
}
