import { ChangeCache } from '../../db/change-cache.ts';
import type { Db, Listening, Queryable } from '../../db/index.ts';
import type { Provider } from '../../adapters/llm/types.ts';

export interface ConnectorRecord {
  tenant_id: string;
  provider: Provider;
  api_key_sealed: string;
  api_key_masked: string;
  model: string | null;
  base_url: string | null;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'tenant_id, provider, api_key_sealed, api_key_masked, model, base_url, is_active, created_at, updated_at';

export class ConnectorsRepository {
  /**
   * Each tenant's active connector (or none), read by every chat question, remembered until
   * ai_connectors changes: migration 731 announces every change, and this instance's own writes
   * empty it as they return (src/db/change-cache.ts).
   */
  private readonly active = new ChangeCache<ConnectorRecord[]>();

  constructor(private readonly db: Db) {}

  /** Remembers active connectors from now on, forgetting them on every change `listen` announces. */
  cacheReads(listen: (onChange: () => void) => Promise<Listening>): Promise<void> {
    return this.active.followChanges(listen);
  }

  stopCaching(): Promise<void> {
    return this.active.close();
  }

  private async changing<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      this.active.changed();
    }
  }

  async list(tenantId: string): Promise<ConnectorRecord[]> {
    return this.db.query<ConnectorRecord>(`SELECT ${COLUMNS} FROM ai_connectors WHERE tenant_id = $1 ORDER BY created_at DESC, provider`, [
      tenantId,
    ]);
  }

  async find(tenantId: string, provider: Provider, q: Queryable = this.db): Promise<ConnectorRecord | undefined> {
    const rows = await q.query<ConnectorRecord>(`SELECT ${COLUMNS} FROM ai_connectors WHERE tenant_id = $1 AND provider = $2`, [
      tenantId,
      provider,
    ]);
    return rows[0];
  }

  async findActive(tenantId: string): Promise<ConnectorRecord | undefined> {
    const rows = await this.active.through(tenantId, () =>
      this.db.query<ConnectorRecord>(`SELECT ${COLUMNS} FROM ai_connectors WHERE tenant_id = $1 AND is_active`, [tenantId]),
    );
    return rows[0];
  }

  /** Saves (overwriting the same provider) and makes it the tenant's only active connector. */
  async saveActive(r: ConnectorRecord): Promise<ConnectorRecord> {
    return this.changing(() => this.saveActiveRow(r));
  }

  private async saveActiveRow(r: ConnectorRecord): Promise<ConnectorRecord> {
    return this.db.transaction(async (tx) => {
      // Deactivate first: the partial unique index allows one active row per tenant at any instant.
      await tx.query('UPDATE ai_connectors SET is_active = false WHERE tenant_id = $1 AND is_active', [r.tenant_id]);
      const rows = await tx.query<ConnectorRecord>(
        `INSERT INTO ai_connectors (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, true, $7, $8)
         ON CONFLICT (tenant_id, provider) DO UPDATE SET
           api_key_sealed = EXCLUDED.api_key_sealed, api_key_masked = EXCLUDED.api_key_masked,
           model = EXCLUDED.model, base_url = EXCLUDED.base_url, is_active = true,
           created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at
         RETURNING ${COLUMNS}`,
        [r.tenant_id, r.provider, r.api_key_sealed, r.api_key_masked, r.model, r.base_url, r.created_at, r.updated_at],
      );
      return rows[0];
    });
  }

  async setActive(tenantId: string, provider: Provider, active: boolean, at: Date): Promise<ConnectorRecord | undefined> {
    return this.changing(() => this.setActiveRow(tenantId, provider, active, at));
  }

  private async setActiveRow(tenantId: string, provider: Provider, active: boolean, at: Date): Promise<ConnectorRecord | undefined> {
    return this.db.transaction(async (tx) => {
      if (!(await this.find(tenantId, provider, tx))) return undefined;
      if (active) {
        await tx.query('UPDATE ai_connectors SET is_active = false WHERE tenant_id = $1 AND is_active AND provider <> $2', [
          tenantId,
          provider,
        ]);
      }
      const rows = await tx.query<ConnectorRecord>(
        `UPDATE ai_connectors SET is_active = $3, updated_at = $4 WHERE tenant_id = $1 AND provider = $2 RETURNING ${COLUMNS}`,
        [tenantId, provider, active, at],
      );
      return rows[0];
    });
  }

  async delete(tenantId: string, provider: Provider): Promise<boolean> {
    const rows = await this.changing(() =>
      this.db.query('DELETE FROM ai_connectors WHERE tenant_id = $1 AND provider = $2 RETURNING provider', [tenantId, provider]),
    );
    return rows.length > 0;
  }
}
