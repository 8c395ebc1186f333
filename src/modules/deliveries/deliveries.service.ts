import type { AuthContext } from '../../auth/context.ts';
import { ownerScope } from '../../auth/policy.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { SendNowQueue } from './delivery.ts';
import type { Queryable } from '../../db/index.ts';
import { DeliveriesRepository, type DeliveryLogRecord } from './deliveries.repository.ts';
import type { DeliveryLogView } from './deliveries.schemas.ts';

export function toLogView(r: DeliveryLogRecord): DeliveryLogView {
  return {
    id: r.id,
    subscription_id: r.subscription_id,
    subscription_kind: r.subscription_kind,
    insight_name: r.insight_name,
    channel_id: r.channel_id,
    channel_type: r.channel_type,
    sent_at: r.sent_at.toISOString(),
    status: r.status,
    error_message: r.error_message,
    attempt: r.attempt,
  };
}

/** The queue's front door for send-now: the delivery is stored before the 202, then the worker is woken. */
export class DeliveryQueue implements SendNowQueue {
  private wakers: (() => void)[] = [];

  constructor(
    private readonly repo: DeliveriesRepository,
    private readonly clock: Clock,
  ) {}

  onEnqueued(wake: () => void): void {
    this.wakers.push(wake);
  }

  wake(): void {
    for (const w of this.wakers) w();
  }

  async sendNow(input: { tenantId: string; kind: 'insight' | 'dashboard'; subscriptionId: string; channelIds: string[] }) {
    const now = this.clock.now();
    await this.repo.enqueue(
      input.channelIds.map((channelId) => ({
        id: newId(),
        tenant_id: input.tenantId,
        subscription_kind: input.kind,
        subscription_id: input.subscriptionId,
        slot_at: now,
        channel_id: channelId,
        trigger: 'manual' as const,
      })),
      now,
    );
    // Two sends in the same millisecond are one: the key (subscription, slot, channel) holds them.
    const deliveries = await this.repo.forSlot(input.kind, input.subscriptionId, now);
    this.wake();
    return { slot_at: now, deliveries: deliveries.map((d) => ({ id: d.id, channel_id: d.channel_id, status: d.status })) };
  }
}

export class DeliveryLogsService {
  constructor(private readonly repo: DeliveriesRepository) {}

  /** Managers see the tenant's log; members the attempts of their own subscriptions. Fetches limit+1 to tell whether a next page exists. */
  async list(
    auth: AuthContext,
    q: { limit: number; cursor?: string; status?: 'success' | 'failed'; subscription_id?: string },
  ): Promise<DeliveryLogView[]> {
    const rows = await this.repo.listLogs(auth.tenantId, {
      owner: ownerScope(auth),
      status: q.status,
      subscriptionId: q.subscription_id,
      cursor: q.cursor,
      limit: q.limit + 1,
    });
    return rows.map(toLogView);
  }
}

/**
 * What deleting a channel does to its deliveries: pending ones are cancelled in the channels
 * module's delete transaction; the log of past attempts stays (docs/notifications.md).
 */
export function cancelChannelDeliveries(clock: Clock) {
  return (tx: Queryable, tenantId: string, channelId: string): Promise<void> =>
    new DeliveriesRepository(tx).cancelForChannel(tenantId, channelId, clock.now());
}
