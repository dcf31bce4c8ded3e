// The refusal of removeTree (remove-tree.ts): a recursive delete of a path rdw must never delete.

import { RdwError, withCode, type RdwErrorOptions } from './rdw-error.js';

/**
 * Why removeTree refused a path: it is the file system's root; the home folder, rdw's package folder or the
 * working folder, or holds one of them; it has too few segments; or it lies outside every folder this process
 * made or registered.
 */
export type UnsafeDeleteReason = 'root' | 'home' | 'package' | 'working-folder' | 'too-short' | 'not-owned';

/** Options of UnsafeDeleteError: the refused path (resolved) and why. */
export interface UnsafeDeleteErrorOptions extends RdwErrorOptions {
  /** The refused path, symlinks and `..` resolved. */
  path?: string | undefined;
  reason?: UnsafeDeleteReason | undefined;
}

/** A recursive delete refused because its path is not provably safe to remove (exit 1). */
export class UnsafeDeleteError extends withCode(RdwError, 'RDW_UNSAFE_DELETE') {
  /** The refused path, symlinks and `..` resolved. */
  readonly path: string | undefined;
  readonly reason: UnsafeDeleteReason | undefined;
  constructor(message: string, options: UnsafeDeleteErrorOptions = {}) {
    super(message, options);
    this.path = options.path;
    this.reason = options.reason;
  }
}
