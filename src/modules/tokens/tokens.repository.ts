import type { Queryable } from '../../db/index.ts';
import type { Role, UserAttributes } from '../../auth/context.ts';

export interface TokenRecord {
  id: string;
  tenant_id: string;
  name: string;
  user_id: string;
  user_name: string;
  email: string | null;
  role: Role;
  token_hint: string;
  created_at: Date;
  revoked_at: Date | null;
  attributes: UserAttributes | null;
}

const COLUMNS = 'id, tenant_id, name, user_id, user_name, email, role, token_hint, created_at, revoked_at, attributes';

export class TokensRepository {
  constructor(private readonly db: Queryable) {}

  async insert(t: TokenRecord & { token_hash: string }): Promise<void> {
    await this.db.query(
      `INSERT INTO api_tokens (id, tenant_id, name, user_id, user_name, email, role, token_hash, token_hint, created_at, attributes)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        t.id,
        t.tenant_id,
        t.name,
        t.user_id,
        t.user_name,
        t.email,
        t.role,
        t.token_hash,
        t.token_hint,
        t.created_at,
        t.attributes === null ? null : JSON.stringify(t.attributes),
      ],
    );
  }

  /** The live token with this hash; revoked tokens are never found. */
  async findActiveByHash(hash: string): Promise<TokenRecord | undefined> {
    const rows = await this.db.query<TokenRecord>(`SELECT ${COLUMNS} FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL`, [hash]);
    return rows[0];
  }

  async list(tenantId: string | undefined): Promise<TokenRecord[]> {
    return tenantId === undefined
      ? this.db.query<TokenRecord>(`SELECT ${COLUMNS} FROM api_tokens ORDER BY created_at DESC, id DESC`)
      : this.db.query<TokenRecord>(`SELECT ${COLUMNS} FROM api_tokens WHERE tenant_id = $1 ORDER BY created_at DESC, id DESC`, [tenantId]);
  }

  async find(tenantId: string | undefined, id: string): Promise<TokenRecord | undefined> {
    const rows = await this.db.query<TokenRecord>(
      `SELECT ${COLUMNS} FROM api_tokens WHERE id = $1 AND ($2::text IS NULL OR tenant_id = $2)`,
      [id, tenantId ?? null],
    );
    return rows[0];
  }

  async revoke(id: string, at: Date): Promise<void> {
    await this.db.query('UPDATE api_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [id, at]);
  }

  /**
   * Claims the one-time first-start token: true for the first caller on this database only (the
   * claim is a row in app_state, so a restart or a second instance gets false).
   */
  async claimFirstOwnerToken(): Promise<boolean> {
    const claimed = await this.db.query(
      `INSERT INTO app_state (key, value) VALUES ('first_owner_token', to_jsonb(now()))
       ON CONFLICT (key) DO NOTHING RETURNING key`,
    );
    return claimed.length > 0;
  }
}
