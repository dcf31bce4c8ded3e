// Pacing and byte-budget state shared by every client of one key (or of one declared account): in this
// process through one object per key, across processes through `<home>/state/pacing-<sha256(key)[:16]>.json` updated under a file lock.
// The file holds only a hash-derived name, timestamps and byte counts: never the key.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Hex, makeFolder, replaceFile } from '../base/index.js';
import { withFileLock } from './file-lock.js';

/** The shared state of one key (or of the public per-IP scope). */
export interface KeyStateData {
  version: 1;
  /** Send times of recent requests (epoch ms), oldest first; pruned to the rate window. */
  requests: number[];
  /** No request before this time (epoch ms): set from a 429's Retry-After. */
  blockedUntil: number;
  /** Bytes downloaded on one UTC day. */
  budget: { day: string; bytes: number };
}

const emptyState = (): KeyStateData => ({ version: 1, requests: [], blockedUntil: 0, budget: { day: '', bytes: 0 } });

/** First 16 hex characters of sha256(key): the only form of the key that is ever stored. */
export function keyId(apiKey: string | undefined): string {
  if (apiKey === undefined) return 'public';
  return sha256Hex(apiKey).slice(0, 16);
}

/**
 * The shared state's name for a declared account (ClientOptions.account): `account-` and the first 16 hex
 * characters of sha256 of the name, so every key declared with that name paces against one window.
 */
export function accountStateId(account: string): string {
  return `account-${sha256Hex(`rdw-account\u0000${account}`).slice(0, 16)}`;
}

function normalize(value: unknown): KeyStateData {
  const data = value as Partial<KeyStateData> | null;
  const state = emptyState();
  if (data === null || typeof data !== 'object') return state;
  if (Array.isArray(data.requests)) state.requests = data.requests.filter((t) => typeof t === 'number');
  if (typeof data.blockedUntil === 'number') state.blockedUntil = data.blockedUntil;
  if (data.budget && typeof data.budget.day === 'string' && typeof data.budget.bytes === 'number') {
    state.budget = { day: data.budget.day, bytes: data.budget.bytes };
  }
  return state;
}

/** One key's shared state; obtain it with `KeyState.for`. */
export class KeyState {
  static readonly #instances = new Map<string, KeyState>();

  /** The process-wide instance for a key ID and home (undefined home: memory only). */
  static for(id: string, home: string | undefined): KeyState {
    const name = `${home ?? ''}\0${id}`;
    let state = KeyState.#instances.get(name);
    if (state === undefined) {
      state = new KeyState(id, home);
      KeyState.#instances.set(name, state);
    }
    return state;
  }

  readonly filePath: string | undefined;
  #memory: KeyStateData = emptyState();
  #queue: Promise<unknown> = Promise.resolve();
  /** Bytes downloaded by this process not yet written to the shared file (written on the next round trip). */
  #pendingBytes = { day: '', bytes: 0 };
  /** The budget as of the last round trip, and when it was read (real time, `performance.now()` ms: it dates a file read). */
  #seenBudget: { day: string; bytes: number; at: number } | undefined;
  #folderMade = false;
  /** The home's state could not be written (a read-only mount, a folder of another user): memory only from then on. */
  #memoryOnly = false;

  private constructor(id: string, home: string | undefined) {
    this.filePath = home === undefined ? undefined : join(home, 'state', `pacing-${id}.json`);
  }

  /** Read-modify-write under the in-process queue and, with a home, the file lock. */
  update<T>(change: (state: KeyStateData) => T): Promise<T> {
    const run = this.#queue.then(() => this.#locked(change));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** A copy of the current state. */
  read(): Promise<KeyStateData> {
    return this.update((state) => structuredClone(state));
  }

  /**
   * Adds downloaded bytes to `day` without a file round trip: they join the shared file on the next
   * `update` (every lease of the rate limiter, a budget refresh, `flush`). Visible in this process at once.
   */
  addBytes(day: string, bytes: number): void {
    if (bytes <= 0) return;
    if (this.#pendingBytes.day !== day) this.#pendingBytes = { day, bytes: 0 };
    this.#pendingBytes.bytes += bytes;
  }

  /**
   * Bytes used on `day`: the shared value read at most `maxAgeMs` ago (real time) plus this process's
   * unwritten bytes; an older view is refreshed with a round trip first.
   */
  async usedBytes(day: string, maxAgeMs: number): Promise<number> {
    const seen = this.#seenBudget;
    if (seen === undefined || this.filePath === undefined || performance.now() - seen.at > maxAgeMs) {
      return this.update((state) => (state.budget.day === day ? state.budget.bytes : 0));
    }
    const shared = seen.day === day ? seen.bytes : 0;
    return shared + (this.#pendingBytes.day === day ? this.#pendingBytes.bytes : 0);
  }

  /** Writes unwritten bytes to the shared file now. */
  async flush(): Promise<void> {
    if (this.#pendingBytes.bytes > 0) await this.update(() => undefined);
  }

  /** Moves unwritten bytes into `state` (the newer UTC day wins; bytes of an older day are dropped). */
  #applyPending(state: KeyStateData): void {
    const pending = this.#pendingBytes;
    this.#pendingBytes = { day: '', bytes: 0 };
    if (pending.bytes > 0) {
      if (state.budget.day === pending.day) state.budget.bytes += pending.bytes;
      else if (pending.day > state.budget.day) state.budget = { day: pending.day, bytes: pending.bytes };
    }
  }

  async #locked<T>(change: (state: KeyStateData) => T): Promise<T> {
    const path = this.filePath;
    if (path === undefined || this.#memoryOnly) {
      this.#applyPending(this.#memory);
      return change(this.#memory);
    }
    let changed: { state: KeyStateData; result: T } | undefined;
    try {
      if (!this.#folderMade) {
        await makeFolder(join(path, '..'));
        this.#folderMade = true;
      }
      return await withFileLock(`${path}.lock`, async () => {
        const state = await readStateFile(path);
        this.#applyPending(state);
        changed = { state, result: change(state) };
        this.#seenBudget = { ...state.budget, at: performance.now() };
        await replaceFile(path, `${JSON.stringify(state)}\n`);
        return changed.result;
      });
    } catch (error) {
      // A home rdw may read but not write (mounted read-only, another user's): pacing goes on in memory, as without a
      // home, from what the file said; it made every request fail ("… is on a read-only file system"), even rdw
      // research and rdw lock check, which write nothing else there. Other failures stay failures.
      if (!UNWRITABLE_CODES.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      this.#memoryOnly = true;
      if (changed !== undefined) {
        this.#memory = changed.state;
        return changed.result;
      }
      this.#memory = await readStateFile(path);
      this.#applyPending(this.#memory);
      return change(this.#memory);
    }
  }
}

/** Errors of a write the home refuses for good (not a busy lock, not a full disk): pacing falls back to memory. */
const UNWRITABLE_CODES: ReadonlySet<string> = new Set(['EROFS', 'EACCES', 'EPERM']);

/** The shared state file's state; an absent, torn or foreign file reads as empty (start over rather than fail every request). */
async function readStateFile(path: string): Promise<KeyStateData> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  try {
    return text === undefined ? emptyState() : normalize(JSON.parse(text));
  } catch {
    return emptyState();
  }
}
