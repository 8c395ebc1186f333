import type { Queryable } from '../../db/index.ts';

/** Which tenants got a starter dashboard, and which one (starter_dashboards, migration 721). */
export class StarterRepository {
  constructor(private readonly db: Queryable) {}

  /** The tenant's recorded starter: undefined when none was ever made; dashboard_id null while being made. */
  async find(tenantId: string): Promise<{ dashboard_id: string | null } | undefined> {
    const rows = await this.db.query<{ dashboard_id: string | null }>(`SELECT dashboard_id FROM starter_dashboards WHERE tenant_id = $1`, [
      tenantId,
    ]);
    return rows[0];
  }

  /** Claims the making of the tenant's starter; false when it was made (or is being made) already. */
  async claim(tenantId: string, at: Date): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO starter_dashboards (tenant_id, dashboard_id, created_at) VALUES ($1, NULL, $2)
       ON CONFLICT (tenant_id) DO NOTHING RETURNING tenant_id`,
      [tenantId, at],
    );
    return rows.length > 0;
  }

  /** Records the starter made (again, when asked for after the last one was deleted). */
  async record(tenantId: string, dashboardId: string, at: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO starter_dashboards (tenant_id, dashboard_id, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id) DO UPDATE SET dashboard_id = EXCLUDED.dashboard_id, created_at = EXCLUDED.created_at`,
      [tenantId, dashboardId, at],
    );
  }

  /** Gives up a claim whose making failed, so a later seed may try again. */
  async release(tenantId: string): Promise<void> {
    await this.db.query(`DELETE FROM starter_dashboards WHERE tenant_id = $1 AND dashboard_id IS NULL`, [tenantId]);
  }
}
