// A verified download: streams to `<dest>.partial` while hashing and counting in one pass, fsyncs, checks
// SHA-256 and size, and only then renames to `dest`. Resumes a partial with Range when a sidecar
// `<dest>.partial.json` proves it belongs to the same release file; never leaves unverified bytes at `dest`.
// A resumed file that fails its check is fetched once more from byte 0 (the kept part may be what was corrupt).
// An ETag is never taken as a checksum (it may hash anything); a content-encoded body is never resumed.

import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { EnvironmentError, type DownloadFormat, type FileDigest, type RdwError } from '../contract/index.js';
import { discardBody } from './discard-body.js';
import { AbortedError, ChecksumMismatchError, NetworkError, SizeMismatchError, TimeoutError } from './client-errors.js';
import type { Clock } from './clock.js';
import type { HttpTransport, TransportRequest, TransportResponse } from './http-transport.js';
import { messages } from './messages.js';

/** What the sidecar records: a partial is resumed only when all of it matches. */
interface PartialSidecar {
  releaseId: string;
  format: DownloadFormat;
  sha256: string;
  bytes: number;
}

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
  backoffMs: (attempt: number) => number;
  /** Called with the bytes still to fetch, before each request is sent (the byte-budget check). */
  beforeSend?: (bytesNeeded: number | undefined) => Promise<void>;
  /** Called with the bytes received by each attempt. */
  onBytes?: (bytes: number) => Promise<void>;
  onProgress?: (done: number, total: number) => void;
}

/** What the received bytes are checked against: the expected digest, or only a length the server declared. */
type Reference = { sha256?: string; bytes?: number };

const sameSidecar = (a: PartialSidecar, b: PartialSidecar): boolean =>
  a.releaseId === b.releaseId && a.format === b.format && a.sha256 === b.sha256 && a.bytes === b.bytes;

async function readSidecar(path: string): Promise<PartialSidecar | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as PartialSidecar;
  } catch {
    return undefined;
  }
}

async function hashFile(path: string, hash: Hash): Promise<number> {
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return bytes;
}

const headerNumber = (value: string | string[] | undefined): number | undefined => {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || !/^\d+$/.test(text) ? undefined : Number(text);
};

