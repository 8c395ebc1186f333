// Chat costs LLM calls, so each user gets config.chatRateLimitPerMinute questions per minute on
// top of the global per-caller limit, counted per instance (src/lib/fixed-window.ts).
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { FixedWindowCounter } from '../../lib/fixed-window.ts';

export class ChatRateLimiter {
  private readonly counter: FixedWindowCounter;

  constructor(
    private readonly perMinute: number,
    clock: Clock,
  ) {
    this.counter = new FixedWindowCounter(perMinute, clock);
  }

  /** Counts one question for the user, or throws RATE_LIMITED with Retry-After. */
  take(tenantId: string, userId: string): void {
    const key = JSON.stringify([tenantId, userId]);
    const retry = this.counter.exhausted(key);
    if (retry !== undefined) {
      throw new AppError('RATE_LIMITED', `Chat is limited to ${this.perMinute} questions per minute per user; retry in ${retry} s.`, {
        headers: { 'Retry-After': String(retry) },
      });
    }
    this.counter.add(key);
  }
}
