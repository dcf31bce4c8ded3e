// A map bounded by the total size of its values, least recently used (or first written) dropped first:
// per-day simulator results, release files and per-request derivations are cached, never unbounded.

/** Which entry goes first when the cache is over its capacity. */
export type EvictionOrder = 'least-recently-used' | 'first-written';

export interface BoundedCacheOptions {
  /**
   * 'least-recently-used': a read makes an entry the most recent; 'first-written': reads do not reorder,
   * the oldest write goes first. Default 'least-recently-used'.
   */
  evict?: EvictionOrder;
}

/**
 * Keeps entries while the sum of their sizes is at most `capacity`. A size is given per entry and defaults
 * to 1, so the capacity is an entry count unless the caller gives sizes (bytes, say). An entry larger than
 * the capacity is not kept at all.
 */
export class BoundedCache<K, V> {
  readonly #entries = new Map<K, { value: V; size: number }>();
  readonly #refreshOnRead: boolean;
  #total = 0;

  /**
   * @param capacity total size kept (entries when every size is 1; bytes when sizes are bytes).
   * @param options eviction order; default least recently used.
   */
  constructor(
    readonly capacity: number,
    options: BoundedCacheOptions = {},
  ) {
    this.#refreshOnRead = (options.evict ?? 'least-recently-used') === 'least-recently-used';
  }

  /** Number of entries held. */
  get size(): number {
    return this.#entries.size;
  }

  /** Sum of the sizes of the entries held (bytes, when sizes are bytes). */
  get total(): number {
    return this.#total;
  }

  /** The value of `key`, or undefined; in least-recently-used order it becomes the most recent. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (this.#refreshOnRead) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry.value;
  }

  /** True when `key` is held (does not reorder). */
  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** Stores `value` as the most recent entry, then drops the oldest until the total fits the capacity. */
  set(key: K, value: V, size = 1): void {
    this.delete(key);
    if (size > this.capacity) return;
    this.#entries.set(key, { value, size });
    this.#total += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#total <= this.capacity) break;
      this.#entries.delete(oldest);
      this.#total -= entry.size;
    }
  }

  /** The cached value of `key`, or the result of `create()` stored (with `size`) on first use. */
  getOrCreate(key: K, create: () => V, size = 1): V {
    if (this.#entries.has(key)) return this.get(key) as V;
    const value = create();
    this.set(key, value, size);
    return value;
  }

  /** Drops `key` if held. */
  delete(key: K): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#total -= entry.size;
  }

  /** Drops every entry. */
  clear(): void {
    this.#entries.clear();
    this.#total = 0;
  }
}
