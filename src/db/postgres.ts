// The system of record on PostgreSQL (DATABASE_URL): its own module, so that a process on the
// embedded PGlite never loads pg (docs/footprint.md).
import pg from 'pg';
import { INT8, NUMERIC, type Db, type Listening, type Queryable, type Row } from './index.ts';

pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(NUMERIC, (v) => Number(v));

export class PostgresDb implements Db {
  readonly kind = 'postgres' as const;
  readonly pool: pg.Pool;

  private readonly clientConfig: pg.ClientConfig;

  constructor(connectionString: string, options: { schema?: string; max?: number } = {}) {
    this.clientConfig = {
      connectionString,
      // A schema per test run keeps parallel test files apart on one PostgreSQL database.
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
    };
    this.pool = new pg.Pool({ ...this.clientConfig, max: options.max ?? 10 });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    this.pool.on('error', () => {});
  }

  async query<T extends Row = Row>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.pool.query<T>(sql, params)).rows;
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  /**
   * LISTEN on a connection of its own, outside the pool. When that connection fails the
   * subscription is not live (onNotify is called, as anything may have changed unseen) until a new
   * connection listens again; it retries every second.
   */
  async listen(channel: string, onNotify: (payload?: string) => void): Promise<Listening> {
    let client: pg.Client | undefined;
    let live = false;
    let closed = false;
    let retry: NodeJS.Timeout | undefined;
    const lost = () => {
      if (closed) return;
      const wasLive = live;
      live = false;
      // A late error of the old connection must find a listener, or it would crash the process.
      client?.removeAllListeners().on('error', () => {});
      client?.end().catch(() => {});
      client = undefined;
      if (wasLive) onNotify();
      retry ??= setTimeout(() => {
        retry = undefined;
        void connect();
      }, 1000);
      retry.unref();
    };
    const connect = async () => {
      const c = new pg.Client({ ...this.clientConfig, keepAlive: true });
      client = c;
      c.on('error', lost);
      c.on('end', lost);
      // The schema our tables resolve to on this connection (its search_path, as the pool's): other
      // schemas of the database announce on the same channel (migration 764).
      let schema: string | undefined;
      // A payload is the schema, or the schema, a tab and what changed (migration 765).
      c.on('notification', (n) => {
        if (n.channel !== channel) return;
        if (!n.payload) return void onNotify();
        const tab = n.payload.indexOf('\t');
        if (schema === undefined || (tab < 0 ? n.payload : n.payload.slice(0, tab)) === schema) onNotify(n.payload);
      });
      try {
        await c.connect();
        schema = (await c.query<{ s: string | null }>('SELECT current_schema() AS s')).rows[0].s ?? undefined;
        await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        if (closed || client !== c) return void c.end().catch(() => {});
        // Anything that changed before LISTEN took effect was not announced to this subscription.
        onNotify();
        live = true;
      } catch {
        if (client === c) lost();
      }
    };
    await connect();
    return {
      get live() {
        return live;
      },
      close: async () => {
        closed = true;
        live = false;
        clearTimeout(retry);
        const c = client;
        client = undefined;
        c?.removeAllListeners().on('error', () => {});
        await c?.end().catch(() => {});
      },
    };
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn({
        query: async <R extends Row = Row>(sql: string, params: unknown[] = []) => (await client.query<R>(sql, params)).rows,
        exec: async (sql: string) => {
          await client.query(sql);
        },
      });
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
