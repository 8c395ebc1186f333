// The scheduler tick: turns subscriptions whose slot has come into queued deliveries. Each batch
// is one short transaction that locks the due subscriptions (SKIP LOCKED, so instances ticking at
// once split them), enqueues one delivery per channel (idempotent on its key) and advances
// next_run_at — so a slot is enqueued once however many instances tick, and never lost: if the
// transaction fails, next_run_at is not advanced and the next tick tries again.
import type { Db } from '../db/index.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { DeliveriesRepository, type NewDelivery } from '../modules/deliveries/deliveries.repository.ts';
import { DashboardSubscriptionsRepository } from '../modules/subscriptions/dashboard-subscriptions.repository.ts';
import { InsightSubscriptionsRepository } from '../modules/subscriptions/insight-subscriptions.repository.ts';
import { dueSlot } from '../modules/subscriptions/schedule.ts';
import { scheduleOf } from '../modules/subscriptions/schedule-input.ts';

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
    private readonly onEnqueued: () => void = () => {},
    private readonly batchSize = 500,
  ) {}

  async tick(): Promise<TickResult> {
    const now = this.clock.now();
    const total: TickResult = { enqueued: 0, skipped: 0 };
    for (const kind of ['insight', 'dashboard'] as const) {
      for (;;) {
        const r = await this.db.transaction((tx) => this.batch(kind, tx, now));
        total.enqueued += r.enqueued;
        total.skipped += r.skipped;
        // Workers start on the first batch while the tick enqueues the rest.
        if (r.enqueued > 0) this.onEnqueued();
        if (r.locked < this.batchSize) break;
      }
    }
    return total;
  }

  private async batch(kind: 'insight' | 'dashboard', tx: Parameters<Parameters<Db['transaction']>[0]>[0], now: Date) {
    const subs =
      kind === 'insight'
        ? (await new InsightSubscriptionsRepository(tx).lockDue(now, this.batchSize)).map((s) => ({ ...s, channels: [s.channel_id] }))
        : (await new DashboardSubscriptionsRepository(tx).lockDue(now, this.batchSize)).map((s) => ({ ...s, channels: s.channel_ids }));
    const deliveries: NewDelivery[] = [];
    const ids: string[] = [];
    const nexts: Date[] = [];
    let skipped = 0;
    for (const s of subs) {
      const { send, next } = dueSlot(scheduleOf(s), s.next_run_at!, now);
      if (send) {
        for (const channelId of s.channels) {
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
    if (kind === 'insight') await new InsightSubscriptionsRepository(tx).advance(ids, nexts);
    else await new DashboardSubscriptionsRepository(tx).advance(ids, nexts);
    return { locked: subs.length, enqueued, skipped };
  }
}
