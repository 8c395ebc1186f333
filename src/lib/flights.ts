// Reads in flight, shared by key (docs/performance.md §14): a caller asking for what another caller
// is already reading joins that read instead of starting its own. Caches of the warehouse's answers
// (results, a dimension's values, a time dimension's span) fill once per key; without this, the
// first seconds after a start or a load sent one identical read per concurrent caller — 32 chats of
// one tenant each listing the same dimension values — and those reads held the warehouse's
// connections while every other tenant's read waited.
//
// A read is shared only while it runs: once it settles its key is free, so a failure is not
// remembered (the next caller tries again) and the caller's own cache decides what is kept.

export class Flights {
  private readonly running = new Map<string, Promise<unknown>>();

  /** The read in flight under `key`, or `read()` started and shared under it until it settles. */
  join<T>(key: string, read: () => Promise<T>): Promise<T> {
    const inFlight = this.running.get(key);
    if (inFlight) return inFlight as Promise<T>;
    const started = read().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }

  /** Reads in flight now. */
  get size(): number {
    return this.running.size;
  }
}
