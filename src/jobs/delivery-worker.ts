// The delivery worker: claims due deliveries (leases, SKIP LOCKED), sends each through its
// channel's transport and records the attempt's outcome and log row in one statement. Nothing is
// held open across a network send: a claim and an outcome are separate short statements, and a
// worker that dies between them leaves a lease that runs out, after which the delivery is claimed
// again (same id, so the same webhook-id).
import os from 'node:os';
import crypto from 'node:crypto';
import { DeliveryError, type ChannelTransport } from '../adapters/delivery/types.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import type { DeliveriesRepository } from '../modules/deliveries/deliveries.repository.ts';
import type { DeliveryRecord, DeliveryTarget, DeliveryTargets } from '../modules/deliveries/delivery.ts';
import { OutcomeWriter } from './outcome-writer.ts';

export interface WorkerOptions {
  workerId?: string;
  /** Deliveries claimed per claim query. */
  batchSize?: number;
  /** Sends in flight at once. */
  concurrency?: number;
  leaseMs?: number;
  maxAttempts?: number;
  /** First retry delay; doubled at each further attempt. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How often an idle loop looks for work (also woken at once by send-now and ticks). */
  pollMs?: number;
  /** Jitter source in [0, 1), for a receiver's retry hint. */
  random?: () => number;
  onError?: (err: unknown) => void;
}

type Item = Parameters<DeliveriesRepository['finishAttempts']>[1][number];

export interface AttemptOutcome {
  id: string;
  attempt: number;
  status: 'succeeded' | 'retry' | 'failed' | 'cancelled' | 'skipped' | 'lost';
}

/** Errors that are the caller's fault will not get better by retrying; anything else might. */
function classify(err: unknown): { message: string; retryable: boolean; retryAfterMs?: number } {
  if (err instanceof DeliveryError) return { message: err.message, retryable: err.retryable, retryAfterMs: err.retryAfterMs };
  const status = (err as { status?: number })?.status;
  const message = (err as Error)?.message ?? String(err);
  if (typeof status === 'number' && status >= 400 && status < 500) return { message, retryable: false };
  return { message: `Could not compose the report: ${message}`, retryable: true };
}

export class DeliveryWorker {
  readonly workerId: string;
  private readonly o: Required<Omit<WorkerOptions, 'workerId' | 'onError'>> & Pick<WorkerOptions, 'onError'>;
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  private woken = false;
  private inFlight = new Set<Promise<unknown>>();
  private wakeTimer?: NodeJS.Timeout;
  private wakeTimerAt?: number;
  private readonly outcomes: OutcomeWriter;

  constructor(
    private readonly repo: DeliveriesRepository,
    private readonly targets: DeliveryTargets,
    private readonly transport: ChannelTransport,
    private readonly clock: Clock,
    options: WorkerOptions = {},
  ) {
    this.workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
    this.o = {
      batchSize: options.batchSize ?? 100,
      concurrency: options.concurrency ?? 100,
      leaseMs: options.leaseMs ?? 60_000,
      maxAttempts: options.maxAttempts ?? 5,
      backoffBaseMs: options.backoffBaseMs ?? 30_000,
      backoffMaxMs: options.backoffMaxMs ?? 3_600_000,
      pollMs: options.pollMs ?? 1_000,
      random: options.random ?? Math.random,
      onError: options.onError,
    };
    this.outcomes = new OutcomeWriter(repo, this.workerId);
  }

