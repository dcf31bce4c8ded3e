// The home's sync lock against what may be found at <home>/sync.lock (issue 31 item 4): only a positive PID
// of a live process (or a lock of another host) blocks; a PID of 0 or below, a non-number, text that is no
// lock, an empty file and a symbolic link (dangling or not) are stale and taken over, said in one line naming
// the file; a folder or a FIFO is refused naming the file and how to remove it. No sentence advises signalling
// a PID of 1 or below, and text from the lock file (host, start time, PID) is printed escaped.

import { execFileSync } from 'node:child_process';
import { lstat, mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireSyncLock, SyncBusyError, SyncLockUnusableError, SYNC_LOCK_FILE } from '../../src/workbench/index.js';
import { withTempHome } from '../support/temp-home.js';

const lockText = (value: unknown) => JSON.stringify(value);
const ours = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as { pid: number; hostname: string };

/** A failure's message: one line, no control character, never "stop PID 1", "stop PID 0" or a negative PID. */
function expectSafeSentence(message: string): void {
  expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  expect(message).not.toMatch(/stop PID (-|0\b|1\b)/);
}

describe('the sync lock: content that is no live lock', () => {
  it.each([
    ['PID -1', lockText({ pid: -1, hostname: hostname(), startedAt: '2026-11-01T00:00:00Z' }), 'its PID -1 is not a process ID of 1 or more'],
    ['PID 0', lockText({ pid: 0, hostname: hostname(), startedAt: '2026-11-01T00:00:00Z' }), 'its PID 0 is not a process ID of 1 or more'],
    ['PID as text', lockText({ pid: '123', hostname: hostname(), startedAt: '' }), 'its PID "123" is not a process ID of 1 or more'],
    ['PID 1.5', lockText({ pid: 1.5, hostname: hostname(), startedAt: '' }), 'its PID 1.5 is not a process ID of 1 or more'],
    ['no PID', lockText({ hostname: hostname(), startedAt: '' }), 'it names no PID'],
    ['a JSON number', '42', 'it was not a JSON lock (cut short by a kill, or written by something else)'],
    ['not JSON', 'hello\n', 'it was not a JSON lock (cut short by a kill, or written by something else)'],
    ['empty', '', 'it was empty'],
    ['no host', lockText({ pid: 12345, startedAt: '' }), 'it names no host or start time'],
  ])('%s: taken over, one line naming the file and why', async (_name, content, why) => {
    await withTempHome(async (home) => {
      const file = path.join(home, SYNC_LOCK_FILE);
      await writeFile(file, content);
      const lock = await acquireSyncLock(home);
      try {
        expect(lock.tookOver).toBeUndefined();
        expect(lock.notice).toBe(`rdw: took over ${file}, which held no lock a live sync wrote: ${why}.`);
        expect(await ours(file)).toMatchObject({ pid: process.pid, hostname: hostname() });
      } finally {
        await lock.release();
      }
      await expect(lstat(file)).rejects.toThrow();
    });
  });

  it('a dangling symbolic link is taken over: the link is removed, nothing is made at its target', async () => {
    await withTempHome(async (home) => {
      const file = path.join(home, SYNC_LOCK_FILE);
      const target = path.join(home, 'nowhere', 'lock');
      await symlink(target, file);
      const lock = await acquireSyncLock(home);
      try {
        expect(lock.notice).toBe(`rdw: took over ${file}, a symbolic link (to ${target}) rdw never writes; the link was removed, not its target.`);
        expect((await lstat(file)).isFile()).toBe(true);
        await expect(lstat(path.join(home, 'nowhere'))).rejects.toThrow();
      } finally {
        await lock.release();
      }
    });
  });

  it('a symbolic link to a file is taken over without touching that file', async () => {
    await withTempHome(async (home) => {
      const file = path.join(home, SYNC_LOCK_FILE);
      const target = path.join(home, 'precious.txt');
      await writeFile(target, 'keep me\n');
      await symlink(target, file);
      const lock = await acquireSyncLock(home);
      await lock.release();
      expect(await readFile(target, 'utf8')).toBe('keep me\n');
      await expect(readlink(file)).rejects.toThrow();
    });
  });

  it.each([
    ['a folder', 'folder', 'rmdir'],
    ['a FIFO', 'fifo', 'rm'],
  ])('%s is refused naming the file and how to remove it, and left as it is', async (_name, kind, remover) => {
    await withTempHome(async (home) => {
      const file = path.join(home, SYNC_LOCK_FILE);
      if (kind === 'folder') await mkdir(file);
      else execFileSync('mkfifo', [file]);
      const failure = await acquireSyncLock(home).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SyncLockUnusableError);
      expect((failure as SyncLockUnusableError).code).toBe('RDW_SYNC_LOCK_UNUSABLE');
      expect((failure as SyncLockUnusableError).exitCode).toBe(1);
      expect((failure as Error).message).toContain(`${file} is a `);
      expect((failure as Error).message).toContain(`(${remover} '${file}')`);
      expectSafeSentence((failure as Error).message);
      const info = await lstat(file);
      expect(kind === 'folder' ? info.isDirectory() : info.isFIFO()).toBe(true);
    });
  });
});

