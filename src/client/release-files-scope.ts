// The paid Market Events scope's release files: the manifest (verified, cached per client), the bundled
// schema and verified downloads of any format.

import { parseJsonText, sha256Hex } from '../base/index.js';
import { UsageError, releaseWithoutNulls, withLowerCaseDigests, withoutNullMembers, type DownloadFormat, type FileDigest, type Release, type SchemaDocument } from '../contract/index.js';
import { checkFormat, checkReleaseId } from './check-input.js';
import { ApiNotFoundError, ChecksumMismatchError, ManifestMismatchError, SizeMismatchError, UnexpectedResponseError } from './client-errors.js';
import type { ClientCore } from './client-core.js';
import type { ManifestResult, RdwClient } from './client-types.js';
import { downloadFile } from './download-file.js';
import { displayPath } from './http-transport.js';
import { messages } from './messages.js';

/** The release-file methods of RdwClient. */
export type ReleaseFilesScope = Pick<RdwClient, 'manifest' | 'bundledSchema' | 'download'>;

/** The release files of one client: `/download/<id>/manifest`, `/download/<id>/schema` and `/download/<id>/<format>`. */
export function releaseFilesScope(core: ClientCore): ReleaseFilesScope {
  /** Verified manifests by release ID (releases are immutable); a failed fetch is forgotten. */
  const manifests = new Map<string, Promise<ManifestResult>>();

  const manifest = (releaseId: string): Promise<ManifestResult> => {
    checkReleaseId(releaseId);
    let pending = manifests.get(releaseId);
    if (pending === undefined) {
      pending = fetchManifest(core, releaseId);
      manifests.set(releaseId, pending);
      pending.catch(() => manifests.delete(releaseId));
    }
    return pending;
  };

  return {
    manifest,

    async bundledSchema(releaseId) {
      const { release } = await manifest(releaseId);
      const expected = release.files?.schema;
      if (expected === undefined) return undefined;
      let bytes: Uint8Array;
      try {
        bytes = await fetchFileBytes(core, releaseId, 'schema', expected);
      } catch (error) {
        if (error instanceof ApiNotFoundError) return undefined;
        throw error;
      }
      const sha256 = sha256Hex(bytes);
      return { document: parseJson<SchemaDocument>(bytes, `/download/${releaseId}/schema`), bytes, sha256 };
    },

    async download(releaseId, format, dest, options = {}) {
      checkReleaseId(releaseId);
      checkFormat(format);
      if (typeof dest !== 'string' || dest === '') throw new UsageError(messages.badOption('dest', 'a file path'), { option: 'dest' });
      core.requireKey('A Market Events download');
      await core.limits.ensure();
      let expected = options.expected;
      if (expected === undefined) {
        if (format === 'manifest') {
          // Nothing names the manifest's digest before it is read: a manifest this client already verified does.
          const cached = manifests.get(releaseId);
          if (cached !== undefined) {
            const known = await cached;
            expected = { sha256: known.sha256, bytes: known.bytes.length };
          }
        } else {
          const { release } = await manifest(releaseId);
          expected = release.files?.[format];
          if (expected === undefined) throw new ApiNotFoundError(messages.noBundledSchemaFile(releaseId));
        }
      }
      const { retry, clock, timeouts } = core.options;
      return downloadFile({
        transport: core.transport,
        request: core.request(core.apiUrl(`/download/${encodeURIComponent(releaseId)}/${format}`), {
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          // The deadline grows with the file (a floor of 64 KiB/s); a caller's progress callback shows the wait
          // (a bar), else the wait is said every 10 s like any answer still coming.
          deadlineMs: downloadDeadlineMs(timeouts.totalMs, expected?.bytes),
          ...(options.onProgress === undefined ? {} : { announceBody: false }),
        }),
        releaseId,
        format,
        dest,
        expected,
        clock,
        maxRetries: retry.maxRetries,
        backoffMs: (attempt) => retry.baseDelayMs * 2 ** (attempt - 1) + Math.floor(retry.random() * retry.jitterMs),
        beforeSend: (needed) => core.limits.checkBudget(`the ${format} file of release ${releaseId.slice(0, 12)}…`, needed),
        onBytes: (bytes) => core.budget.record(bytes),
        onRetryWait: ({ reason, delayMs, retry: attempt }) =>
          core.notify({ kind: 'retry_wait', message: messages.retryWait(displayPath(core.apiUrl(`/download/${encodeURIComponent(releaseId)}/${format}`)), reason, delayMs, attempt, retry.maxRetries), waitMs: delayMs }),
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      });
    },
  };
}

/** Bytes per second below which a release file download is given up (its deadline's floor rate). */
export const DOWNLOAD_FLOOR_BYTES_PER_SECOND = 64 * 1024;

