import type { Queryable } from '../../db/index.ts';

export class ReportImagesRepository {
  constructor(private readonly db: Queryable) {}

  /** Stores an image and drops the expired ones (one index range scan). */
  async insert(img: { id: string; tenant_id: string; png: Buffer; created_at: Date; expires_at: Date }): Promise<void> {
    await this.db.query('DELETE FROM report_images WHERE expires_at < $1', [img.created_at]);
    await this.db.query('INSERT INTO report_images (id, tenant_id, png, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
      img.id,
      img.tenant_id,
      img.png,
      img.created_at,
      img.expires_at,
    ]);
  }

  /** The image if it has not expired; the id is the only key (it is the capability). */
  async find(id: string, now: Date): Promise<Buffer | undefined> {
    const rows = await this.db.query<{ png: Uint8Array }>('SELECT png FROM report_images WHERE id = $1 AND expires_at >= $2', [id, now]);
    return rows[0] ? Buffer.from(rows[0].png.buffer, rows[0].png.byteOffset, rows[0].png.byteLength) : undefined;
  }
}
