// A verified download in three steps: resume (where to start, from a leftover partial and its sidecar),
// receive (stream to `<dest>.partial`, hashing and counting in one pass; receive-file.ts) and verify (size
// and SHA-256, then rename to `dest`). Never leaves unverified bytes at `dest`. A resumed file that fails its
// check is fetched once more from byte 0 (the kept part may be what was corrupt). An ETag is never taken as
// a checksum (it may hash anything); a content-encoded body is never resumed.

import { createHash, type Hash } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { hashFileInto, makeFolder } from '../base/index.js';
import type { FileDigest } from '../contract/index.js';
import { ChecksumMismatchError, SizeMismatchError } from './client-errors.js';
import type { DownloadFileOptions } from './download-file-options.js';
import { messages } from './messages.js';
import { discardPartial, partialFile, readSidecar, sameSidecar, type PartialFile } from './partial-file.js';
import { receiveFile } from './receive-file.js';

/** What the received bytes are checked against: the expected digest, or only a length the server declared. */
type Reference = { sha256?: string; bytes?: number };

/** Downloads one release file to `dest`, verified; returns its digest. */
export async function downloadFile(options: DownloadFileOptions): Promise<FileDigest> {
  const file = partialFile(options.dest, options.releaseId, options.format, options.expected);
  await makeFolder(dirname(file.dest));
  // 1. Resume: from a leftover partial's end, or byte 0; a complete verified leftover is placed at once.
  const resumed = await resume(file);
  if (typeof resumed !== 'number') return resumed;
  let from = resumed;
  let restartedFromZero = false;
  for (let attempt = 1; ; attempt += 1) {
    // 2. Receive: one request, the body streamed to the partial; a broken or short one asks for another attempt.
    const received = await receiveFile(options, file, from, attempt);
    if (received.kind === 'again') {
      from = received.from;
      if (received.afterBackoff) {
        const delayMs = options.backoffMs(attempt);
        // A wait a person would notice is said, as the transport says its own retries.
        if (delayMs >= 1000) options.onRetryWait?.({ reason: received.reason, delayMs, retry: attempt });
        await options.clock.sleep(delayMs);
      }
      continue;
    }
    // 3. Verify against the expected digest (without one: the Content-Length of an unencoded body), then rename.
    const reference = options.expected ?? (received.length === undefined ? undefined : { bytes: received.length });
    try {
      return await verify(file, reference, received.hash, received.bytes);
    } catch (error) {
      // A resumed partial whose whole fails may hold corrupt bytes of its own (a disk, an earlier run):
      // verify removed it; bytes joined to a kept partial get one fresh try from byte 0 within this call.
      const joined = received.bytes > received.received;
      if (!joined || restartedFromZero || !isIntegrityMismatch(error)) throw error;
      restartedFromZero = true;
      from = 0;
    }
  }
}

/**
 * Resume: the byte to start from. A leftover partial is kept only when its sidecar names this exact file
 * (release ID, format, digest, size): shorter than expected ⇒ its length (the Range to ask for); as long
 * as expected ⇒ verified and placed with no request (its digest returned; a mismatch removes it and the
 * download starts at 0). Any other leftover (no or another sidecar, too long) is removed: 0.
 */
async function resume(file: PartialFile): Promise<number | FileDigest> {
  const { sidecar } = file;
  const previous = await readSidecar(file.sidecarPath);
  const size = (await stat(file.path).catch(() => undefined))?.size;
  if (sidecar !== undefined && previous !== undefined && sameSidecar(previous, sidecar) && size !== undefined) {
    if (size < sidecar.bytes) return size;
    if (size === sidecar.bytes) {
      const hash = createHash('sha256');
      const bytes = await hashFileInto(hash, file.path);
      try {
        return await verify(file, sidecar, hash, bytes);
      } catch (error) {
        if (isIntegrityMismatch(error)) return 0;
        throw error;
      }
    }
    await discardPartial(file);
  } else if (size !== undefined || previous !== undefined) await discardPartial(file);
  return 0;
}

/**
 * Verify: the partial's length `bytes` and SHA-256 (`hash`, fed with all of it) against `reference`, then
 * the partial renamed to `dest` and its sidecar removed. A mismatch removes the partial and its sidecar and
 * throws SizeMismatchError or ChecksumMismatchError (IntegrityError, exit 3). Without a reference nothing is compared.
 */
async function verify(file: PartialFile, reference: Reference | undefined, hash: Hash, bytes: number): Promise<FileDigest> {
  const sha256 = hash.digest('hex');
  if (reference?.bytes !== undefined && bytes !== reference.bytes) {
    await discardPartial(file);
    throw new SizeMismatchError(messages.sizeMismatch(file.what, bytes, reference.bytes), { expected: reference.bytes, actual: bytes });
  }
  if (reference?.sha256 !== undefined && sha256 !== reference.sha256) {
    await discardPartial(file);
    throw new ChecksumMismatchError(messages.checksumMismatch(file.what, sha256, reference.sha256), {
      expected: reference.sha256,
      actual: sha256,
    });
  }
  await rename(file.path, file.dest);
  await rm(file.sidecarPath, { force: true });
  return { sha256, bytes };
}

function isIntegrityMismatch(error: unknown): boolean {
  return error instanceof ChecksumMismatchError || error instanceof SizeMismatchError;
}
