// A least-recently-used map bounded by the total byte size of its values.

/** LRU cache holding at most `capacityBytes` of values (sizes given on `set`). */
export class ByteLru<V> {
  readonly #entries = new Map<string, { value: V; bytes: number }>();
  #bytes = 0;

  /** @param capacityBytes total size kept, in bytes; a value larger than this is not kept at all. */
  constructor(readonly capacityBytes: number) {}

  /** Bytes currently held. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.capacityBytes) return;
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.capacityBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}
