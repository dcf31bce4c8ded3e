// The in-memory cache of one scope's documents (research snapshots, live pages) and CSV tables: the spec
// forbids polling faster than a document's refresh interval, so a fresh copy is answered without a request.

import type { Clock } from './clock.js';
import type { ResearchSnapshot } from './client-types.js';
import type { ResearchTable } from './research-table.js';

/**
 * Cache interval (seconds) of a Research or live document that declares no `refresh_seconds` and whose
 * dataset src/contract does not know: the spec forbids polling faster than the declared interval, so an
 * undeclared one is not taken as "no limit"; one minute is the public per-IP rate window.
 */
export const UNDECLARED_REFRESH_SECONDS = 60;

interface Cached<T> {
  fetchedAt: number;
  value: T;
}

/** A document as the service sent it (any JSON shape), with the interval it is cached for. */
interface CachedDocument extends Cached<ResearchSnapshot> {
  refreshSeconds: number;
}

/** Per-client documents and tables by name, each fresh for its refresh interval (on the client's clock). */
export class DocumentCache {
  readonly #clock: Clock;
  readonly #documents = new Map<string, CachedDocument>();
  readonly #tables = new Map<string, Cached<ResearchTable>>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /**
   * The document `name`, loaded when there is no fresh copy. A copy is fresh for its refresh interval (or
   * `maxAgeSeconds`, seconds, when longer: never shorter); the interval is the document's own
   * `refresh_seconds`, else `knownRefreshSeconds` (the dataset's in src/contract), else UNDECLARED_REFRESH_SECONDS.
   * The body is returned as sent, whatever its shape: nothing is added to it; the interval is kept beside it.
   */
  async document(
    name: string,
    knownRefreshSeconds: number | undefined,
    load: () => Promise<ResearchSnapshot>,
    maxAgeSeconds?: number,
  ): Promise<ResearchSnapshot> {
    const cached = this.#documents.get(name);
    if (cached !== undefined) {
      const refresh = cached.refreshSeconds;
      if (this.#fresh(cached, Math.max(refresh, maxAgeSeconds ?? refresh))) return cached.value;
    }
    const value = await load();
    const refreshSeconds = declaredRefreshSeconds(value) ?? knownRefreshSeconds ?? UNDECLARED_REFRESH_SECONDS;
    this.#documents.set(name, { fetchedAt: this.#clock.now(), value, refreshSeconds });
    return value;
  }

  /** The table `name`, loaded when there is no copy younger than `refreshSeconds` (seconds). */
  async table(name: string, refreshSeconds: number, load: () => Promise<ResearchTable>): Promise<ResearchTable> {
    const cached = this.#tables.get(name);
    if (cached !== undefined && this.#fresh(cached, refreshSeconds)) return cached.value;
    const value = await load();
    this.#tables.set(name, { fetchedAt: this.#clock.now(), value });
    return value;
  }

  #fresh(cached: Cached<unknown>, maxAgeSeconds: number): boolean {
    return this.#clock.now() - cached.fetchedAt < maxAgeSeconds * 1000;
  }
}

/** The document's own `refresh_seconds` when it is an object declaring a finite number >= 0; else undefined. */
function declaredRefreshSeconds(document: unknown): number | undefined {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return undefined;
  const value = (document as { refresh_seconds?: unknown }).refresh_seconds;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
