// A bounded least-recently-used map: per-day results of the simulator are cached, never unbounded.

/** Keeps at most `capacity` entries; reading an entry makes it the most recent. */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();
  private readonly capacity: number;

  /** @param capacity maximum number of entries (>= 1). */
  constructor(capacity: number) {
    this.capacity = Math.max(1, capacity);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached value, or the result of `create()` stored as the most recent entry. */
  getOrCreate(key: K, create: () => V): V {
    const hit = this.entries.get(key);
    if (hit !== undefined || this.entries.has(key)) {
      this.entries.delete(key);
      this.entries.set(key, hit as V);
      return hit as V;
    }
    const value = create();
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    return value;
  }
}
