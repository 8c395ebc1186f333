import type { Db } from '../../db/index.ts';
import type { DisplaySize } from './widgets.schemas.ts';

export interface TextBlockRecord {
  id: string;
  tenant_id: string;
  dashboard_id: string;
  body: string;
  display_size: DisplaySize;
  position: number;
  created_at: Date;
  updated_at: Date;
}

export type TextBlockChanges = Partial<Pick<TextBlockRecord, 'body' | 'display_size' | 'position' | 'updated_at'>>;

const COLUMNS = 'id, tenant_id, dashboard_id, body, display_size, position, created_at, updated_at';
const UPDATABLE = ['body', 'display_size', 'position', 'updated_at'] as const;

export class TextBlocksRepository {
  constructor(private readonly db: Db) {}

  /** The dashboard's text blocks by position, then as they were added. */
  list(tenantId: string, dashboardId: string): Promise<TextBlockRecord[]> {
    return this.db.query<TextBlockRecord>(
      `SELECT ${COLUMNS} FROM dashboard_text_blocks WHERE tenant_id = $1 AND dashboard_id = $2 ORDER BY position, created_at, id`,
      [tenantId, dashboardId],
    );
  }

  async insert(b: TextBlockRecord): Promise<void> {
    await this.db.query(`INSERT INTO dashboard_text_blocks (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
      b.id,
      b.tenant_id,
      b.dashboard_id,
      b.body,
      b.display_size,
      b.position,
      b.created_at,
      b.updated_at,
    ]);
  }

  async update(tenantId: string, dashboardId: string, id: string, changes: TextBlockChanges): Promise<TextBlockRecord | undefined> {
    const sets: string[] = [];
    const params: unknown[] = [tenantId, dashboardId, id];
    for (const col of UPDATABLE) {
      if (changes[col] === undefined) continue;
      params.push(changes[col]);
      sets.push(`${col} = $${params.length}`);
    }
    const rows = await this.db.query<TextBlockRecord>(
      `UPDATE dashboard_text_blocks SET ${sets.join(', ')} WHERE tenant_id = $1 AND dashboard_id = $2 AND id = $3 RETURNING ${COLUMNS}`,
      params,
    );
    return rows[0];
  }

  async delete(tenantId: string, dashboardId: string, id: string): Promise<boolean> {
    const rows = await this.db.query(
      'DELETE FROM dashboard_text_blocks WHERE tenant_id = $1 AND dashboard_id = $2 AND id = $3 RETURNING id',
      [tenantId, dashboardId, id],
    );
    return rows.length > 0;
  }
}
