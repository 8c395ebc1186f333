// The delivery queue and the delivery log. Every time here comes from the injected Clock (passed
// in as parameters), never from the database's now(), so schedules and leases are testable.
import type { ChannelType } from '../../adapters/delivery/types.ts';
import type { Queryable } from '../../db/index.ts';
import type { DeliveryRecord, NewDelivery, SubscriptionKind } from './delivery.ts';

export type { DeliveryRecord, NewDelivery, SubscriptionKind } from './delivery.ts';

/** What a finished attempt writes into its log row. */
export interface AttemptLog {
  id: string;
  subscription_owner: string;
  insight_name: string;
  channel_type: string;
  sent_at: Date;
  error_message: string | null;
  /** The attempt the row is about, when not the claim's own (giving up after a worker died during the last). */
  attempt?: number;
}

export interface DeliveryLogRecord {
  id: string;
  tenant_id: string;
  delivery_id: string;
  subscription_kind: SubscriptionKind;
  subscription_id: string;
  subscription_owner: string;
  insight_name: string;
  channel_id: string;
  channel_type: ChannelType;
  sent_at: Date;
  status: 'success' | 'failed';
  error_message: string | null;
  attempt: number;
}

const LOG_COLUMNS = `id, tenant_id, delivery_id, subscription_kind, subscription_id, subscription_owner, insight_name,
  channel_id, channel_type, sent_at, status, error_message, attempt`;

