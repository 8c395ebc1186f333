import { ChangeCache } from '../../db/change-cache.ts';
import type { Db, Listening, Queryable } from '../../db/index.ts';
import type { Page } from '../../lib/paging.ts';
import type { GlobalFilterPreset } from './dashboards.schemas.ts';

export interface DashboardRecord {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  created_by: string;
  created_by_name: string;
  is_shared: boolean;
  shared_with_emails: string[];
  widget_ids: string[];
  global_filter_presets: GlobalFilterPreset[];
  active_preset_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Whose dashboards a list shows: everything of the tenant, or what one member may view. */
export type Visibility = { all: true } | { all: false; userId: string; email: string | null };

export type DashboardChanges = Partial<
  Pick<
    DashboardRecord,
    'name' | 'description' | 'is_shared' | 'shared_with_emails' | 'widget_ids' | 'global_filter_presets' | 'active_preset_id' | 'updated_at'
  >
>;

const COLUMNS = `id, tenant_id, name, description, created_by, created_by_name, is_shared, shared_with_emails,
  widget_ids, global_filter_presets, active_preset_id, created_at, updated_at`;

export class DashboardsRepository {
  /**
   * Reads outside a transaction, remembered until the dashboards table changes (every change is
   * announced by migration 730's trigger; this instance's own writes also empty it at once). Hits
   * are copies: callers may change what they get.
   */
  private readonly reads = new ChangeCache<DashboardRecord[]>();

  constructor(private readonly db: Db) {}

  /** Remembers reads from now on, forgetting them on every change `listen` announces. Without it nothing is cached. */
  async cacheReads(listen: (onChange: () => void) => Promise<Listening>): Promise<void> {
    await this.reads.followChanges(listen);
  }

  stopCaching(): Promise<void> {
    return this.reads.close();
  }

  /** This instance changed dashboards (also widget_ids, from the widgets repository): forget every read now. */
  changed(): void {
    this.reads.changed();
  }

  async insert(d: DashboardRecord): Promise<void> {
    try {
      await this.insertRow(d);
    } finally {
      this.changed();
    }
  }

  private async insertRow(d: DashboardRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO dashboards (${COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text[], $9::text[], $10::jsonb, $11, $12, $13)`,
      [
        d.id,
        d.tenant_id,
        d.name,
        d.description,
        d.created_by,
        d.created_by_name,
        d.is_shared,
        d.shared_with_emails,
        d.widget_ids,
        JSON.stringify(d.global_filter_presets),
        d.active_preset_id,
        d.created_at,
        d.updated_at,
      ],
    );
  }

  async find(tenantId: string, id: string, tx: Queryable = this.db): Promise<DashboardRecord | undefined> {
    const read = () => tx.query<DashboardRecord>(`SELECT ${COLUMNS} FROM dashboards WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    // Inside a transaction the read must see the transaction's own state: never from memory.
    const rows = tx === this.db ? await this.reads.through(JSON.stringify(['find', tenantId, id]), read) : await read();
    return rows[0];
  }

  /** Newest first; fetches limit + 1 rows so the caller can tell whether another page follows. */
  async list(tenantId: string, who: Visibility, page: Page): Promise<DashboardRecord[]> {
    const member = who.all ? null : who;
    const params = [tenantId, member ? member.userId : null, member ? member.email : null, page.cursor ?? null, page.limit + 1];
    return this.reads.through(JSON.stringify(['list', ...params]), () =>
      this.db.query<DashboardRecord>(
        `SELECT ${COLUMNS} FROM dashboards
        WHERE tenant_id = $1
          AND ($2::text IS NULL OR created_by = $2 OR is_shared OR ($3::text IS NOT NULL AND $3 = ANY (shared_with_emails)))
          AND ($4::text IS NULL OR id < $4)
        ORDER BY id DESC
        LIMIT $5`,
        params,
      ),
    );
  }

  /**
   * Read-modify-write under a row lock: `change` sees the current row and returns the changes (or
   * throws to abort), so checks against the current state (same widget set, a preset that exists)
   * and the write are one atomic step even with widgets added concurrently.
   */
  async update(tenantId: string, id: string, change: (current: DashboardRecord) => DashboardChanges): Promise<DashboardRecord | undefined> {
    try {
      return await this.updateRow(tenantId, id, change);
    } finally {
      this.changed();
    }
  }

  private async updateRow(
    tenantId: string,
    id: string,
    change: (current: DashboardRecord) => DashboardChanges,
  ): Promise<DashboardRecord | undefined> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<DashboardRecord>(`SELECT ${COLUMNS} FROM dashboards WHERE tenant_id = $1 AND id = $2 FOR UPDATE`, [
        tenantId,
        id,
      ]);
      const current = rows[0];
      if (!current) return undefined;
      const next: DashboardRecord = { ...current, ...change(current) };
      await tx.query(
        `UPDATE dashboards
            SET name = $3, description = $4, is_shared = $5, shared_with_emails = $6::text[], widget_ids = $7::text[],
                global_filter_presets = $8::jsonb, active_preset_id = $9, updated_at = $10
          WHERE tenant_id = $1 AND id = $2`,
        [
          tenantId,
          id,
          next.name,
          next.description,
          next.is_shared,
          next.shared_with_emails,
          next.widget_ids,
          JSON.stringify(next.global_filter_presets),
          next.active_preset_id,
          next.updated_at,
        ],
      );
      return next;
    });
  }

  /** Deletes the dashboard and its widgets in one transaction; true when it existed. */
  async delete(tenantId: string, id: string): Promise<boolean> {
    try {
      return await this.deleteRow(tenantId, id);
    } finally {
      this.changed();
    }
  }

  private async deleteRow(tenantId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // Lock the dashboard first: widget writers lock it before touching widgets, so no deadlock.
      const rows = await tx.query(`SELECT id FROM dashboards WHERE tenant_id = $1 AND id = $2 FOR UPDATE`, [tenantId, id]);
      if (rows.length === 0) return false;
      await tx.query(`DELETE FROM dashboard_widgets WHERE tenant_id = $1 AND dashboard_id = $2`, [tenantId, id]);
      // Plain DELETE: tables of other domains (subscriptions) reference dashboards ON DELETE CASCADE.
      await tx.query(`DELETE FROM dashboards WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
      return true;
    });
  }
}
