import type { Queryable } from '../../db/index.ts';
import type { InsightSubscriptionRecord } from './ports.ts';

const COLUMNS = `id, tenant_id, created_by, insight_code, channel_id, channel_type, schedule, schedule_time,
  schedule_day_of_week, schedule_day_of_month, granularity, country, is_active, next_run_at, created_at,
  timezone, cron, condition, notify, last_checked_at, last_condition_met, filters, compare, subscriber_attributes`;

export class InsightSubscriptionsRepository {
  constructor(private readonly db: Queryable) {}

  async insert(s: InsightSubscriptionRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO insight_subscriptions (${COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18::jsonb, $19, $20, $21, $22::jsonb,
               $23, $24::jsonb)`,
      [
        s.id,
        s.tenant_id,
        s.created_by,
        s.insight_code,
        s.channel_id,
        s.channel_type,
        s.schedule,
        s.schedule_time,
        s.schedule_day_of_week,
        s.schedule_day_of_month,
        s.granularity,
        s.country,
        s.is_active,
        s.next_run_at,
        s.created_at,
        s.timezone,
        s.cron,
        s.condition ? JSON.stringify(s.condition) : null,
        s.notify,
        s.last_checked_at,
        s.last_condition_met,
        s.filters ? JSON.stringify(s.filters) : null,
        s.compare,
        s.subscriber_attributes ? JSON.stringify(s.subscriber_attributes) : null,
      ],
    );
  }

  /** Newest first; createdBy limits the list to one user's subscriptions (members). */
  async list(tenantId: string, createdBy?: string): Promise<InsightSubscriptionRecord[]> {
    return this.db.query<InsightSubscriptionRecord>(
      `SELECT ${COLUMNS} FROM insight_subscriptions
        WHERE tenant_id = $1 AND ($2::text IS NULL OR created_by = $2)
        ORDER BY id DESC`,
      [tenantId, createdBy ?? null],
    );
  }

  async find(tenantId: string, id: string): Promise<InsightSubscriptionRecord | undefined> {
    const rows = await this.db.query<InsightSubscriptionRecord>(
      `SELECT ${COLUMNS} FROM insight_subscriptions WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0];
  }

  /** Any tenant's: for the worker, which checks each row's tenant against its delivery. */
  async findMany(ids: string[]): Promise<InsightSubscriptionRecord[]> {
    if (ids.length === 0) return [];
    return this.db.query<InsightSubscriptionRecord>(`SELECT ${COLUMNS} FROM insight_subscriptions WHERE id = ANY($1::text[])`, [ids]);
  }

  async setActive(tenantId: string, id: string, active: boolean, nextRunAt: Date | null): Promise<InsightSubscriptionRecord | undefined> {
    const rows = await this.db.query<InsightSubscriptionRecord>(
      `UPDATE insight_subscriptions SET is_active = $3, next_run_at = $4
        WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [tenantId, id, active, nextRunAt],
    );
    return rows[0];
  }

  /**
   * Records a slot's evaluation of the alert condition, with the rows that met it (per-value
   * alerts), and returns whether it held at the slot checked before and for which rows (null:
   * none). A retry of the same slot keeps that earlier state, so on_change still sends it. One
   * statement, so overlapping attempts read and write one state.
   */
  async recordCheck(
    id: string,
    slotAt: Date,
    met: boolean,
    keys: string[] = [],
  ): Promise<{ before: boolean | null; beforeKeys: string[] | null } | undefined> {
    const rows = await this.db.query<{ before: boolean | null; before_keys: string[] | null }>(
      `UPDATE insight_subscriptions
          SET previous_condition_met = CASE WHEN last_checked_at = $2 THEN previous_condition_met ELSE last_condition_met END,
              previous_met_keys = CASE WHEN last_checked_at = $2 THEN previous_met_keys ELSE last_met_keys END,
              last_checked_at = $2, last_condition_met = $3, last_met_keys = $4::jsonb
        WHERE id = $1
        RETURNING previous_condition_met AS before, previous_met_keys AS before_keys`,
      [id, slotAt, met, JSON.stringify(keys)],
    );
    return rows[0] && { before: rows[0].before, beforeKeys: rows[0].before_keys };
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM insight_subscriptions WHERE tenant_id = $1 AND id = $2 RETURNING id', [tenantId, id]);
    return rows.length > 0;
  }

  async deleteByChannel(tenantId: string, channelId: string): Promise<number> {
    const rows = await this.db.query('DELETE FROM insight_subscriptions WHERE tenant_id = $1 AND channel_id = $2 RETURNING id', [
      tenantId,
      channelId,
    ]);
    return rows.length;
  }
}
