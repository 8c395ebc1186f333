// Results cached per (tenant, insight, normalized parameters, warehouse version). The version is
// part of the key, so a re-seed makes every older entry unreachable; they age out of the LRU.
// Generic in the result so the cache does not import the service that owns it (no import cycle).

export interface CacheEntry<R> {
  /** As computed (cached: false); hits answer with a copy marked cached. */
  result: R;
  /** The ExecuteResponse of a hit as JSON in UTF-8, serialized and encoded once, on the first hit. */
  hitBytes?: Buffer;
}

/**
 * At most `maxEntries` results; the one evicted is an entry not read since the eviction pass last
 * went by it ("second chance", the CLOCK approximation of least-recently-used). A hit only marks its
 * entry: a cached answer costs one lookup, where an exact LRU moved the entry on every hit
 * (docs/performance.md §16).
 */
export class ResultCache<R> {
  private readonly entries = new Map<string, { entry: CacheEntry<R>; read: boolean }>();
  constructor(private readonly maxEntries = 2000) {}

  get(key: string): CacheEntry<R> | undefined {
    const slot = this.entries.get(key);
    if (!slot) return undefined;
    slot.read = true;
    return slot.entry;
  }

  set(key: string, value: CacheEntry<R>): void {
    this.entries.delete(key);
    // A new entry counts as read, so the pass below never evicts the answer just stored.
    this.entries.set(key, { entry: value, read: true });
    // Oldest first: an entry read since it was last passed goes to the back, unmarked; the first unread one goes.
    while (this.entries.size > this.maxEntries) {
      const [oldest, slot] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      if (slot.read) this.entries.set(oldest, { entry: slot.entry, read: false });
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
