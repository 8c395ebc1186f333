// PostgreSQL (or any Postgres-wire engine) as the warehouse, via WAREHOUSE_URL.
import pg from 'pg';
import { loadIntoPostgres, postgresTables } from './load-postgres.ts';
import { TENANT_VERSIONS_TABLE, type LoadRequest, type LoadResult, type WarehouseTable } from './load.ts';
import { runTransaction, type TransactionStatement, type Warehouse, type WarehouseRow } from './warehouse.ts';

// Dates and timestamps stay text (no local-time Date conversion); numbers become JS numbers, like
// DuckDB. A private type table, so the system of record's pg settings are untouched.
const DATE = 1082;
const TIMESTAMP = 1114;
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === DATE || oid === TIMESTAMP) return (v: string) => v;
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export class PostgresWarehouse implements Warehouse {
  readonly dialect = 'postgres' as const;
  readonly pool: pg.Pool;
  private cachedVersion: { value: string | undefined; at: number } | undefined;
  private readonly tenantVersions = new Map<string, { value: string | undefined; at: number }>();

  constructor(connectionString: string, options: { schema?: string; max?: number } = {}) {
    this.pool = new pg.Pool({
      connectionString,
      max: options.max ?? 10,
      types: types as never,
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
    });
    this.pool.on('error', () => {});
  }

  async query(sql: string, params: unknown[] = []): Promise<WarehouseRow[]> {
    return (await this.pool.query(sql, params)).rows;
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
    this.cachedVersion = undefined;
    this.tenantVersions.clear();
  }

  // Another process may re-seed or load into a shared warehouse, so the memos are short.
  async version(tenantId?: string): Promise<string | undefined> {
    const base = await this.baseVersion();
    if (tenantId === undefined) return base;
    const now = Date.now();
    let memo = this.tenantVersions.get(tenantId);
    if (!memo || now - memo.at >= 2000) {
      let value: string | undefined;
      try {
        const rows = await this.query(`SELECT version FROM ${TENANT_VERSIONS_TABLE} WHERE tenant_id = $1`, [tenantId]);
        value = rows.length ? String(rows[0].version) : undefined;
      } catch {
        value = undefined;
      }
      memo = { value, at: now };
      if (this.tenantVersions.size > 10_000) this.tenantVersions.clear();
      this.tenantVersions.set(tenantId, memo);
    }
    return base === undefined && memo.value === undefined ? undefined : `${base ?? ''}/${memo.value ?? ''}`;
  }

  async load(request: LoadRequest): Promise<LoadResult> {
    try {
      return await loadIntoPostgres(this.pool, request);
    } finally {
      this.cachedVersion = undefined;
      this.tenantVersions.clear();
    }
  }

  async transaction(statements: TransactionStatement[], signal?: AbortSignal): Promise<void> {
    const client = await this.pool.connect();
    try {
      await runTransaction((sql, params) => client.query(sql, params ?? []), statements, signal);
    } finally {
      client.release();
      this.cachedVersion = undefined;
      this.tenantVersions.clear();
    }
  }

  async tables(): Promise<WarehouseTable[]> {
    return (await postgresTables((sql, params) => this.pool.query(sql, params))).tables;
  }

  private async baseVersion(): Promise<string | undefined> {
    const now = Date.now();
    if (this.cachedVersion && now - this.cachedVersion.at < 2000) return this.cachedVersion.value;
    let value: string | undefined;
    try {
      const rows = await this.query('SELECT version FROM warehouse_meta WHERE id = 1');
      value = rows.length ? String(rows[0].version) : undefined;
    } catch {
      value = undefined;
    }
    this.cachedVersion = { value, at: now };
    return value;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