export class DeliveriesRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Idempotent: a (subscription, slot, channel) already queued is left as it is. Returns the rows
   * now queued for the keys. A slot enqueued ahead of time waits for it (run_at = slot_at).
   */
  async enqueue(rows: NewDelivery[], now: Date): Promise<number> {
    if (rows.length === 0) return 0;
    const inserted = await this.db.query(
      `INSERT INTO deliveries (id, tenant_id, subscription_kind, subscription_id, slot_at, channel_id, trigger,
                               status, attempt, run_at, created_at, updated_at)
       SELECT v.id, v.tenant_id, v.kind, v.subscription_id, v.slot_at, v.channel_id, v.trigger, 'pending', 0,
              GREATEST(v.slot_at, $8), $8, $8
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[])
              AS v(id, tenant_id, kind, subscription_id, slot_at, channel_id, trigger)
       ON CONFLICT (subscription_kind, subscription_id, slot_at, channel_id) DO NOTHING
       RETURNING id`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.tenant_id),
        rows.map((r) => r.subscription_kind),
        rows.map((r) => r.subscription_id),
        rows.map((r) => r.slot_at.toISOString()),
        rows.map((r) => r.channel_id),
        rows.map((r) => r.trigger),
        now,
      ],
    );
    return inserted.length;
  }

  /**
   * Claims up to `limit` deliveries that are due, or whose worker's lease ran out (it died
   * mid-send). SKIP LOCKED lets instances claim side by side without waiting on each other; the
   * claim itself counts as an attempt.
   */
  async claim(workerId: string, now: Date, leaseUntil: Date, limit: number): Promise<DeliveryRecord[]> {
    return this.db.query<DeliveryRecord>(
      `UPDATE deliveries d
          SET status = 'running', attempt = d.attempt + 1, lease_until = $3, locked_by = $1, updated_at = $2
        WHERE d.id IN (
          SELECT id FROM deliveries
           WHERE (status = 'pending' AND run_at <= $2) OR (status = 'running' AND lease_until < $2)
           ORDER BY run_at
           LIMIT $4
           FOR UPDATE SKIP LOCKED)
        RETURNING d.*`,
      [workerId, now, leaseUntil, limit],
    );
  }

  /**
   * Ends attempts and writes their log rows in one statement (the worker's group commit), so a
   * state change cannot exist without its log row. Only the worker that still holds a claim may
   * end it: a worker whose lease expired and whose delivery was claimed again writes nothing.
   * Returns the ids whose outcome was recorded (the others had lost their claim).
   *
   * `d.id = ANY(…)` repeats the join on the primary key as an index condition. Without it, in a
   * busy slot (statistics lagging behind thousands of fresh rows) PostgreSQL planned a nested loop
   * over every running delivery per outcome: 10–25 ms a statement, and as outcomes are written one
   * statement at a time, the ceiling on deliveries per second (docs/notifications.md "Lateness").
   */
  async finishAttempts(
    workerId: string,
    items: {
      d: Pick<DeliveryRecord, 'id' | 'attempt'>;
      outcome: { status: 'succeeded' | 'failed' | 'pending' | 'cancelled' | 'skipped'; runAt?: Date; error: string | null; now: Date };
      log: AttemptLog | null;
    }[],
  ): Promise<Set<string>> {
    if (items.length === 0) return new Set();
    const col = <T>(f: (i: (typeof items)[number]) => T) => items.map(f);
    const iso = (d: Date | undefined | null) => (d ? d.toISOString() : null);
    const rows = await this.db.query<{ id: string }>(
      `WITH v AS (
         SELECT * FROM unnest($2::text[], $3::int[], $4::text[], $5::timestamptz[], $6::text[], $7::timestamptz[],
                              $8::text[], $9::text[], $10::text[], $11::text[], $12::timestamptz[], $13::int[])
           AS v(id, attempt, status, run_at, error, now, log_id, owner, name, channel_type, sent_at, log_attempt)),
       done AS (
         UPDATE deliveries d
            SET status = v.status, run_at = COALESCE(v.run_at, d.run_at), last_error = v.error,
                lease_until = NULL, locked_by = NULL, updated_at = v.now
           FROM v
          WHERE d.id = v.id AND d.id = ANY($2::text[]) AND d.locked_by = $1 AND d.attempt = v.attempt AND d.status = 'running'
         RETURNING d.id, d.tenant_id, d.subscription_kind, d.subscription_id, d.channel_id, d.attempt,
                   v.status AS new_status, v.error, v.log_id, v.owner, v.name, v.channel_type, v.sent_at, v.log_attempt),
       logged AS (
         INSERT INTO delivery_logs (${LOG_COLUMNS})
         SELECT log_id, tenant_id, id, subscription_kind, subscription_id, owner, name, channel_id, channel_type, sent_at,
                CASE WHEN new_status = 'succeeded' THEN 'success' ELSE 'failed' END, error, COALESCE(log_attempt, attempt)
           FROM done WHERE log_id IS NOT NULL)
       SELECT id FROM done`,
      [
        workerId,
        col((i) => i.d.id),
        col((i) => i.d.attempt),
        col((i) => i.outcome.status),
        col((i) => iso(i.outcome.runAt)),
        col((i) => i.outcome.error),
        col((i) => iso(i.outcome.now)),
        col((i) => i.log?.id ?? null),
        col((i) => i.log?.subscription_owner ?? null),
        col((i) => i.log?.insight_name ?? null),
        col((i) => i.log?.channel_type ?? null),
        col((i) => iso(i.log?.sent_at)),
        col((i) => i.log?.attempt ?? null),
      ],
    );
    return new Set(rows.map((r) => r.id));
  }

  async forSlot(kind: SubscriptionKind, subscriptionId: string, slotAt: Date): Promise<DeliveryRecord[]> {
    return this.db.query<DeliveryRecord>(
      'SELECT * FROM deliveries WHERE subscription_kind = $1 AND subscription_id = $2 AND slot_at = $3 ORDER BY channel_id',
      [kind, subscriptionId, slotAt],
    );
  }

  async find(id: string): Promise<DeliveryRecord | undefined> {
    return (await this.db.query<DeliveryRecord>('SELECT * FROM deliveries WHERE id = $1', [id]))[0];
  }

  /** Deliveries not yet finished that will never be sent (their channel is gone). */
  async cancelForChannel(tenantId: string, channelId: string, now: Date): Promise<void> {
    await this.db.query(
      `UPDATE deliveries SET status = 'cancelled', last_error = 'The channel was deleted', lease_until = NULL, updated_at = $3
        WHERE tenant_id = $1 AND channel_id = $2 AND status = 'pending'`,
      [tenantId, channelId, now],
    );
  }

  /** Newest first, keyset paged on the UUIDv7 id. owner narrows to one user's subscriptions (members). */
  async listLogs(
    tenantId: string,
    filter: { owner?: string; status?: string; subscriptionId?: string; cursor?: string; limit: number },
  ): Promise<DeliveryLogRecord[]> {
    return this.db.query<DeliveryLogRecord>(
      `SELECT ${LOG_COLUMNS} FROM delivery_logs
        WHERE tenant_id = $1
          AND ($2::text IS NULL OR subscription_owner = $2)
          AND ($3::text IS NULL OR status = $3)
          AND ($4::text IS NULL OR subscription_id = $4)
          AND ($5::text IS NULL OR id < $5)
        ORDER BY id DESC
        LIMIT $6`,
      [tenantId, filter.owner ?? null, filter.status ?? null, filter.subscriptionId ?? null, filter.cursor ?? null, filter.limit],
    );
  }
}
