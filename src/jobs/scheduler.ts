// The scheduler tick: turns subscriptions whose slot has come into queued deliveries. Each batch
// is one short transaction that locks the due subscriptions (SKIP LOCKED, so instances ticking at
// once split them), enqueues one delivery per channel (idempotent on its key) and advances
// next_run_at — so a slot is enqueued once however many instances tick, and never lost: if the
// transaction fails, next_run_at is not advanced and the next tick tries again.
import type { Db } from '../db/index.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { DeliveriesRepository, type NewDelivery } from '../modules/deliveries/deliveries.repository.ts';
import { SUBSCRIPTION_KINDS, SubscriptionSchedulesRepository } from '../modules/subscriptions/schedules.repository.ts';
import type { SubscriptionKind } from '../modules/deliveries/delivery.ts';
import { dueSlot } from '../modules/subscriptions/schedule.ts';
import { scheduleOf } from '../modules/subscriptions/schedule-input.ts';

/**
 * How far ahead the background loop enqueues slots. A delivery enqueued ahead waits for its slot
 * (run_at = slot_at), so when a busy minute comes the scheduler's work — locking thousands of
 * subscriptions, computing their next slots, inserting their deliveries — is already done and
 * the slot's CPU and database time go to sending. Everything else is unchanged: a subscription
 * switched off or deleted before its slot has its delivery cancelled by the worker.
 */
export const ENQUEUE_AHEAD_MS = 15_000;

export interface TickResult {
  /** Deliveries queued by this tick. */
  enqueued: number;
  /** Slots passed over because they were 6 h late or more. */
  skipped: number;
}

export class Scheduler {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** Told the earliest run_at of what a batch enqueued (the worker wakes then). */
    private readonly onEnqueued: (firstRunAt: Date) => void = () => {},
    private readonly batchSize = 500,
  ) {}

  /** Enqueues the slots due by now + aheadMs (tests tick with 0: only what is due). */
  async tick(aheadMs = 0): Promise<TickResult> {
    const now = this.clock.now();
    const horizon = new Date(now.getTime() + aheadMs);
    const total: TickResult = { enqueued: 0, skipped: 0 };
    for (const kind of SUBSCRIPTION_KINDS) {
      for (;;) {
        const r = await this.db.transaction((tx) => this.batch(kind, tx, horizon, now));
        total.enqueued += r.enqueued;
        total.skipped += r.skipped;
        // Workers start on the first batch while the tick enqueues the rest.
        if (r.enqueued > 0 && r.firstRunAt) this.onEnqueued(r.firstRunAt);
        if (r.locked < this.batchSize) break;
      }
    }
    return total;
  }

  private async batch(kind: SubscriptionKind, tx: Parameters<Parameters<Db['transaction']>[0]>[0], horizon: Date, now: Date) {
    const schedules = new SubscriptionSchedulesRepository(tx);
    const subs = await schedules.lockDue(kind, horizon, this.batchSize);
    const deliveries: NewDelivery[] = [];
    const ids: string[] = [];
    const nexts: Date[] = [];
    let skipped = 0;
    for (const s of subs) {
      const { send, next } = dueSlot(scheduleOf(s), s.next_run_at!, horizon);
      if (send) {
        for (const channelId of s.channel_ids) {
          deliveries.push({
            id: newId(),
            tenant_id: s.tenant_id,
            subscription_kind: kind,
            subscription_id: s.id,
            slot_at: send,
            channel_id: channelId,
            trigger: 'schedule',
          });
        }
      } else {
        skipped++;
      }
      ids.push(s.id);
      nexts.push(next);
    }
    const enqueued = await new DeliveriesRepository(tx).enqueue(deliveries, now);
    await schedules.advance(kind, ids, nexts);
    const first = deliveries.reduce<number | undefined>(
      (m, d) => Math.min(m ?? Infinity, Math.max(d.slot_at.getTime(), now.getTime())),
      undefined,
    );
    return { locked: subs.length, enqueued, skipped, firstRunAt: first === undefined ? undefined : new Date(first) };
  }
}
