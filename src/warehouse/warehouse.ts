// The analytics warehouse: where the insight catalog's SQL runs. DuckDB (embedded, a file in the
// data dir) by default, PostgreSQL or ClickHouse via WAREHOUSE_URL. The system of record (src/db)
// is separate.

import { DIALECTS } from '../semantic/dialects/index.ts';
import type { TenantColumnOf } from '../semantic/tenancy.ts';
import type { LoadRequest, LoadResult, WarehouseTable } from './load/rules.ts';
import type { RollupDdl } from './rollups/ddl.ts';

export type { LoadRequest, LoadResult, WarehouseTable } from './load/rules.ts';

export type WarehouseValue = string | number | boolean | null;
export type WarehouseRow = Record<string, WarehouseValue>;

export type DialectName = 'duckdb' | 'postgres' | 'clickhouse';

/**
 * The one port of every engine (src/warehouse/duckdb/, postgres/, clickhouse/): connect (open.ts
 * picks the engine), query, load, the state its rollups keep, and its DDL. Nothing outside an
 * engine's folder knows which engine it talks to; the compiler's SQL dialect is named by `dialect`.
 */
export interface Warehouse {
  readonly dialect: DialectName;
  /** The engine's name as people know it (DuckDB, PostgreSQL, ClickHouse), for what the CLI prints. */
  readonly title: string;
  /**
   * Whether this process is the warehouse's only writer (the embedded DuckDB file, which DuckDB
   * locks to one process): what it read of its own state (data versions, rollup state) stays true
   * until it writes itself. A server others may load into is read again after a moment.
   */
  readonly soleWriter: boolean;
  /**
   * One statement with bound parameters ($1, $2 … on both engines). Integers and decimals come
   * back as JS numbers, DATE as 'YYYY-MM-DD', TIMESTAMP as 'YYYY-MM-DD HH:MM:SS[.ffffff]'.
   */
  query(sql: string, params?: unknown[], options?: ReadOptions): Promise<WarehouseRow[]>;
  /** Several statements, no parameters (DDL, generation). */
  exec(sql: string): Promise<void>;
  /**
   * Statements with bound parameters in one transaction, on a connection of their own: queries
   * meanwhile see all of it or none (rollup builds, src/warehouse/rollups/rollups.ts). An aborted signal
   * stops it between statements and rolls it back.
   */
  transaction(statements: TransactionStatement[], signal?: AbortSignal): Promise<void>;
  /**
   * Changes whenever the data changes (a re-seed writes a new one), so cached results keyed by it
   * can never outlive the data they were computed from. Undefined when the warehouse is empty.
   * With a tenant, it also changes whenever that tenant's data is loaded (and only then), so a
   * load makes the tenant's cached results unreachable and leaves other tenants' in place.
   */
  version(tenantId?: string): Promise<string | undefined>;
  /** version(tenantId) when it is known without a read (remembered and fresh); else undefined. */
  knownVersion?(tenantId: string): { readonly value: string | undefined } | undefined;
  /** Loads a data file into a table for one tenant, all or nothing (see load.ts); throws LoadError. */
  load(request: LoadRequest): Promise<LoadResult>;
  /**
   * The tables that carry their tenant column (`tenantColumnOf` names it per table, as the model
   * does; tenant_id by default), with their other columns (canonical types).
   */
  tables(tenantColumnOf?: TenantColumnOf): Promise<WarehouseTable[]>;
  /** How this engine creates, swaps and deletes from rollup tables, where it differs (rollups/ddl.ts). */
  readonly rollupDdl?: RollupDdl;
  /** The service's own tables and, with `demo`, the demo shop's, created where missing. */
  ensureTables(demo: boolean): Promise<void>;
  /** (Re)generates the demo data of `opts.tenants` (demo/demo.ts); other tenants' rows stay. */
  seedDemo(opts: SeedOptions): Promise<DemoSeeded>;
  /** SQL giving a date or time value as text, written as query() returns such a value. */
  timeText(sql: string): string;
  close(): Promise<void>;
}

export interface SeedOptions {
  /** Total orders over all tenants. */
  rows: number;
  tenants: string[];
  /** The last day of data, YYYY-MM-DD (today, from the injected clock). */
  endDay: string;
  /** Length of history in days (default two years). */
  days?: number;
  /** The time recorded as seeded_at. */
  now: Date;
  /**
   * The process has the warehouse to itself (`insights demo seed`): the engine may write rows in
   * any order, which an embedded one only allows outside the server (a global setting).
   */
  exclusive?: boolean;
}