/** Downloads one release file to `dest`, verified; returns its digest. */
export async function downloadFile(options: DownloadFileOptions): Promise<FileDigest> {
  const { transport, releaseId, format, dest, expected } = options;
  const partial = `${dest}.partial`;
  const sidecarPath = `${partial}.json`;
  const what = `The ${format} file of release ${releaseId.slice(0, 12)}…`;
  const sidecar: PartialSidecar | undefined =
    expected === undefined ? undefined : { releaseId, format, sha256: expected.sha256, bytes: expected.bytes };
  const discard = async () => {
    await rm(partial, { force: true });
    await rm(sidecarPath, { force: true });
  };
  await mkdir(dirname(dest), { recursive: true });

  // 1. A leftover partial is kept only when its sidecar names this exact file and it is not too long.
  let resumeFrom = 0;
  // A resumed partial whose whole fails its check may hold corrupt bytes of its own (a disk, an earlier
  // run): it is discarded and the file fetched once more from byte 0 within this call.
  let restartedFromZero = false;
  const previous = await readSidecar(sidecarPath);
  const partialSize = (await stat(partial).catch(() => undefined))?.size;
  if (sidecar !== undefined && previous !== undefined && sameSidecar(previous, sidecar) && partialSize !== undefined) {
    if (partialSize < sidecar.bytes) resumeFrom = partialSize;
    else if (partialSize === sidecar.bytes) {
      const digest = await verifyAndPlace(partial, sidecarPath, dest, sidecar, what, createHash('sha256'), partialSize, 0);
      if (digest !== undefined) return digest;
    } else await discard();
  } else if (partialSize !== undefined || previous !== undefined) await discard();

  for (let attempt = 1; ; attempt += 1) {
    // 2. Budget check; prepare the partial (hash of the kept bytes, sidecar, open handle) before sending,
    //    so the body is read as soon as it arrives; then the request (Range when resuming).
    await options.beforeSend?.(expected === undefined ? undefined : expected.bytes - resumeFrom);
    let hash = createHash('sha256');
    if (resumeFrom > 0) await hashFile(partial, hash);
    if (sidecar !== undefined) await writeFile(sidecarPath, `${JSON.stringify(sidecar)}\n`);
    const handle = await open(partial, resumeFrom > 0 ? 'a' : 'w');
    let response: TransportResponse;
    try {
      response = await transport.send({
        ...options.request,
        headers: resumeFrom > 0 ? { range: `bytes=${resumeFrom}-` } : {},
        passStatuses: [416],
        identity: true,
      });
    } catch (error) {
      await handle.close();
      if (resumeFrom === 0) await discard();
      throw error;
    }
    const restart = async () => {
      await discardBody(response.body);
      await handle.close();
      await discard();
      resumeFrom = 0;
      if (attempt > options.maxRetries) {
        throw new SizeMismatchError(messages.sizeMismatch(what, 0, expected?.bytes ?? 0), { expected: expected?.bytes ?? 0, actual: 0 });
      }
    };
    if (response.statusCode === 416) {
      await restart();
      continue;
    }
    // A content-encoded 206 (asked for identity, got gzip anyway) cannot be joined to the partial: start over.
    const start = response.statusCode === 206 ? (response.encoded ? -1 : contentRangeStart(response)) : 0;
    if (start !== resumeFrom) {
      // A range that starts elsewhere: start over. A 200 to a Range request: keep reading, from byte 0.
      if (start !== 0) {
        await restart();
        continue;
      }
      resumeFrom = 0;
      await handle.truncate(0);
      hash = createHash('sha256');
    }
    // Byte ranges are of the wire bytes: a content-encoded body is not resumable (it restarts from 0).
    const resumable = sidecar !== undefined && !response.encoded && /bytes/i.test(String(response.headers['accept-ranges'] ?? ''));
    if (!resumable) await rm(sidecarPath, { force: true });
    const length = headerNumber(response.headers['content-length']);
    const total = expected?.bytes ?? (length === undefined ? 0 : resumeFrom + length);
    if (expected !== undefined && length !== undefined && resumeFrom + length > expected.bytes) {
      await discardBody(response.body);
      await handle.close();
      await discard();
      throw new SizeMismatchError(messages.sizeMismatch(what, resumeFrom + length, expected.bytes), {
        expected: expected.bytes,
        actual: resumeFrom + length,
      });
    }

    // 3. One pass: hash, count and write.
    let done = resumeFrom;
    let received = 0;
    let failure: RdwError | undefined;
    try {
      options.onProgress?.(done, total);
      for await (const chunk of response.body) {
        const bytes = chunk as Buffer;
        if (expected !== undefined && done + bytes.length > expected.bytes) {
          failure = new SizeMismatchError(messages.sizeMismatch(what, done + bytes.length, expected.bytes), {
            expected: expected.bytes,
            actual: done + bytes.length,
          });
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
      failure = transport.mapError(error, new URL(options.request.url).pathname);
    } finally {
      await handle.close();
      if (failure !== undefined) await discardBody(response.body);
      await options.onBytes?.(received);
    }

    // 4. Failures: an oversize file is discarded; a transient failure keeps a resumable partial and retries.
    if (failure instanceof SizeMismatchError) {
      await discard();
      throw failure;
    }
    const short = failure === undefined && expected !== undefined && done < expected.bytes;
    if (failure !== undefined || short) {
      const error =
        failure ??
        new SizeMismatchError(messages.sizeMismatch(what, done, expected?.bytes ?? 0), { expected: expected?.bytes ?? 0, actual: done });
      const transient = short || error instanceof NetworkError || error instanceof TimeoutError;
      // A full disk or a refused folder is not resumed later: the partial goes too (nothing half-written stays).
      if (!resumable || done === 0 || error instanceof EnvironmentError) await discard();
      if (!transient || error instanceof AbortedError || attempt > options.maxRetries) throw error;
      resumeFrom = resumable ? done : 0;
      await options.clock.sleep(options.backoffMs(attempt));
      continue;
    }

    // 5. Verify against the expected digest (without one: the Content-Length of an unencoded body), then rename.
    const reference: Reference | undefined = expected ?? (length === undefined ? undefined : { bytes: length });
    let digest: FileDigest | undefined;
    try {
      digest = await verifyAndPlace(partial, sidecarPath, dest, reference, what, hash, done, -1);
    } catch (error) {
      // verifyAndPlace removed the partial and its sidecar; bytes joined to a kept partial get one fresh try.
      const joined = done > received;
      if (!joined || restartedFromZero || !(error instanceof ChecksumMismatchError || error instanceof SizeMismatchError)) throw error;
      restartedFromZero = true;
      resumeFrom = 0;
      continue;
    }
    if (digest === undefined) throw new Error('unreachable: verifyAndPlace returns a digest when not probing');
    return digest;
  }
}

/**
 * Verifies the finished partial and renames it to dest. With `probe` 0 (a leftover full-size partial),
 * a mismatch discards it and returns undefined so the caller downloads again; otherwise a mismatch throws.
 */
async function verifyAndPlace(
  partial: string,
  sidecarPath: string,
  dest: string,
  reference: Reference | undefined,
  what: string,
  hash: Hash,
  bytes: number,
  probe: 0 | -1,
): Promise<FileDigest | undefined> {
  if (probe === 0) bytes = await hashFile(partial, hash);
  const sha256 = hash.digest('hex');
  const fail = async (error: RdwError) => {
    await rm(partial, { force: true });
    await rm(sidecarPath, { force: true });
    if (probe === 0) return undefined;
    throw error;
  };
  if (reference?.bytes !== undefined && bytes !== reference.bytes) {
    return fail(new SizeMismatchError(messages.sizeMismatch(what, bytes, reference.bytes), { expected: reference.bytes, actual: bytes }));
  }
  if (reference?.sha256 !== undefined && sha256 !== reference.sha256) {
    return fail(
      new ChecksumMismatchError(messages.checksumMismatch(what, sha256, reference.sha256), { expected: reference.sha256, actual: sha256 }),
    );
  }
  await rename(partial, dest);
  await rm(sidecarPath, { force: true });
  return { sha256, bytes };
}

async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}

function contentRangeStart(response: TransportResponse): number {
  const value = response.headers['content-range'];
  const text = Array.isArray(value) ? value[0] : value;
  const match = text === undefined ? null : /^bytes\s+(\d+)-\d+\/(\d+|\*)$/.exec(text.trim());
  return match === null ? -1 : Number(match[1]);
}