/** The total deadline of one download attempt: `totalMs` plus a second per 64 KiB expected (the whole file when unknown: `totalMs`). */
export function downloadDeadlineMs(totalMs: number, bytes: number | undefined): number {
  return totalMs + Math.ceil(((bytes ?? 0) / DOWNLOAD_FLOOR_BYTES_PER_SECOND) * 1000);
}

/** The manifest of `releaseId`: its bytes, their SHA-256 and the release object, which must name this release. */
async function fetchManifest(core: ClientCore, releaseId: string): Promise<ManifestResult> {
  await core.limits.ensure();
  const bytes = await fetchFileBytes(core, releaseId, 'manifest', undefined);
  return manifestFromBytes(releaseId, bytes);
}

/**
 * A manifest read as the client reads `/download/<id>/manifest`: the release object of `bytes` (which must
 * name `releaseId`), the bytes and their SHA-256. Also what reads a manifest kept elsewhere (the team store).
 */
export function manifestFromBytes(releaseId: string, bytes: Uint8Array): ManifestResult {
  const sha256 = sha256Hex(bytes);
  const release = manifestRelease(parseJson<unknown>(bytes, `/download/${releaseId}/manifest`));
  if (typeof release?.id !== 'string' || typeof release.files !== 'object' || release.files === null) {
    throw new UnexpectedResponseError(messages.badResponseBody(`/download/${releaseId}/manifest`));
  }
  if (release.id !== releaseId) throw new ManifestMismatchError(messages.manifestMismatch(releaseId, release.id));
  return { release, bytes, sha256 };
}

/**
 * A small release file into memory, verified against `expected`; without it (the manifest: nothing names
 * its digest before it is read) only against the Content-Length of an unencoded body. An ETag is never
 * taken as a checksum (a server may hash anything into it): the manifest's checksum is the SHA-256 of
 * the manifest bytes received.
 */
async function fetchFileBytes(core: ClientCore, releaseId: string, format: DownloadFormat, expected: FileDigest | undefined): Promise<Uint8Array> {
  const what = `the ${format} file of release ${releaseId.slice(0, 12)}…`;
  await core.limits.checkBudget(what, expected?.bytes);
  const url = core.apiUrl(`/download/${encodeURIComponent(releaseId)}/${format}`);
  const response = await core.transport.send(core.request(url, { identity: true }));
  const label = `The ${format} file of release ${releaseId.slice(0, 12)}…`;
  // Read no further than the manifest's size for the file (then it is the wrong file), nor than a document's limit.
  const within =
    expected === undefined
      ? undefined
      : { bytes: expected.bytes, tooLarge: (seen: number) => new SizeMismatchError(messages.sizeMismatch(label, seen, expected.bytes), { expected: expected.bytes, actual: seen }) };
  const bytes = await core.transport.readBytes(response, displayPath(url), 'document', within);
  await core.budget.record(bytes.length);
  const declared = /^\d+$/.test(String(response.headers['content-length'] ?? '')) ? Number(response.headers['content-length']) : undefined;
  const size = expected?.bytes ?? declared;
  if (size !== undefined && bytes.length !== size) {
    throw new SizeMismatchError(messages.sizeMismatch(label, bytes.length, size), { expected: size, actual: bytes.length });
  }
  const sha256 = sha256Hex(bytes);
  if (expected !== undefined && sha256 !== expected.sha256) {
    throw new ChecksumMismatchError(messages.checksumMismatch(label, sha256, expected.sha256), { expected: expected.sha256, actual: sha256 });
  }
  return bytes;
}

/**
 * The release object of a manifest. The spec leaves open which download carries which shape: a manifest
 * may be the release object itself (the mock's choice) or the release document shape with the object
 * under `release` (its `dataset`/`version`/`status` outside filling gaps inside). The checksum a lock pins stays
 * the hash of the bytes received either way.
 */
function manifestRelease(body: unknown): Release | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  // A null member is an absent one (the spec: "missing values are null or absent"), inside as outside: an
  // inner `version: null` must not hide the document's `version`.
  const record = withoutNullMembers(body as Record<string, unknown>);
  const inner = record.release;
  const release: Record<string, unknown> =
    record.id === undefined && typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? { dataset: record.dataset, version: record.version, status: record.status, ...withoutNullMembers(inner as Record<string, unknown>) }
      : { ...record };
  const normalized = releaseWithoutNulls(release);
  return withLowerCaseDigests(normalized) as unknown as Release;
}

function parseJson<T>(bytes: Uint8Array, path: string): T {
  try {
    return parseJsonText<T>(bytes);
  } catch {
    throw new UnexpectedResponseError(messages.badResponseBody(path));
  }
}
