// removeTree: the one way rdw, its tests and its benches delete a folder with its contents (issue 27: a bench
// once computed the parent of TMPDIR and deleted it). It deletes only inside a folder this process made
// (makeTemporaryFolder) or registered as its own (ownFolder), decided on the path with symlinks and `..`
// resolved, and never the root, the home folder, rdw's package folder, the working folder or a short path.

import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseMessages } from './messages.js';
import { UnsafeDeleteError, type UnsafeDeleteReason } from './unsafe-delete-error.js';

/**
 * The fewest segments a removable path has. 2, not more: mkdtemp under TMPDIR=/tmp gives `/tmp/rdw-…`, two
 * segments, which must be removable; every one-segment path (`/tmp`, `/home`, `/usr`) is a system folder.
 */
export const MIN_REMOVABLE_SEGMENTS = 2;

/** rdw's package folder (the checkout, or node_modules/rdw): two levels above src/base or dist/base. */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Real paths of the folders removeTree may delete inside: one set per process, shared by every copy of this module. */
const OWNED: Set<string> = ((globalThis as Record<symbol, unknown>)[Symbol.for('rdw.ownedFolders')] ??= new Set<string>()) as Set<string>;

export interface RemoveTreeOptions {
  /** Retries of a busy or not-yet-empty folder (EBUSY, ENOTEMPTY, EPERM), 100 ms apart and more. Default 0. */
  maxRetries?: number;
}

/**
 * Makes a new folder `<parent>/<prefix>XXXXXX` (mkdtemp) that removeTree may delete with everything in it;
 * returns its real path.
 * @param options.parent where to make it; default the temporary folder (`os.tmpdir()`, i.e. TMPDIR)
 */
export async function makeTemporaryFolder(prefix: string, options: { parent?: string } = {}): Promise<string> {
  const folder = await realpath(await mkdtemp(path.join(options.parent ?? os.tmpdir(), prefix)));
  OWNED.add(folder);
  return folder;
}

/**
 * Registers a folder this process owns but did not make with makeTemporaryFolder (a store's `tmp/`, a catalog's
 * temporary files, a build folder), so removeTree may delete it and what it holds. It need not exist yet.
 * Throws UnsafeDeleteError for a folder removeTree could never delete (root, a short path, or the home or
 * package folder or one holding them). Returns its resolved path.
 */
export async function ownFolder(folder: string): Promise<string> {
  const resolved = await resolvePath(folder);
  const reason = await protectedReason(resolved, false);
  if (reason !== undefined) throw unsafeDelete(resolved, folder, reason);
  OWNED.add(resolved);
  return resolved;
}

/**
 * The path removeTree(`target`) would delete (symlinks and `..` resolved; a final symlink is the link itself),
 * or an UnsafeDeleteError naming it and why it may not be deleted.
 */
export async function resolveRemovableTree(target: string): Promise<string> {
  const resolved = await resolvePath(target);
  const reason = (await protectedReason(resolved, true)) ?? (isOwned(resolved) ? undefined : 'not-owned');
  if (reason !== undefined) throw unsafeDelete(resolved, target, reason);
  return resolved;
}

/**
 * Deletes `target` with its contents (nothing when it is absent), only when resolveRemovableTree allows it;
 * else throws UnsafeDeleteError and deletes nothing. Deletes the resolved path, the one it checked.
 */
export async function removeTree(target: string, options: RemoveTreeOptions = {}): Promise<void> {
  const resolved = await resolveRemovableTree(target);
  await rm(resolved, { recursive: true, force: true, maxRetries: options.maxRetries ?? 0 });
  // Gone: a new folder at that path is this process's only when made or registered again.
  for (const owned of OWNED) if (holds(resolved, owned)) OWNED.delete(owned);
}

/**
 * `target` made absolute with each symlink and `..` resolved as the kernel would: part by part, each
 * existing folder through realpath (so `tmp/link/..` is the link target's parent, not `tmp`); from the first
 * missing part on, lexically. The last part is not followed: deleting a symlink deletes the link.
 */
async function resolvePath(target: string): Promise<string> {
  const absolute = path.isAbsolute(target) ? target : `${process.cwd()}${path.sep}${target}`;
  const parts = absolute.split(path.sep).filter((part) => part !== '' && part !== '.');
  let current = path.parse(absolute).root;
  for (const [index, part] of parts.entries()) {
    if (part === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    current = index === parts.length - 1 ? next : await realpath(next).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return next;
      throw error;
    });
  }
  return current;
}

/** Why `resolved` is never deleted (nor registered), or undefined. The working folder counts only for a delete. */
async function protectedReason(resolved: string, deleting: boolean): Promise<UnsafeDeleteReason | undefined> {
  if (resolved === path.parse(resolved).root) return 'root';
  const folders: [UnsafeDeleteReason, string][] = [
    ['home', await realpath(os.homedir()).catch(() => path.resolve(os.homedir()))],
    ['package', await realpath(PACKAGE_ROOT).catch(() => path.resolve(PACKAGE_ROOT))],
    ...(deleting ? [['working-folder', process.cwd()] as [UnsafeDeleteReason, string]] : []),
  ];
  for (const [reason, folder] of folders) if (holds(resolved, folder)) return reason;
  if (resolved.split(path.sep).filter(Boolean).length < MIN_REMOVABLE_SEGMENTS) return 'too-short';
  return undefined;
}

function isOwned(resolved: string): boolean {
  for (const owned of OWNED) if (holds(owned, resolved)) return true;
  return false;
}

/** True when `inner` is `outer` or lies inside it. */
function holds(outer: string, inner: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith(path.sep) ? outer : `${outer}${path.sep}`);
}

function unsafeDelete(resolved: string, given: string, reason: UnsafeDeleteReason): UnsafeDeleteError {
  return new UnsafeDeleteError(baseMessages.unsafeDelete(resolved, given, reason, MIN_REMOVABLE_SEGMENTS), { path: resolved, reason });
}
