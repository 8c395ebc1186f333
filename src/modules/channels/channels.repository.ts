import type { Queryable } from '../../db/index.ts';
import type { Page } from '../../lib/paging.ts';
import type { ChannelType } from '../../adapters/delivery/types.ts';

export interface ChannelRecord {
  id: string;
  tenant_id: string;
  created_by: string;
  /** What people call it; null when unnamed (docs/decisions.md "Channel names"). */
  name: string | null;
  channel_type: ChannelType;
  /** Non-secret keys, plaintext. */
  config: Record<string, string>;
  /** Secret keys, each sealed with the SecretBox. */
  secrets: Record<string, string>;
  config_version: number;
  is_verified: boolean;
  verified_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'id, tenant_id, created_by, channel_type, config, secrets, config_version, is_verified, verified_at, created_at, updated_at, name';

export class ChannelsRepository {
  constructor(private readonly db: Queryable) {}

  async insert(c: ChannelRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO notification_channels (${COLUMNS})
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10, $11, $12)`,
      [
        c.id,
        c.tenant_id,
        c.created_by,
        c.channel_type,
        JSON.stringify(c.config),
        JSON.stringify(c.secrets),
        c.config_version,
        c.is_verified,
        c.verified_at,
        c.created_at,
        c.updated_at,
        c.name,
      ],
    );
  }

  /** Newest first, limit + 1 rows; createdBy restricts to one user's channels (members). */
  async list(tenantId: string, createdBy: string | undefined, page: Page): Promise<ChannelRecord[]> {
    return this.db.query<ChannelRecord>(
      `SELECT ${COLUMNS} FROM notification_channels
        WHERE tenant_id = $1 AND ($2::text IS NULL OR created_by = $2) AND ($3::text IS NULL OR id < $3)
        ORDER BY id DESC LIMIT $4`,
      [tenantId, createdBy ?? null, page.cursor ?? null, page.limit + 1],
    );
  }

  async find(tenantId: string, id: string, db: Queryable = this.db): Promise<ChannelRecord | undefined> {
    const rows = await db.query<ChannelRecord>(`SELECT ${COLUMNS} FROM notification_channels WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
    return rows[0];
  }

  /** Replaces the config and un-verifies the channel; returns the updated row. */
  async replaceConfig(
    tenantId: string,
    id: string,
    config: Record<string, string>,
    secrets: Record<string, string>,
    at: Date,
  ): Promise<ChannelRecord | undefined> {
    const rows = await this.db.query<ChannelRecord>(
      `UPDATE notification_channels
          SET config = $3::jsonb, secrets = $4::jsonb, config_version = config_version + 1,
              is_verified = false, verified_at = NULL, updated_at = $5
        WHERE tenant_id = $1 AND id = $2
        RETURNING ${COLUMNS}`,
      [tenantId, id, JSON.stringify(config), JSON.stringify(secrets), at],
    );
    return rows[0];
  }

  /** Renames the channel (null: no name); is_verified stays, the config did not change. */
  async rename(tenantId: string, id: string, name: string | null, at: Date): Promise<ChannelRecord | undefined> {
    const rows = await this.db.query<ChannelRecord>(
      `UPDATE notification_channels SET name = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [tenantId, id, name, at],
    );
    return rows[0];
  }

  /** Records a test's outcome, unless the config changed since the test read it. */
  async recordTest(tenantId: string, id: string, version: number, verified: boolean, at: Date): Promise<void> {
    await this.db.query(
      `UPDATE notification_channels SET is_verified = $4, verified_at = CASE WHEN $4 THEN $5::timestamptz ELSE NULL END
        WHERE tenant_id = $1 AND id = $2 AND config_version = $3`,
      [tenantId, id, version, verified, at],
    );
  }

  async delete(tx: Queryable, tenantId: string, id: string): Promise<boolean> {
    const rows = await tx.query(`DELETE FROM notification_channels WHERE tenant_id = $1 AND id = $2 RETURNING id`, [tenantId, id]);
    return rows.length > 0;
  }
}
