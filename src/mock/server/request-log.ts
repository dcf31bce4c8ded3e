// The mock's request log for tests: one entry per answered request, bounded, never holding a key.

import { API_KEY_PREFIX } from '../../contract/index.js';

export interface RequestLogEntry {
  readonly method: string;
  /** Path and query as requested, with anything key-like replaced by `[redacted]`. */
  readonly path: string;
  readonly status: number;
  /** Body bytes handed to the socket. */
  readonly bytes: number;
  /** Account ID of an accepted key. */
  readonly account?: string;
  /** Whether an Authorization header was sent (never its value). */
  readonly auth: boolean;
  /** The Range header, when sent. */
  readonly range?: string;
}

const KEY_IN_TEXT = new RegExp(`${API_KEY_PREFIX}[^&/?#]*`, 'g');
const KEY_PARAMETER = /([?&](?:key|api_key|apikey|api-key|token|access_token|auth|authorization|bearer|secret|password)=)[^&]*/gi;

/** `url` with every key-like value replaced. */
export function redactUrl(url: string): string {
  return url.replace(KEY_IN_TEXT, `${API_KEY_PREFIX}[redacted]`).replace(KEY_PARAMETER, '$1[redacted]');
}

/** A bounded log: when `limit` is reached the oldest tenth drops (amortized O(1) appends). */
export class RequestLog {
  readonly entries: RequestLogEntry[] = [];

  constructor(readonly limit: number) {}

  push(entry: RequestLogEntry): void {
    if (this.limit === 0) return;
    if (this.entries.length >= this.limit) this.entries.splice(0, Math.max(1, Math.ceil(this.limit / 10)));
    this.entries.push(entry);
  }
}
