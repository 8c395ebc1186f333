// Chat costs LLM calls, so each user gets config.chatRateLimitPerMinute questions per minute on
// top of the global per-credential limit (which runs before authentication and cannot see the
// user). Fixed one-minute windows on the injected clock, in memory: per instance, which bounds
// the cost per instance; a shared store would be needed for an exact limit across instances.
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';

const WINDOW_MS = 60_000;

export class ChatRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly perMinute: number, private readonly clock: Clock) {}

  /** Counts one question for the user, or throws RATE_LIMITED with Retry-After. */
  take(tenantId: string, userId: string): void {
    const now = this.clock.now().getTime();
    const key = JSON.stringify([tenantId, userId]);
    let w = this.windows.get(key);
    if (!w || now - w.start >= WINDOW_MS) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 10_000) this.prune(now);
    }
    if (w.count >= this.perMinute) {
      const retry = Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000));
      throw new AppError('RATE_LIMITED', `Chat is limited to ${this.perMinute} questions per minute per user; retry in ${retry} s.`, {
        headers: { 'Retry-After': String(retry) },
      });
    }
    w.count++;
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= WINDOW_MS) this.windows.delete(k);
  }
}
