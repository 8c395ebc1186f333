// The schedule side of both subscription kinds, one path keyed by kind: the scheduler locks the due
// subscriptions and advances their next_run_at the same way whichever table holds them. An insight
// subscription sends to one channel, a dashboard subscription to several; both read as a list here.
import type { Queryable } from '../../db/index.ts';
import type { SubscriptionKind } from '../deliveries/delivery.ts';
import type { DashboardSubscriptionRecord } from './ports.ts';

export const SUBSCRIPTION_KINDS: readonly SubscriptionKind[] = ['insight', 'dashboard'];

/** What the scheduler needs of a due subscription, whatever its kind. */
export type DueSubscription = Pick<
  DashboardSubscriptionRecord,
  | 'id'
  | 'tenant_id'
  | 'channel_ids'
  | 'schedule'
  | 'schedule_time'
  | 'schedule_day_of_week'
  | 'schedule_day_of_month'
  | 'timezone'
  | 'cron'
  | 'next_run_at'
>;

const TABLES: Record<SubscriptionKind, { table: string; channels: string }> = {
  insight: { table: 'insight_subscriptions', channels: 'ARRAY[channel_id]' },
  dashboard: { table: 'dashboard_subscriptions', channels: 'channel_ids' },
};

export class SubscriptionSchedulesRepository {
  constructor(private readonly db: Queryable) {}

  /** Active subscriptions of a kind whose slot has come, locked so that concurrent ticks split them. */
  async lockDue(kind: SubscriptionKind, now: Date, limit: number): Promise<DueSubscription[]> {
    const { table, channels } = TABLES[kind];
    return this.db.query<DueSubscription>(
      `SELECT id, tenant_id, ${channels} AS channel_ids, schedule, schedule_time, schedule_day_of_week,
              schedule_day_of_month, timezone, cron, next_run_at
         FROM ${table}
        WHERE is_active AND next_run_at <= $1
        ORDER BY next_run_at LIMIT $2
        FOR UPDATE SKIP LOCKED`,
      [now, limit],
    );
  }

  async advance(kind: SubscriptionKind, ids: string[], nextRunAts: Date[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(
      `UPDATE ${TABLES[kind].table} s SET next_run_at = v.next_run_at
         FROM unnest($1::text[], $2::timestamptz[]) AS v(id, next_run_at)
        WHERE s.id = v.id`,
      [ids, nextRunAts.map((d) => d.toISOString())],
    );
  }
}
