// What one verified download is given (downloadFile, receiveFile): the transport and request, the file's
// destination and expected digest, retries, and the byte-budget and progress callbacks.

import type { DownloadFormat, FileDigest } from '../contract/index.js';
import type { Clock } from './clock.js';
import type { HttpTransport } from './http-transport.js';
import type { TransportRequest } from './transport-request.js';

/** The options of downloadFile. */
export interface DownloadFileOptions {
  transport: HttpTransport;
  /** The request to send (URL, limiter, auth); Range is added here. */
  request: Omit<TransportRequest, 'headers' | 'passStatuses'>;
  releaseId: string;
  format: DownloadFormat;
  dest: string;
  /** Expected digest; without it only the Content-Length of an unencoded body is checked (never the ETag). */
  expected: FileDigest | undefined;
  clock: Clock;
  /** Extra attempts after a body failure or a short body, each resuming when possible. */
  maxRetries: number;
  /** Wait before attempt `attempt + 1`, in ms. */
  backoffMs: (attempt: number) => number;
  /** Called with the bytes still to fetch, before each request is sent (the byte-budget check). */
  beforeSend?: (bytesNeeded: number | undefined) => Promise<void>;
  /** Called with the bytes received by each attempt. */
  onBytes?: (bytes: number) => Promise<void>;
  onProgress?: (done: number, total: number) => void;
  /** Told before a wait of 1 s or more between attempts (a broken or short body): why, how long, which retry. */
  onRetryWait?: (wait: { reason: string; delayMs: number; retry: number }) => void;
}
