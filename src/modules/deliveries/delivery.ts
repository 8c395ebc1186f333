// A delivery as the queue holds it, and what it resolves to before it is sent. The worker
// (src/jobs/delivery-worker.ts) claims and sends; the subscriptions module says what a delivery of
// one of its subscriptions is (src/modules/subscriptions/delivery-targets.ts). Both read these types
// from here, so neither reaches into the other.
import type { OutboundChannel } from '../../adapters/delivery/types.ts';
import type { Report } from '../../lib/report.ts';

export type SubscriptionKind = 'insight' | 'dashboard';
export type DeliveryStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'skipped';

export interface NewDelivery {
  id: string;
  tenant_id: string;
  subscription_kind: SubscriptionKind;
  subscription_id: string;
  slot_at: Date;
  channel_id: string;
  trigger: 'schedule' | 'manual';
}

export interface DeliveryRecord extends NewDelivery {
  status: DeliveryStatus;
  attempt: number;
  run_at: Date;
  lease_until: Date | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** What a delivery resolves to before sending: or a reason it will never be sent. */
export type DeliveryTarget =
  | { cancel: string }
  | {
      owner: string;
      /** The insight's name, or the dashboard's for a dashboard report (docs/product.md §6). */
      name: string;
      channel: OutboundChannel;
      /** Composes the report; may run queries, may throw; `skip` when the slot sends nothing (an alert whose condition does not hold). */
      report: () => Promise<Report | { skip: string }>;
    };

export interface DeliveryTargets {
  /** One target per delivery, in order. */
  resolveMany(ds: DeliveryRecord[]): Promise<DeliveryTarget[]>;
}

/**
 * Enqueues a send-now and wakes the worker: the queue this module keeps (deliveries.service.ts),
 * as the subscriptions module calls it.
 */
export interface SendNowQueue {
  sendNow(input: {
    tenantId: string;
    kind: SubscriptionKind;
    subscriptionId: string;
    channelIds: string[];
  }): Promise<{ slot_at: Date; deliveries: { id: string; channel_id: string; status: string }[] }>;
}
