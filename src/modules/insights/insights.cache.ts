// Results cached per (tenant, insight, normalized parameters, warehouse version). The version is
// part of the key, so a re-seed makes every older entry unreachable; they age out of the LRU.
// Generic in the result so the cache does not import the service that owns it (no import cycle).

export interface CacheEntry<R> {
  /** As computed (cached: false); hits answer with a copy marked cached. */
  result: R;
  /** The ExecuteResponse of a hit as JSON in UTF-8, serialized and encoded once, on the first hit. */
  hitBytes?: Buffer;
}

export class ResultCache<R> {
  private readonly entries = new Map<string, CacheEntry<R>>();
  constructor(private readonly maxEntries = 2000) {}

  get(key: string): CacheEntry<R> | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Re-insert: Map keeps insertion order, so the first key is the least recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: CacheEntry<R>): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