/** What a seed wrote: the new data version and the orders of each tenant. */
export interface DemoSeeded {
  version: string;
  perTenant: Record<string, number>;
}

/** Whose read a query is: reads run side by side and take turns by tenant (read-lanes.ts). */
export interface ReadOptions {
  /**
   * The tenant the read is for: every read of a tenant's data names it (QueryRunner passes the
   * query's tenant). Unset: the service's own read (versions, rollup state, builds, model probes).
   */
  tenant?: string;
}

/**
 * Whether a query failed because the engine ran out of the memory it may use: DuckDB's "Out of
 * Memory Error" (beyond INSIGHTS_DUCKDB_MEMORY_BURST, see DuckDbWarehouse.query), PostgreSQL's
 * 53200, ClickHouse's MEMORY_LIMIT_EXCEEDED (241). The insights service answers 503 for it: the
 * question is fine, the warehouse could not answer it now (docs/footprint.md).
 */
export function isOutOfMemory(err: unknown): boolean {
  const e = err as { code?: unknown; type?: unknown; message?: unknown } | undefined;
  if (!e) return false;
  if (e.code === '53200' || e.code === '241' || e.type === 'MEMORY_LIMIT_EXCEEDED') return true;
  return typeof e.message === 'string' && /^(Out of Memory Error|.*\bMEMORY_LIMIT_EXCEEDED\b)/.test(e.message);
}

export type TransactionStatement = { sql: string; params?: unknown[] };

/**
 * Warehouse.transaction's body for any connection: BEGIN, each statement (an aborted signal stops
 * between them), COMMIT; on any error ROLLBACK and rethrow. `run` sends one statement on the
 * transaction's own connection.
 */
export async function runTransaction(
  run: (sql: string, params?: unknown[]) => Promise<unknown>,
  statements: TransactionStatement[],
  signal?: AbortSignal,
): Promise<void> {
  await run('BEGIN TRANSACTION');
  try {
    for (const s of statements) {
      signal?.throwIfAborted();
      await run(s.sql, s.params);
    }
    await run('COMMIT');
  } catch (err) {
    await run('ROLLBACK').catch(() => {});
    throw err;
  }
}

/**
 * The service's own table (warehouse_meta), and with `demo` the demo shop's tables. A warehouse
 * opened for a model of the user's own (INSIGHTS_MODEL) gets none of the demo's: its table names
 * are the user's to load (docs/data.md).
 */
export function warehouseDdl(dialect: Exclude<DialectName, 'clickhouse'>, demo = true): string {
  const text = DIALECTS[dialect].types.text;
  const meta = `
CREATE TABLE IF NOT EXISTS warehouse_meta (
  id integer PRIMARY KEY, version ${text} NOT NULL, seeded_at TIMESTAMP NOT NULL,
  rows_requested bigint NOT NULL, tenants ${text} NOT NULL, end_day DATE NOT NULL);
`;
  if (!demo) return meta;
  return `${meta}
CREATE TABLE IF NOT EXISTS products (
  product_id bigint NOT NULL, tenant_id ${text} NOT NULL, name ${text} NOT NULL, category ${text} NOT NULL, brand ${text} NOT NULL);
CREATE TABLE IF NOT EXISTS customers (
  customer_id bigint NOT NULL, tenant_id ${text} NOT NULL, signup_at TIMESTAMP NOT NULL, country ${text} NOT NULL);
CREATE TABLE IF NOT EXISTS orders (
  order_id bigint NOT NULL, tenant_id ${text} NOT NULL, customer_id bigint NOT NULL, ordered_at TIMESTAMP NOT NULL,
  country ${text} NOT NULL, channel ${text} NOT NULL, status ${text} NOT NULL, items integer NOT NULL,
  revenue DECIMAL(12,2) NOT NULL, discount DECIMAL(12,2) NOT NULL);
CREATE TABLE IF NOT EXISTS order_items (
  order_id bigint NOT NULL, tenant_id ${text} NOT NULL, product_id bigint NOT NULL, quantity integer NOT NULL,
  unit_price DECIMAL(10,2) NOT NULL);
CREATE TABLE IF NOT EXISTS web_sessions (
  tenant_id ${text} NOT NULL, day DATE NOT NULL, country ${text} NOT NULL, channel ${text} NOT NULL, sessions integer NOT NULL);
`;
}
