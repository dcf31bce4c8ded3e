// A small insertion-ordered cache with an entry limit (oldest dropped first) for per-request derivations.

export class BoundedCache<K, V> {
  readonly #entries = new Map<K, V>();

  /** @param limit entries kept. */
  constructor(readonly limit: number) {}

  /** The cached value of `key`, made and kept on first use. */
  get(key: K, make: () => V): V {
    const known = this.#entries.get(key);
    if (known !== undefined) return known;
    const value = make();
    this.#entries.set(key, value);
    if (this.#entries.size > this.limit) this.#entries.delete(this.#entries.keys().next().value as K);
    return value;
  }

  clear(): void {
    this.#entries.clear();
  }
}