  /**
   * The delay before attempt n+1 after attempt n failed. When the receiver said when to come back
   * (Bot API retry_after, HTTP Retry-After), that time plus a small jitter (≤ 10 %, ≤ 1 s, so the
   * deliveries one 429 held back do not all return in the same millisecond), capped at the longest
   * backoff; otherwise base · 2^(n-1), capped. The attempt budget is the same either way.
   */
  backoffMs(attempt: number, retryAfterMs?: number): number {
    if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
      const jitter = Math.floor(this.o.random() * Math.min(1_000, retryAfterMs / 10));
      return Math.min(retryAfterMs + jitter, this.o.backoffMaxMs);
    }
    return Math.min(this.o.backoffBaseMs * 2 ** (attempt - 1), this.o.backoffMaxMs);
  }

  /** Claims one batch and sends it all; resolves when every attempt is recorded. For tests and the loop. */
  async runOnce(limit = this.o.batchSize, concurrency = this.o.concurrency): Promise<AttemptOutcome[]> {
    const claimed = await this.claim(limit);
    return this.runLimited(claimed, await this.resolve(claimed), concurrency);
  }

  /** Resolves a claimed batch; if that fails, each delivery is left to its lease (and logged as lost). */
  private async resolve(claimed: DeliveryRecord[]): Promise<(DeliveryTarget | Error)[]> {
    if (claimed.length === 0) return [];
    try {
      return await this.targets.resolveMany(claimed);
    } catch (err) {
      return claimed.map(() => (err instanceof Error ? err : new Error(String(err))));
    }
  }

  /** Runs claimed deliveries with at most `concurrency` at a time. */
  private async runLimited(claimed: DeliveryRecord[], targets: (DeliveryTarget | Error)[], concurrency: number): Promise<AttemptOutcome[]> {
    const out: AttemptOutcome[] = new Array(claimed.length);
    let next = 0;
    const lane = async () => {
      while (next < claimed.length) {
        const i = next++;
        out[i] = await this.attempt(claimed[i], targets[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, claimed.length) }, lane));
    return out;
  }

  private claim(limit: number): Promise<DeliveryRecord[]> {
    const now = this.clock.now();
    return this.repo.claim(this.workerId, now, new Date(now.getTime() + this.o.leaseMs), limit);
  }

  private finish(d: DeliveryRecord, outcome: Item['outcome'], log: Item['log']): Promise<boolean> {
    return this.outcomes.write({ d, outcome, log });
  }

  /** One attempt of one claimed delivery; never throws (an unexpected error leaves the lease to expire). */
  private async attempt(d: DeliveryRecord, target: DeliveryTarget | Error): Promise<AttemptOutcome> {
    const result = (status: AttemptOutcome['status']): AttemptOutcome => ({ id: d.id, attempt: d.attempt, status });
    try {
      if (target instanceof Error) throw target;
      if ('cancel' in target) {
        const ok = await this.finish(d, { status: 'cancelled', error: target.cancel, now: this.clock.now() }, null);
        return result(ok ? 'cancelled' : 'lost');
      }
      const log = (error: string | null) => ({
        id: newId(),
        subscription_owner: target.owner,
        insight_name: target.name,
        channel_type: target.channel.channel_type,
        sent_at: this.clock.now(),
        error_message: error,
      });
      if (d.attempt > this.o.maxAttempts) {
        // Claimed again after its worker died during the last allowed attempt.
        const error = `Gave up after ${this.o.maxAttempts} attempts (the last one was interrupted)`;
        // Logged as the interrupted attempt, which has no row of its own.
        const ok = await this.finish(d, { status: 'failed', error, now: this.clock.now() }, { ...log(error), attempt: this.o.maxAttempts });
        return result(ok ? 'failed' : 'lost');
      }
      try {
        const report = await target.report();
        if ('skip' in report) {
          // No delivery, so no log row: only the subscription's last_checked_at shows the check.
          const ok = await this.finish(d, { status: 'skipped', error: report.skip, now: this.clock.now() }, null);
          return result(ok ? 'skipped' : 'lost');
        }
        await this.transport.send(target.channel, report, { deliveryId: d.id, sentAt: this.clock.now() });
      } catch (err) {
        const c = classify(err);
        const now = this.clock.now();
        const retry = c.retryable && d.attempt < this.o.maxAttempts;
        const outcome = retry
          ? {
              status: 'pending' as const,
              runAt: new Date(now.getTime() + this.backoffMs(d.attempt, c.retryAfterMs)),
              error: c.message,
              now,
            }
          : { status: 'failed' as const, error: c.message, now };
        const ok = await this.finish(d, outcome, log(c.message));
        return result(!ok ? 'lost' : retry ? 'retry' : 'failed');
      }
      const ok = await this.finish(d, { status: 'succeeded', error: null, now: this.clock.now() }, log(null));
      return result(ok ? 'succeeded' : 'lost');
    } catch (err) {
      this.o.onError?.(err);
      return result('lost');
    }
  }

  /** Starts the background loop: keeps up to `concurrency` sends in flight, claiming as lanes free up. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /**
   * Wakes the loop when `at` comes on the injected clock (a slot enqueued ahead of time), or at
   * once if it has come. Only the earliest pending wake-up is kept.
   */
  wakeAt(at: Date): void {
    const delay = at.getTime() - this.clock.now().getTime();
    if (delay <= 0) {
      this.wake();
      return;
    }
    if (this.wakeTimer && this.wakeTimerAt! <= at.getTime()) return;
    clearTimeout(this.wakeTimer);
    this.wakeTimerAt = at.getTime();
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.wake();
    }, delay);
    // A pending wake-up never keeps the process alive (stop() clears it too).
    this.wakeTimer.unref();
  }

  wake(): void {
    // A wake-up while busy is kept, so the next sleep returns at once instead of waiting a poll.
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }

  /** Stops claiming, waits for the sends in flight to be recorded. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    await this.outcomes.flush();
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.wakeUp = undefined;
        resolve();
      };
      const t = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  private async run(): Promise<void> {
    while (this.running) {
      const free = this.o.concurrency - this.inFlight.size;
      let claimed: DeliveryRecord[] = [];
      let targets: (DeliveryTarget | Error)[] = [];
      // Claim in worthwhile chunks: a claim per freed lane would spend more round trips than sends.
      const worthClaiming = this.inFlight.size === 0 || free >= Math.min(this.o.batchSize, this.o.concurrency) / 4;
      if (free > 0 && worthClaiming) {
        try {
          claimed = await this.claim(Math.min(free, this.o.batchSize));
          targets = await this.resolve(claimed);
        } catch (err) {
          this.o.onError?.(err);
          await this.sleep(this.o.pollMs);
          continue;
        }
      }
      for (const [i, d] of claimed.entries()) {
        const p: Promise<unknown> = this.attempt(d, targets[i]).finally(() => {
          this.inFlight.delete(p);
          this.wake();
        });
        this.inFlight.add(p);
      }
      if (!this.running) break;
      // Full, or nothing due: wait for a lane to free up, a wake-up, or the poll interval.
      if (claimed.length === 0 || !worthClaiming || this.inFlight.size >= this.o.concurrency) await this.sleep(this.o.pollMs);
    }
  }
}
