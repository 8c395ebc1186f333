import type { Queryable } from '../../db/index.ts';
import type { DashboardSubscriptionRecord } from './ports.ts';

export type DashboardSubscriptionRow = DashboardSubscriptionRecord & { dashboard_name: string; dashboard_created_by: string };

const COLUMNS = `s.id, s.tenant_id, s.dashboard_id, s.created_by, s.channel_ids, s.schedule, s.schedule_time,
  s.schedule_day_of_week, s.schedule_day_of_month, s.is_active, s.next_run_at, s.created_at, s.timezone, s.cron, s.attach_pdf,
  s.subscriber_attributes`;
// The name is read from the dashboard on every read, so it follows renames.
const SELECT = `SELECT ${COLUMNS}, d.name AS dashboard_name, d.created_by AS dashboard_created_by
  FROM dashboard_subscriptions s JOIN dashboards d ON d.id = s.dashboard_id`;

export class DashboardSubscriptionsRepository {
  constructor(private readonly db: Queryable) {}

  async insert(s: DashboardSubscriptionRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO dashboard_subscriptions (id, tenant_id, dashboard_id, created_by, channel_ids, schedule, schedule_time,
         schedule_day_of_week, schedule_day_of_month, is_active, next_run_at, created_at, timezone, cron, attach_pdf, subscriber_attributes)
       VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::jsonb)`,
      [
        s.id,
        s.tenant_id,
        s.dashboard_id,
        s.created_by,
        s.channel_ids,
        s.schedule,
        s.schedule_time,
        s.schedule_day_of_week,
        s.schedule_day_of_month,
        s.is_active,
        s.next_run_at,
        s.created_at,
        s.timezone,
        s.cron,
        s.attach_pdf,
        s.subscriber_attributes ? JSON.stringify(s.subscriber_attributes) : null,
      ],
    );
  }

  /**
   * Newest first. dashboardId narrows to one dashboard; dashboardCreator to the dashboards one user
   * created (a member manages the subscriptions of their own dashboards only).
   */
  async list(tenantId: string, filter: { dashboardId?: string; dashboardCreator?: string } = {}): Promise<DashboardSubscriptionRow[]> {
    return this.db.query<DashboardSubscriptionRow>(
      `${SELECT}
        WHERE s.tenant_id = $1 AND ($2::text IS NULL OR s.dashboard_id = $2) AND ($3::text IS NULL OR d.created_by = $3)
        ORDER BY s.id DESC`,
      [tenantId, filter.dashboardId ?? null, filter.dashboardCreator ?? null],
    );
  }

  async find(tenantId: string, id: string): Promise<DashboardSubscriptionRow | undefined> {
    const rows = await this.db.query<DashboardSubscriptionRow>(`${SELECT} WHERE s.tenant_id = $1 AND s.id = $2`, [tenantId, id]);
    return rows[0];
  }

  /** Any tenant's: for the worker, which checks each row's tenant against its delivery. */
  async findMany(ids: string[]): Promise<DashboardSubscriptionRow[]> {
    if (ids.length === 0) return [];
    return this.db.query<DashboardSubscriptionRow>(`${SELECT} WHERE s.id = ANY($1::text[])`, [ids]);
  }

  async setActive(tenantId: string, id: string, active: boolean, nextRunAt: Date | null): Promise<void> {
    await this.db.query('UPDATE dashboard_subscriptions SET is_active = $3, next_run_at = $4 WHERE tenant_id = $1 AND id = $2', [
      tenantId,
      id,
      active,
      nextRunAt,
    ]);
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM dashboard_subscriptions WHERE tenant_id = $1 AND id = $2 RETURNING id', [tenantId, id]);
    return rows.length > 0;
  }

  /** Takes a deleted channel out of every subscription; those left without a channel stop. */
  async removeChannel(tenantId: string, channelId: string): Promise<void> {
    await this.db.query(
      `UPDATE dashboard_subscriptions
          SET channel_ids = array_remove(channel_ids, $2),
              is_active = is_active AND cardinality(array_remove(channel_ids, $2)) > 0,
              next_run_at = CASE WHEN cardinality(array_remove(channel_ids, $2)) > 0 THEN next_run_at END
        WHERE tenant_id = $1 AND $2 = ANY (channel_ids)`,
      [tenantId, channelId],
    );
  }
}
