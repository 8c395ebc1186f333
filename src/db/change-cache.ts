// Rows remembered in memory until their table changes: the generic half of the API token cache
// (src/modules/tokens/tokens.cache.ts) and of the dashboards' reads. A trigger announces every
// change to the table (NOTIFY, migrations 040 and 730) to every instance, which empties its cache;
// while that announcement cannot be heard (the listening connection is lost), nothing is cached or
// answered from the cache. docs/performance.md.
import type { Listening } from './index.ts';

export class ChangeCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  /** Bumped by every change: a read that started before a change must not be cached after it. */
  private generation = 0;
  private feed?: Listening;

  constructor(
    /** A backstop only: announcements empty the cache at once; this bounds an entry's age regardless. */
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  /** Starts caching; until then (and while the feed is not live) every read goes to the database. */
  follow(feed: Listening): void {
    this.feed = feed;
  }

  /** Something changed (or may have, unseen): forget everything. */
  changed(): void {
    this.generation++;
    this.entries.clear();
  }

  get(key: string, now: number): V | undefined {
    if (!this.feed?.live) return undefined;
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (now < hit.until) return hit.value;
    this.entries.delete(key);
    return undefined;
  }

  /** The generation to pass to set() once the read started now has answered. */
  begin(): number {
    return this.generation;
  }

  set(key: string, value: V, startedAt: number, now: number): void {
    if (!this.feed?.live || startedAt !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until: now + this.ttlMs });
  }

  /**
   * Reads through the cache: a hit is answered with a copy (callers may change what they get); a
   * miss runs `read` and keeps a copy of its answer, unless the table changed meanwhile.
   */
  async through(key: string, read: () => Promise<V>, now: () => number = Date.now): Promise<V> {
    const hit = this.get(key, now());
    if (hit !== undefined) return structuredClone(hit);
    const generation = this.begin();
    const value = await read();
    this.set(key, structuredClone(value), generation, now());
    return value;
  }

  /** Follows `listen`'s announcements from now on (see follow); each one empties the cache. */
  async followChanges(listen: (onChange: () => void) => Promise<Listening>): Promise<void> {
    this.follow(await listen(() => this.changed()));
  }

  async close(): Promise<void> {
    const feed = this.feed;
    this.feed = undefined;
    this.changed();
    await feed?.close();
  }
}
