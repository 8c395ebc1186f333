// PostgreSQL (or any Postgres-wire engine) as the warehouse, via WAREHOUSE_URL.
import os from 'node:os';
import pg from 'pg';
import { ReadLanes } from '../read-lanes.ts';
import { NamedStatements } from './named-statements.ts';
import { loadIntoPostgres, postgresTables } from './load.ts';
import type { TenantColumnOf } from '../../semantic/tenancy.ts';
import type { LoadRequest, LoadResult, WarehouseTable } from '../load/rules.ts';
import { VersionMemo } from '../versions.ts';
import { seedByScript } from '../demo/demo.ts';
import {
  runTransaction,
  warehouseDdl,
  type DemoSeeded,
  type ReadOptions,
  type SeedOptions,
  type TransactionStatement,
  type Warehouse,
  type WarehouseRow,
} from '../warehouse.ts';

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

const READ = /^\s*(SELECT|WITH)\b/i;
/** cached plan must not change result type; prepared statement does not exist. */
const STALE_PLAN = new Set(['0A000', '26000']);

/** What a first load that raced another tenant's first load of the same table can fail with (retried). */
const FIRST_LOAD_RACE = new Set(['42P07', '23505', '40P01', '42701']);

export class PostgresWarehouse implements Warehouse {
  readonly dialect = 'postgres' as const;
  readonly title = 'PostgreSQL';
  readonly soleWriter = false;
  readonly pool: pg.Pool;
  // Another process may re-seed or load into a shared warehouse, so the memos are short.
  private readonly versions = new VersionMemo(async (sql, params) => (await this.pool.query(sql, params)).rows, 2000);

  /** Reads side by side, fair between tenants; loads and transactions take their own connections. */
  private readonly lanes: ReadLanes;
  private readonly statements = new NamedStatements();

  constructor(connectionString: string, options: { schema?: string; max?: number; readers?: number } = {}) {
    // A read pool sized to the cores: the server's, unknown here, are assumed to be at least ours.
    this.lanes = new ReadLanes(options.readers ?? os.cpus().length + 1);
    this.pool = new pg.Pool({
      connectionString,
      max: options.max ?? 10,
      types: types as never,
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
    });
    this.pool.on('error', () => {});
  }

  async query(sql: string, params: unknown[] = [], options: ReadOptions = {}): Promise<WarehouseRow[]> {
    if (!READ.test(sql)) return (await this.pool.query(sql, params)).rows;
    return this.lanes.run(options.tenant, async () => {
      const named = this.statements.of(sql, params);
      try {
        return (await this.pool.query(named)).rows;
      } catch (err) {
        // A table that changed under a connection's prepared plan: that read runs unprepared.
        if (!named.name || !STALE_PLAN.has((err as { code?: string }).code ?? '')) throw err;
        return (await this.pool.query(sql, params)).rows;
      }
    });
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
    this.versions.forget();
  }

  version(tenantId?: string): Promise<string | undefined> {
    return this.versions.version(tenantId);
  }

  knownVersion(tenantId: string): { readonly value: string | undefined } | undefined {
    return this.versions.known(tenantId);
  }

  async load(request: LoadRequest): Promise<LoadResult> {
    try {
      // Two first loads of one table (two tenants at once): both found no table, and the second
      // CREATE TABLE fails once the first commits (42P07, or 23505 on the catalog); the two
      // transactions may also deadlock on the new table's catalog rows (40P01) or meet a column the
      // other just added (42701). Nothing of the failed one was kept, so it runs again and loads
      // into the table the other made.
      for (let attempt = 1; ; attempt++) {
        try {
          return await loadIntoPostgres(this.pool, request);
        } catch (err) {
          const code = (err as { code?: string }).code;
          if (attempt >= 3 || !FIRST_LOAD_RACE.has(code ?? '')) throw err;
          request.signal?.throwIfAborted();
        }
      }
    } finally {
      this.versions.forget();
    }
  }

  async transaction(statements: TransactionStatement[], signal?: AbortSignal): Promise<void> {
    const client = await this.pool.connect();
    try {
      await runTransaction((sql, params) => client.query(sql, params ?? []), statements, signal);
    } finally {
      client.release();
      this.versions.forget();
    }
  }

  async ensureTables(demo: boolean): Promise<void> {
    await this.exec(warehouseDdl('postgres', demo));
  }

  seedDemo(opts: SeedOptions): Promise<DemoSeeded> {
    return seedByScript(this, 'postgres', opts);
  }

  timeText(sql: string): string {
    return `CAST(${sql} AS text)`;
  }

  async tables(tenantColumnOf?: TenantColumnOf): Promise<WarehouseTable[]> {
    return (await postgresTables((sql, params) => this.pool.query(sql, params), tenantColumnOf)).tables;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
