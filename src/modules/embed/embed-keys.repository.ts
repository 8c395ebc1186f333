import type { Queryable } from '../../db/index.ts';

export interface EmbedKeyRecord {
  id: string;
  tenant_id: string;
  name: string;
  allowed_origins: string[];
  jwks_url: string | null;
  secret_sealed: string;
  secret_hint: string;
  previous_secret_sealed: string | null;
  previous_valid_until: Date | null;
  created_by: string;
  created_at: Date;
  rotated_at: Date | null;
}

const COLUMNS = `id, tenant_id, name, allowed_origins, jwks_url, secret_sealed, secret_hint, previous_secret_sealed,
  previous_valid_until, created_by, created_at, rotated_at`;

export class EmbedKeysRepository {
  constructor(private readonly db: Queryable) {}

  async insert(k: EmbedKeyRecord): Promise<void> {
    await this.db.query(`INSERT INTO embed_keys (${COLUMNS}) VALUES ($1, $2, $3, $4::text[], $5, $6, $7, $8, $9, $10, $11, $12)`, [
      k.id,
      k.tenant_id,
      k.name,
      k.allowed_origins,
      k.jwks_url,
      k.secret_sealed,
      k.secret_hint,
      k.previous_secret_sealed,
      k.previous_valid_until,
      k.created_by,
      k.created_at,
      k.rotated_at,
    ]);
  }

  list(tenantId: string): Promise<EmbedKeyRecord[]> {
    return this.db.query<EmbedKeyRecord>(`SELECT ${COLUMNS} FROM embed_keys WHERE tenant_id = $1 ORDER BY created_at DESC, id DESC`, [
      tenantId,
    ]);
  }

  /** tenantId undefined: any tenant's (verification learns the tenant from the key). */
  async find(tenantId: string | undefined, id: string): Promise<EmbedKeyRecord | undefined> {
    const rows = await this.db.query<EmbedKeyRecord>(
      `SELECT ${COLUMNS} FROM embed_keys WHERE id = $1 AND ($2::text IS NULL OR tenant_id = $2)`,
      [id, tenantId ?? null],
    );
    return rows[0];
  }

  async rotate(
    tenantId: string,
    id: string,
    k: Pick<EmbedKeyRecord, 'secret_sealed' | 'secret_hint' | 'previous_secret_sealed' | 'previous_valid_until' | 'rotated_at'>,
  ): Promise<EmbedKeyRecord | undefined> {
    const rows = await this.db.query<EmbedKeyRecord>(
      `UPDATE embed_keys SET secret_sealed = $3, secret_hint = $4, previous_secret_sealed = $5, previous_valid_until = $6, rotated_at = $7
        WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [tenantId, id, k.secret_sealed, k.secret_hint, k.previous_secret_sealed, k.previous_valid_until, k.rotated_at],
    );
    return rows[0];
  }

  /** Revocation deletes the row: no secret of it, current or previous, verifies anything again. */
  async delete(tenantId: string, id: string): Promise<boolean> {
    const rows = await this.db.query(`DELETE FROM embed_keys WHERE tenant_id = $1 AND id = $2 RETURNING id`, [tenantId, id]);
    return rows.length > 0;
  }
}
