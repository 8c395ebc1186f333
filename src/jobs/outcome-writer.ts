// Group commit for attempt outcomes: the worker's outcomes (state change + log row) are written a
// few hundred at a time in one statement instead of one round trip each. An outcome waiting here
// when the process dies is simply not recorded: its delivery's lease runs out and it is sent again
// with the same id, which is the at-least-once promise anyway.
import type { DeliveriesRepository } from '../modules/deliveries/deliveries.repository.ts';

type Item = Parameters<DeliveriesRepository['finishAttempts']>[1][number];

export class OutcomeWriter {
  private pending: { item: Item; resolve: (ok: boolean) => void; reject: (err: unknown) => void }[] = [];
  private timer?: NodeJS.Timeout;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly repo: DeliveriesRepository,
    private readonly workerId: string,
    private readonly maxBatch = 200,
    private readonly delayMs = 5,
  ) {}

  /** Resolves with whether the outcome was recorded (false: the claim had been lost). */
  write(item: Item): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxBatch) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
    });
  }

  /** Writes what is pending; resolves when everything written so far is stored. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending.splice(0);
    if (batch.length > 0) {
      // One statement at a time: batches are ordered, and the pool is left to the claims.
      this.chain = this.chain.then(async () => {
        try {
          const recorded = await this.repo.finishAttempts(
            this.workerId,
            batch.map((b) => b.item),
          );
          for (const b of batch) b.resolve(recorded.has(b.item.d.id));
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      });
    }
    return this.chain;
  }
}
