// Failures of this machine rather than of rdw or the service: a full disk, a denied or read-only folder, a
// file where a folder must be (or the reverse). Each is a typed error (exit 1) said for what it is.

import { environmentMessages } from './environment-messages.js';
import { RdwError, withCode, type RdwErrorOptions } from '../base/index.js';

/** Options of the environment errors: the path at fault, when known. */
export interface EnvironmentErrorOptions extends RdwErrorOptions {
  /** The file or folder the operation was writing or reading; undefined when the system did not say. */
  path?: string | undefined;
}

/** Base of the machine failures (exit 1): carries the path at fault. */
export class EnvironmentError extends RdwError {
  override readonly code: string = 'RDW_ENVIRONMENT';
  /** The file or folder at fault, when known. */
  readonly path: string | undefined;
  constructor(message: string, options: EnvironmentErrorOptions = {}) {
    super(message, options);
    this.path = options.path;
  }
}

/** No space left on the device (ENOSPC, EDQUOT, DuckDB's "No space left on device") (exit 1). */
export class DiskFullError extends withCode(EnvironmentError, 'RDW_DISK_FULL') {}

/**
 * A file grew past the process's file-size limit (`ulimit -f`: EFBIG, DuckDB's "File too large"; Node ignores
 * SIGXFSZ, so the write fails instead of killing rdw) (exit 1). Said like a full disk, and stops a pull the same way.
 */
export class FileTooLargeError extends withCode(EnvironmentError, 'RDW_FILE_TOO_LARGE') {}

/** Permission denied (EACCES, EPERM), or a file system that refuses a new folder (ENOENT on mkdir: /proc) (exit 1). */
export class PermissionDeniedError extends withCode(EnvironmentError, 'RDW_PERMISSION_DENIED') {}

/** A write on a read-only file system (EROFS) (exit 1). */
export class ReadOnlyFileSystemError extends withCode(EnvironmentError, 'RDW_READ_ONLY_FILE_SYSTEM') {}

/** A file where rdw needs a folder: RDW_HOME is a file, or a part of a path is (ENOTDIR, EEXIST on mkdir) (exit 1). */
export class NotAFolderError extends withCode(EnvironmentError, 'RDW_NOT_A_FOLDER') {}

/** A folder where rdw writes a file: `rdw lock <folder>`, an export target (EISDIR) (exit 1). */
export class IsAFolderError extends withCode(EnvironmentError, 'RDW_IS_A_FOLDER') {}

/**
 * Something other than a file where rdw writes one: a device, a FIFO, a socket, or a symbolic link to nothing
 * (`rdw lock /dev/null`). Its atomic rename would replace it with a file, so it is refused (exit 1).
 */
export class NotARegularFileError extends withCode(EnvironmentError, 'RDW_NOT_A_FILE') {}

/** A path the file system cannot follow: too long (ENAMETOOLONG), a loop of symbolic links (ELOOP), a link to nothing (exit 1). */
export class BadPathError extends withCode(EnvironmentError, 'RDW_BAD_PATH') {}

const DUCKDB_TEXT: readonly [RegExp, string][] = [
  [/No space left on device|Disk quota exceeded/i, 'ENOSPC'],
  [/File too large/i, 'EFBIG'],
  [/Read-only file system/i, 'EROFS'],
  [/Permission denied|Operation not permitted/i, 'EACCES'],
  [/Is a directory/i, 'EISDIR'],
  [/Not a directory/i, 'ENOTDIR'],
];

/**
 * The typed environment error that `error` (a Node fs error with an errno `code`, or a DuckDB error whose
 * text names the system error) stands for, or undefined when it is something else (a real bug stays one).
 * `fallbackPath` names the file or folder when the error itself does not (DuckDB's text names none).
 * EEXIST counts only from mkdir (a file where a folder must be), ENOENT only from mkdir (makeFolder makes the
 * parents first, so the file system refused the folder itself, as /proc and /sys do).
 */
export function environmentErrorOf(error: unknown, fallbackPath?: string): EnvironmentError | undefined {
  if (error instanceof EnvironmentError) return error;
  // Another typed error already says what failed (a 403 whose text says "Permission denied" is not this machine's).
  if (typeof error !== 'object' || error === null || error instanceof RdwError) return undefined;
  const source = error as { code?: unknown; syscall?: unknown; path?: unknown; dest?: unknown; message?: unknown };
  const message = typeof source.message === 'string' ? source.message : '';
  let code = typeof source.code === 'string' ? source.code : undefined;
  if (code === undefined || !/^E[A-Z]+$/.test(code)) code = DUCKDB_TEXT.find(([pattern]) => pattern.test(message))?.[1];
  if (code === undefined) return undefined;
  const quoted = /file "([^"]+)"/.exec(message)?.[1];
  const target =
    (typeof source.dest === 'string' && code === 'EISDIR' ? source.dest : undefined) ??
    (typeof source.path === 'string' ? source.path : undefined) ??
    quoted ??
    fallbackPath;
  const options = { cause: error, path: target };
  const where = target ?? environmentMessages.unnamedPath();
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new DiskFullError(environmentMessages.diskFull(where), options);
    case 'EFBIG':
      return new FileTooLargeError(environmentMessages.fileTooLarge(where), options);
    case 'EROFS':
      return new ReadOnlyFileSystemError(environmentMessages.readOnly(where), options);
    case 'EACCES':
    case 'EPERM':
      return new PermissionDeniedError(environmentMessages.permissionDenied(where), options);
    case 'ENOTDIR':
      return new NotAFolderError(environmentMessages.notAFolder(where), options);
    case 'ENAMETOOLONG':
      return new BadPathError(environmentMessages.pathTooLong(where), options);
    case 'ELOOP':
      return new BadPathError(environmentMessages.symbolicLinkLoop(where), options);
    case 'ENOENT':
      // makeFolder marks a folder path that is a symbolic link to nothing (mkdir says it exists, stat that it does not).
      if ((error as { danglingLink?: unknown }).danglingLink === true) return new BadPathError(environmentMessages.danglingLink(where), options);
      return source.syscall === 'mkdir' ? new PermissionDeniedError(environmentMessages.cannotCreateFolder(where), options) : undefined;
    case 'EEXIST':
      return source.syscall === 'mkdir' ? new NotAFolderError(environmentMessages.notAFolder(where), options) : undefined;
    case 'EISDIR':
      return new IsAFolderError(environmentMessages.isAFolder(where), options);
    default:
      return undefined;
  }
}
