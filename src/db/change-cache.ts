// Rows remembered in memory until their table changes: the generic half of the API token cache
// (src/modules/tokens/tokens.cache.ts) and of the dashboards' reads. A trigger announces every
// change to the table (NOTIFY, migrations 040, 730 and 765) to every instance, which forgets what
// the change may have touched: everything, or (scope) what one tenant's change touched. While that
// announcement cannot be heard (the listening connection is lost), nothing is cached or answered
// from the cache. docs/performance.md §20.
import type { Listening } from './index.ts';

interface Entry<V> {
  value: V;
  until: number;
  /** What a change of one scope (changedIn) may forget: e.g. the tenant whose rows it holds. */
  scope?: string;
}

export class ChangeCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** The keys of each scope's entries. */
  private readonly scopes = new Map<string, Set<string>>();
  /** Bumped by every change: a read that started before a change must not be cached after it. */
  private generation = 0;
  /** Bumped by every change of one scope: the same for a read of that scope. */
  private readonly scopeGenerations = new Map<string, number>();
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
    this.scopes.clear();
    // Reads in flight are refused by the generation; the scopes' counts can start again.
    this.scopeGenerations.clear();
  }

  /**
   * Something changed in one scope only: forgets that scope's entries `affected` picks (all of
   * them without it); a read of the scope in flight is not kept. Other scopes' entries stay.
   */
  changedIn(scope: string, affected?: (value: V, key: string) => boolean): void {
    this.scopeGenerations.set(scope, (this.scopeGenerations.get(scope) ?? 0) + 1);
    // One count per scope ever changed: beyond the entries' bound, start again from nothing (the
    // global generation refuses every read in flight, so no count can be reused by a stale read).
    if (this.scopeGenerations.size > this.maxEntries) return this.changed();
    const keys = this.scopes.get(scope);
    if (!keys) return;
    // A scope's keys are always entries (set, forget and changed keep the two in step).
    for (const key of keys) {
      const entry = this.entries.get(key)!;
      if (!affected || affected(entry.value, key)) this.forget(key, entry);
    }
  }

  get(key: string, now: number): V | undefined {
    if (!this.feed?.live) return undefined;
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (now < hit.until) return hit.value;
    this.forget(key, hit);
    return undefined;
  }

  private forget(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    if (entry.scope === undefined) return;
    const keys = this.scopes.get(entry.scope);
    keys?.delete(key);
    if (keys && !keys.size) this.scopes.delete(entry.scope);
  }

  /** The generation to pass to set() once the read started now has answered. */
  begin(): number {
    return this.generation;
  }

  set(key: string, value: V, startedAt: number, now: number, scope?: string): void {
    if (!this.feed?.live || startedAt !== this.generation) return;
    const old = this.entries.get(key);
    if (old) this.forget(key, old);
    if (this.entries.size >= this.maxEntries) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.forget(oldest, entry);
    }
    this.entries.set(key, { value, until: now + this.ttlMs, ...(scope === undefined ? {} : { scope }) });
    if (scope !== undefined) {
      let keys = this.scopes.get(scope);
      if (!keys) this.scopes.set(scope, (keys = new Set()));
      keys.add(key);
    }
  }

  /**
   * Reads through the cache: a hit is answered with a copy (callers may change what they get); a
   * miss runs `read` and keeps a copy of its answer, unless the table (or, for a read of a scope,
   * that scope) changed meanwhile.
   */
  async through(key: string, read: () => Promise<V>, now: () => number = Date.now, scope?: string): Promise<V> {
    const hit = this.get(key, now());
    if (hit !== undefined) return structuredClone(hit);
    const generation = this.begin();
    const scoped = scope === undefined ? 0 : (this.scopeGenerations.get(scope) ?? 0);
    const value = await read();
    if (scope === undefined || (this.scopeGenerations.get(scope) ?? 0) === scoped) {
      this.set(key, structuredClone(value), generation, now(), scope);
    }
    return value;
  }

  /**
   * Follows `listen`'s announcements from now on (see follow). Each one empties the cache, unless
   * `heard` is given: it gets the announcement's payload (none when the subscription was lost or
   * made: then anything may have changed) and forgets what that names.
   */
  async followChanges(
    listen: (onChange: (payload?: string) => void) => Promise<Listening>,
    heard: (payload?: string) => void = () => this.changed(),
  ): Promise<void> {
    this.follow(await listen(heard));
  }

  async close(): Promise<void> {
    const feed = this.feed;
    this.feed = undefined;
    this.changed();
    await feed?.close();
  }
}
