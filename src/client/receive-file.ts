// The receive step of a verified download: one request for the release file (from a byte offset with
// Range; redirects and content decoding are the transport's), its body hashed, counted and written to the
// partial file in one pass, and what a failure means for the next attempt.

import { createHash, type Hash } from 'node:crypto';
import { open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { hashFileInto } from '../base/index.js';
import { EnvironmentError, type RdwError } from '../contract/index.js';
import { AbortedError, NetworkError, SizeMismatchError, TimeoutError } from './client-errors.js';
import { discardBody } from './discard-body.js';
import type { DownloadFileOptions } from './download-file-options.js';
import type { TransportResponse } from './transport-response.js';
import { messages } from './messages.js';
import { discardPartial, type PartialFile } from './partial-file.js';

/** How one attempt ended: every byte received (to be verified), or another attempt from byte `from`. */
export type Received =
  | {
      kind: 'complete';
      /** SHA-256 state over the whole partial (kept bytes and received bytes). */
      hash: Hash;
      /** Length of the partial, in bytes. */
      bytes: number;
      /** Bytes this attempt received (the rest were kept from before). */
      received: number;
      /** The response's Content-Length, when declared on an unencoded body. */
      length: number | undefined;
    }
  /** Ask again from `from`: at once (a fresh start), or after the backoff, saying why (a broken or short body). */
  | { kind: 'again'; from: number; afterBackoff: false }
  | { kind: 'again'; from: number; afterBackoff: true; reason: string };

/**
 * Receive: one attempt at the file from byte `from` (0 = the whole file; more = `Range: bytes=<from>-`):
 * the response opened (openBody), its body written to the partial (writeBody), and what a failure means.
 * An oversize body throws SizeMismatchError and leaves nothing; a broken or short body keeps a resumable
 * partial (the server offered byte ranges and the digest is known) and asks for another attempt after a
 * backoff, unless it is not transient or `attempt` exceeds `options.maxRetries` (then it throws).
 */
export async function receiveFile(options: DownloadFileOptions, file: PartialFile, from: number, attempt: number): Promise<Received> {
  const { expected } = options;
  const opened = await openBody(options, file, from, attempt);
  if ('kind' in opened) return opened;
  const { hash, resumable, length } = opened;
  const total = expected?.bytes ?? (length === undefined ? 0 : opened.from + length);
  const { done, received, failure } = await writeBody(options, file, opened, total);

  // An oversize file is discarded; a transient failure keeps a resumable partial and asks for a retry.
  if (failure instanceof SizeMismatchError) {
    await discardPartial(file);
    throw failure;
  }
  const short = failure === undefined && expected !== undefined && done < expected.bytes;
  if (failure === undefined && !short) return { kind: 'complete', hash, bytes: done, received, length };
  const error =
    failure ?? new SizeMismatchError(messages.sizeMismatch(file.what, done, expected?.bytes ?? 0), { expected: expected?.bytes ?? 0, actual: done });
  // A passed total deadline is not retried within the call (the server trickles); a resumable partial stays.
  const transient = short || error instanceof NetworkError || (error instanceof TimeoutError && error.phase !== 'total');
  // A full disk or a refused folder is not resumed later: the partial goes too (nothing half-written stays).
  if (!resumable || done === 0 || error instanceof EnvironmentError) await discardPartial(file);
  if (!transient || error instanceof AbortedError || attempt > options.maxRetries) throw error;
  return { kind: 'again', from: resumable ? done : 0, afterBackoff: true, reason: messages.bodyBrokeOff(done, expected?.bytes) };
}

/** A response whose body is to be written to the partial, opened for writing from byte `from`. */
interface OpenBody {
  response: TransportResponse;
  handle: FileHandle;
  /** SHA-256 state fed with the partial's first `from` bytes. */
  hash: Hash;
  from: number;
  /** Whether a broken body leaves a partial the next attempt (or call) may resume. */
  resumable: boolean;
  /** The response's Content-Length, when declared on an unencoded body. */
  length: number | undefined;
}

/**
 * The partial prepared before sending (hash of the kept bytes, sidecar, open handle: the body is read as
 * soon as it arrives), then the request. A 416, or a 206 that starts elsewhere or arrives encoded, starts
 * over from byte 0 (a SizeMismatchError once retries are used up); a 200 to a Range restarts the partial
 * from byte 0; a Content-Length beyond the expected size throws SizeMismatchError and leaves nothing.
 */
async function openBody(options: DownloadFileOptions, file: PartialFile, from: number, attempt: number): Promise<OpenBody | Received> {
  const { transport, expected } = options;
  await options.beforeSend?.(expected === undefined ? undefined : expected.bytes - from);
  let hash = createHash('sha256');
  if (from > 0) await hashFileInto(hash, file.path);
  if (file.sidecar !== undefined) await writeFile(file.sidecarPath, `${JSON.stringify(file.sidecar)}\n`);
  const handle = await open(file.path, from > 0 ? 'a' : 'w');
  let response: TransportResponse;
  try {
    const headers: Record<string, string> = from > 0 ? { range: `bytes=${from}-` } : {};
    response = await transport.send({ ...options.request, headers, passStatuses: [416], identity: true });
  } catch (error) {
    await handle.close();
    if (from === 0) await discardPartial(file);
    throw error;
  }
  const leaveNothing = async () => {
    await discardBody(response.body);
    await handle.close();
    await discardPartial(file);
  };
  const startOver = async (): Promise<Received> => {
    await leaveNothing();
    if (attempt > options.maxRetries) {
      throw new SizeMismatchError(messages.sizeMismatch(file.what, 0, expected?.bytes ?? 0), { expected: expected?.bytes ?? 0, actual: 0 });
    }
    return { kind: 'again', from: 0, afterBackoff: false };
  };
  if (response.statusCode === 416) return startOver();
  // A content-encoded 206 (asked for identity, got gzip anyway) cannot be joined to the partial: start over.
  const start = response.statusCode === 206 ? (response.encoded ? -1 : contentRangeStart(response)) : 0;
  if (start !== from) {
    // A range that starts elsewhere: start over. A 200 to a Range request: keep reading, from byte 0.
    if (start !== 0) return startOver();
    from = 0;
    await handle.truncate(0);
    hash = createHash('sha256');
  }
  // Byte ranges are of the wire bytes: a content-encoded body is not resumable (it restarts from 0).
  const resumable = file.sidecar !== undefined && !response.encoded && /bytes/i.test(String(response.headers['accept-ranges'] ?? ''));
  if (!resumable) await rm(file.sidecarPath, { force: true });
  const length = headerNumber(response.headers['content-length']);
  if (expected !== undefined && length !== undefined && from + length > expected.bytes) {
    await leaveNothing();
    // Nothing received yet: the API announced more bytes than the manifest says (said as such, not as a count received).
    throw new SizeMismatchError(messages.announcedSizeMismatch(file.what, from + length, expected.bytes), { expected: expected.bytes, actual: from + length });
  }
  return { response, handle, hash, from, resumable, length };
}

/**
 * The one pass over a body: each chunk hashed, written to the partial and counted, progress reported;
 * then fsync. A chunk that would pass the expected size stops it (SizeMismatchError); a stream failure
 * becomes its typed error. Always closes the handle and records the bytes received.
 */
async function writeBody(
  options: DownloadFileOptions,
  file: PartialFile,
  { response, handle, hash, from }: OpenBody,
  total: number,
): Promise<{ done: number; received: number; failure: RdwError | undefined }> {
  const { expected } = options;
  let done = from;
  let received = 0;
  let failure: RdwError | undefined;
  try {
    options.onProgress?.(done, total);
    for await (const chunk of response.body) {
      const bytes = chunk as Buffer;
      if (expected !== undefined && done + bytes.length > expected.bytes) {
        const actual = done + bytes.length;
        failure = new SizeMismatchError(messages.sizeMismatch(file.what, actual, expected.bytes), { expected: expected.bytes, actual });
        break;
      }
      hash.update(bytes);
      await writeAll(handle, bytes);
      done += bytes.length;
      received += bytes.length;
      options.onProgress?.(done, total);
    }
    await handle.sync();
  } catch (error) {
    failure = options.transport.mapError(error, new URL(options.request.url).pathname);
  } finally {
    response.deadline.done();
    await handle.close();
    if (failure !== undefined) await discardBody(response.body);
    await options.onBytes?.(received);
  }
  return { done, received, failure };
}

async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}

function headerNumber(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || !/^\d+$/.test(text) ? undefined : Number(text);
}

function contentRangeStart(response: TransportResponse): number {
  const value = response.headers['content-range'];
  const text = Array.isArray(value) ? value[0] : value;
  const match = text === undefined ? null : /^bytes\s+(\d+)-\d+\/(\d+|\*)$/.exec(text.trim());
  return match === null ? -1 : Number(match[1]);
}