describe('the sync lock: live holders', () => {
  it('PID 1 on this host (alive: init) blocks, and the sentence says to remove the lock, never to stop PID 1', async () => {
    await withTempHome(async (home) => {
      const file = path.join(home, SYNC_LOCK_FILE);
      await writeFile(file, lockText({ pid: 1, hostname: hostname(), startedAt: '2026-11-01T00:00:00Z' }));
      const failure = (await acquireSyncLock(home).catch((error: unknown) => error)) as SyncBusyError;
      expect(failure).toBeInstanceOf(SyncBusyError);
      expect(failure.message).toBe(
        `Another rdw sync is running on this home: PID 1 since 2026-11-01T00:00:00Z (${file}); this one stops. Wait for it to finish, or remove ${file} once that sync is surely gone.`,
      );
      expectSafeSentence(failure.message);
    });
  });

  it('a live PID above 1 is named, with the lock file, and may be stopped', async () => {
    await withTempHome(async (home) => {
      const file = path.join(home, SYNC_LOCK_FILE);
      await writeFile(file, lockText({ pid: process.pid, hostname: hostname(), startedAt: 'x' }));
      const failure = (await acquireSyncLock(home).catch((error: unknown) => error)) as SyncBusyError;
      expect(failure.message).toContain(`PID ${process.pid} since x (${file}); this one stops.`);
      expect(failure.message).toContain(`or stop PID ${process.pid} first.`);
    });
  });

  it('a host name and start time holding a newline and terminal escapes are printed escaped', async () => {
    await withTempHome(async (home) => {
      const file = path.join(home, SYNC_LOCK_FILE);
      const host = 'evil\nrdw: all good\u001b[2J\u009b31m';
      await writeFile(file, lockText({ pid: 4242, hostname: host, startedAt: 'now\r\u001b]0;title\u0007' }));
      const failure = (await acquireSyncLock(home).catch((error: unknown) => error)) as SyncBusyError;
      expect(failure).toBeInstanceOf(SyncBusyError);
      expectSafeSentence(failure.message);
      expect(failure.message).toContain('PID 4242 on host evil\\nrdw: all good\\u001b[2J\\u009b31m since now\\r\\u001b]0;title\\u0007');
    });
  });

  it('a dead PID of this host is taken over, its start time escaped in the line', async () => {
    await withTempHome(async (home) => {
      const file = path.join(home, SYNC_LOCK_FILE);
      await writeFile(file, lockText({ pid: 999_999_999, hostname: hostname(), startedAt: 'a\nb' }));
      const lock = await acquireSyncLock(home, { isAlive: () => false });
      try {
        expect(lock.tookOver).toEqual({ pid: 999_999_999, hostname: hostname(), startedAt: 'a\nb' });
        expect(lock.notice).toBe('rdw: took over the sync lock of PID 999999999 (started a\\nb), which is no longer running.');
      } finally {
        await lock.release();
      }
    });
  });
});
