// environmentErrorOf: a Node fs error or a DuckDB error naming a system failure becomes its typed error (exit 1);
// anything else (a real bug, a network failure, a missing file) is left as it is.

import { describe, expect, it } from 'vitest';
import {
  DiskFullError,
  environmentErrorOf,
  IsAFolderError,
  NotAFolderError,
  PermissionDeniedError,
  RdwError,
  ReadOnlyFileSystemError,
} from '../../src/contract/index.js';

const fsError = (code: string, extra: Record<string, string> = {}) => Object.assign(new Error(`${code}: failed`), { code, ...extra });

describe('environmentErrorOf', () => {
  it.each([
    ['ENOSPC on write', fsError('ENOSPC', { syscall: 'write' }), DiskFullError, 'RDW_DISK_FULL', undefined],
    ['EDQUOT', fsError('EDQUOT', { path: '/h/x' }), DiskFullError, 'RDW_DISK_FULL', '/h/x'],
    ['DuckDB: No space left on device', new Error('TransactionContext Error: Failed to commit: Could not write file "/h/catalog.duckdb.wal": No space left on device'), DiskFullError, 'RDW_DISK_FULL', '/h/catalog.duckdb.wal'],
    ['EACCES', fsError('EACCES', { path: '/h' }), PermissionDeniedError, 'RDW_PERMISSION_DENIED', '/h'],
    ['EPERM', fsError('EPERM', { path: '/h' }), PermissionDeniedError, 'RDW_PERMISSION_DENIED', '/h'],
    ['EROFS', fsError('EROFS', { path: '/h' }), ReadOnlyFileSystemError, 'RDW_READ_ONLY_FILE_SYSTEM', '/h'],
    ['DuckDB: Read-only file system', new Error('IO Error: Cannot open file "/h/catalog.duckdb": Read-only file system'), ReadOnlyFileSystemError, 'RDW_READ_ONLY_FILE_SYSTEM', '/h/catalog.duckdb'],
    ['ENOTDIR', fsError('ENOTDIR', { path: '/f/sub', syscall: 'mkdir' }), NotAFolderError, 'RDW_NOT_A_FOLDER', '/f/sub'],
    ['EEXIST from mkdir', fsError('EEXIST', { path: '/f', syscall: 'mkdir' }), NotAFolderError, 'RDW_NOT_A_FOLDER', '/f'],
    ['ENOENT from mkdir (the file system refused the folder: /proc)', fsError('ENOENT', { path: '/proc/x', syscall: 'mkdir' }), PermissionDeniedError, 'RDW_PERMISSION_DENIED', '/proc/x'],
    ['EISDIR from rename (the destination is named)', fsError('EISDIR', { path: '/d/.tmp', dest: '/d/lock', syscall: 'rename' }), IsAFolderError, 'RDW_IS_A_FOLDER', '/d/lock'],
  ])('types %s', (_name, error, type, code, where) => {
    const typed = environmentErrorOf(error);
    expect(typed).toBeInstanceOf(type);
    expect(typed).toBeInstanceOf(RdwError);
    expect(typed!.code).toBe(code);
    expect(typed!.exitCode).toBe(1);
    expect(typed!.path).toBe(where);
    expect(typed!.cause).toBe(error);
    if (where !== undefined) expect(typed!.message).toContain(where);
  });

  it.each([
    ['a TypeError (a real bug)', new TypeError('x is not a function')],
    ['a missing file', fsError('ENOENT', { path: '/nope' })],
    ['EEXIST from open (not a folder problem)', fsError('EEXIST', { path: '/f', syscall: 'open' })],
    ['a refused connection', fsError('ECONNREFUSED')],
    ['an undici code', fsError('UND_ERR_SOCKET')],
    ['another typed error whose text says "Permission denied"', new RdwError('The service said: Permission denied.')],
    ['a string', 'boom'],
    ['undefined', undefined],
  ])('leaves %s alone', (_name, error) => {
    expect(environmentErrorOf(error)).toBeUndefined();
  });

  it('names the fallback path when the error names none', () => {
    expect(environmentErrorOf(fsError('ENOSPC'), '/home/rdw')!.path).toBe('/home/rdw');
  });
});
