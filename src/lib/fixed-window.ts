// Counting per key in fixed one-minute windows on the injected clock, in this process's memory:
// per instance, which bounds the cost per instance; an exact limit across instances would need a
// shared store. Chat questions per user and failed authentications per address use it.
import type { Clock } from './clock.ts';

const WINDOW_MS = 60_000;
/** Beyond this many keys, windows that have ended are dropped, then the oldest ones. */
const MAX_KEYS = 10_000;

export class FixedWindowCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly perMinute: number,
    private readonly clock: Clock,
  ) {}

  /** Seconds until the key's window ends when it has used up its allowance, else undefined. */
  exhausted(key: string): number | undefined {
    const now = this.clock.now().getTime();
    const w = this.windows.get(key);
    if (!w || now - w.start >= WINDOW_MS || w.count < this.perMinute) return undefined;
    return Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000));
  }

  /** Counts one for the key. */
  add(key: string): void {
    const now = this.clock.now().getTime();
    let w = this.windows.get(key);
    if (!w || now - w.start >= WINDOW_MS) {
      this.windows.delete(key);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > MAX_KEYS) this.prune(now);
    }
    w.count++;
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= WINDOW_MS) this.windows.delete(k);
    // Keys are in the order their windows began: the oldest go first.
    for (const k of this.windows.keys()) {
      if (this.windows.size <= MAX_KEYS) break;
      this.windows.delete(k);
    }
  }
}
