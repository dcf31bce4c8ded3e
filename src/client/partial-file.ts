// The partial file of one download, `<dest>.partial`, and its sidecar `<dest>.partial.json`: the sidecar
// records which release file the partial belongs to, which is what lets a later call resume it.

import { readFile, rm } from 'node:fs/promises';
import type { DownloadFormat, FileDigest } from '../contract/index.js';

/** What the sidecar records: a partial is resumed only when all of it matches. */
export interface PartialSidecar {
  releaseId: string;
  format: DownloadFormat;
  sha256: string;
  bytes: number;
}

/** Where one download's bytes go before they are verified. */
export interface PartialFile {
  /** The verified file's place. */
  dest: string;
  /** `<dest>.partial`: the bytes received so far. */
  path: string;
  /** `<dest>.partial.json`: the sidecar. */
  sidecarPath: string;
  /** What the sidecar records for this download; undefined without an expected digest (then nothing is resumable). */
  sidecar: PartialSidecar | undefined;
  /** `The <format> file of release <id…>`, for messages. */
  what: string;
}

/** The partial file of the download of `releaseId`'s `format` file to `dest`, expected to be `expected`. */
export function partialFile(dest: string, releaseId: string, format: DownloadFormat, expected: FileDigest | undefined): PartialFile {
  const path = `${dest}.partial`;
  return {
    dest,
    path,
    sidecarPath: `${path}.json`,
    sidecar: expected === undefined ? undefined : { releaseId, format, sha256: expected.sha256, bytes: expected.bytes },
    what: `The ${format} file of release ${releaseId.slice(0, 12)}…`,
  };
}

/** Removes the partial and its sidecar (either may be absent). */
export async function discardPartial(file: PartialFile): Promise<void> {
  await rm(file.path, { force: true });
  await rm(file.sidecarPath, { force: true });
}

/** The sidecar left at `path` by an earlier call, or undefined when there is none or it is unreadable. */
export async function readSidecar(path: string): Promise<PartialSidecar | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as PartialSidecar;
  } catch {
    return undefined;
  }
}

/** Whether two sidecars name the same release file (ID, format, digest and size). */
export function sameSidecar(a: PartialSidecar, b: PartialSidecar): boolean {
  return a.releaseId === b.releaseId && a.format === b.format && a.sha256 === b.sha256 && a.bytes === b.bytes;
}
