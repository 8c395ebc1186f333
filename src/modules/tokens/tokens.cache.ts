// API tokens verified recently, by the SHA-256 of the token: a cached request then costs a hash and
// a Map lookup instead of a query (on PGlite, a trip through its single connection, which also
// serialized every other query behind it). Revocation stays immediate: every change to api_tokens
// is announced by a trigger (migration 040) and empties the cache, in this process and on every
// instance sharing the PostgreSQL database; while that announcement cannot be heard (the listening
// connection is lost), nothing is cached or answered from the cache. docs/performance.md.
import type { AuthContext } from '../../auth/context.ts';
import type { Listening } from '../../db/index.ts';

/** A backstop only: announcements empty the cache at once; this bounds an entry's age regardless. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

export class VerifiedTokens {
  private readonly entries = new Map<string, { auth: AuthContext; until: number }>();
  /** Bumped by every change: a lookup that started before a change must not be cached after it. */
  private generation = 0;
  private feed?: Listening;

  /** Starts caching; until then (and while the feed is not live) every lookup reads the database. */
  follow(feed: Listening): void {
    this.feed = feed;
  }

  /** Something in api_tokens changed (or may have, unseen): forget everything. */
  changed(): void {
    this.generation++;
    this.entries.clear();
  }

  get(hash: string, now: number): AuthContext | undefined {
    if (!this.feed?.live) return undefined;
    const hit = this.entries.get(hash);
    if (!hit) return undefined;
    if (now < hit.until) return hit.auth;
    this.entries.delete(hash);
    return undefined;
  }

  /** The generation to pass to set() once the lookup started now has answered. */
  begin(): number {
    return this.generation;
  }

  set(hash: string, auth: AuthContext, startedAt: number, now: number): void {
    if (!this.feed?.live || startedAt !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, { auth, until: now + TTL_MS });
  }

  async close(): Promise<void> {
    const feed = this.feed;
    this.feed = undefined;
    this.changed();
    await feed?.close();
  }
}
