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

const findKey = (tenantId: string, id: string) => JSON.stringify(['find', tenantId, id]);

/**
 * The rows an announcement of migration 765 names: [tenant_id, id, visibility] each, from the text
 * after the schema and its tab. Undefined for '*' and for anything else it does not read as such
 * (an announcement of migration 730's form, no payload): then anything may have changed.
 */
export function announcedRows(payload: string | undefined): [string, string, boolean][] | undefined {
  const tab = payload?.indexOf('\t') ?? -1;
  if (tab < 0) return undefined;
  let rows: unknown;
  try {
    rows = JSON.parse(payload!.slice(tab + 1));
  } catch {
    return undefined;
  }
  const row = (r: unknown) =>
    Array.isArray(r) && r.length === 3 && typeof r[0] === 'string' && typeof r[1] === 'string' && typeof r[2] === 'boolean';
  return Array.isArray(rows) && rows.every(row) ? (rows as [string, string, boolean][]) : undefined;
}

export class DashboardsRepository {
  /**
   * Reads outside a transaction, remembered until a change may have touched them: a dashboard's
   * read until it changes, a tenant's lists until any of its dashboards does (every change is
   * announced with the rows it touched by migration 765's triggers; this instance's own writes
   * also forget at once). Hits are copies: callers may change what they get.
   */
  private readonly reads = new ChangeCache<DashboardRecord[]>();

  constructor(private readonly db: Db) {}

  /** Remembers reads from now on, forgetting what every change `listen` announces may have touched. Without it nothing is cached. */
  async cacheReads(listen: (onChange: (payload?: string) => void) => Promise<Listening>): Promise<void> {
    await this.reads.followChanges(listen, (payload) => {
      const rows = announcedRows(payload);
      if (!rows) return this.reads.changed();
      for (const [tenantId, id, visibility] of rows) this.changed(tenantId, id, visibility);
    });
  }

  stopCaching(): Promise<void> {
    return this.reads.close();
  }

  /**
   * Dashboard `id` of the tenant changed (by this instance, also its widget_ids from the widgets
   * repository, or as announced): its own read is forgotten, and every list of the tenant holding
   * it. `visibility`: it may have entered or left lists (created, deleted, its sharing or owner
   * changed): every list of the tenant is forgotten.
   */
  changed(tenantId: string, id: string, visibility = true): void {
    // A dashboard's own read is a scope of its own, the tenant's lists another: each is refused
    // while in flight only by the changes that can touch it.
    this.reads.changedIn(findKey(tenantId, id));
    this.reads.changedIn(tenantId, visibility ? undefined : (rows) => rows.some((d) => d.id === id));
  }

  async insert(d: DashboardRecord): Promise<void> {
    try {
      await this.insertRow(d);
    } finally {
      this.changed(d.tenant_id, d.id);
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
    const key = findKey(tenantId, id);
    const rows = tx === this.db ? await this.reads.through(key, read, Date.now, key) : await read();
    return rows[0];
  }

  /** Newest first; fetches limit + 1 rows so the caller can tell whether another page follows. */
  async list(tenantId: string, who: Visibility, page: Page): Promise<DashboardRecord[]> {
    const member = who.all ? null : who;
    const params = [tenantId, member ? member.userId : null, member ? member.email : null, page.cursor ?? null, page.limit + 1];
    return this.reads.through(
      JSON.stringify(['list', ...params]),
      () =>
        this.db.query<DashboardRecord>(
          `SELECT ${COLUMNS} FROM dashboards
        WHERE tenant_id = $1
          AND ($2::text IS NULL OR created_by = $2 OR is_shared OR ($3::text IS NOT NULL AND $3 = ANY (shared_with_emails)))
          AND ($4::text IS NULL OR id < $4)
        ORDER BY id DESC
        LIMIT $5`,
          params,
        ),
      Date.now,
      tenantId,
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
      this.changed(tenantId, id);
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
      this.changed(tenantId, id);
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
