// ClickHouse as the warehouse (WAREHOUSE_URL=clickhouse://user:password@host:8123/database, or
// clickhouses:// / https:// for TLS) through the official @clickhouse/client over HTTP. One code
// path for a single server and a cluster: the topology changes only the DDL (clickhouse/ddl.ts).
// Every request carries the settings under which ClickHouse reads the compiler's standard SQL the
// standard way (NULL for an empty aggregate and an unmatched LEFT JOIN row, UTC); docs/clickhouse.md.
import os from 'node:os';
import { ClickHouseLogLevel, createClient, type ClickHouseClient, type ClickHouseSettings } from '@clickhouse/client';
import { clickhouseWarehouseDdl, canonicalFromClickHouse, splitStatements, STAGING_NAME, type ClickHouseTopology } from './ddl.ts';
import { ROLLUP_SCHEMA } from '../../semantic/rollups.ts';
import { loadIntoClickHouse } from './load.ts';
import type { TenantColumnOf } from '../../semantic/tenancy.ts';
import { clickhouseRollupDdl, rewriteRollupQualifier } from './rollups.ts';
import type { RollupDdl } from '../rollups/ddl.ts';
import { VersionMemo } from '../versions.ts';
import { groupTables } from '../load/tables.ts';
import { TENANT_VERSIONS_TABLE, type LoadRequest, type LoadResult, type WarehouseTable } from '../load/rules.ts';
import { ReadLanes } from '../read-lanes.ts';
import { seedClickHouseFromDuckDb } from './seed.ts';
import type { DemoSeeded, ReadOptions, SeedOptions, TransactionStatement, Warehouse, WarehouseRow, WarehouseValue } from '../warehouse.ts';

/** The settings every request runs with (the server's own defaults differ from standard SQL). */
export const CLICKHOUSE_SETTINGS: ClickHouseSettings = {
  // An unmatched LEFT JOIN row has NULLs, not the column type's default (0, '').
  join_use_nulls: 1,
  // sum/min/max/avg over no rows are NULL, as on the other engines (a KPI window without orders).
  aggregate_functions_null_for_empty: 1,
  // CAST(NULL AS Date32) and CAST of a NULL value stay NULL instead of failing.
  cast_keep_nullable: 1,
  // count(DISTINCT x) is exact (uniqExact) whatever the server's profile says.
  count_distinct_implementation: 'uniqExact',
  // Zone-less DateTime columns and every date parameter are read in UTC, whatever the server's zone.
  session_timezone: 'UTC',
  // Whole numbers and decimals as JSON numbers (every figure we return fits a double).
  output_format_json_quote_64bit_integers: 0,
  output_format_json_quote_decimals: 0,
  // DELETE and ALTER … DELETE are applied on every replica before they return.
  lightweight_deletes_sync: '2',
  mutations_sync: '2',
  // A CREATE TABLE written for every engine (no ENGINE clause) makes a MergeTree table.
  default_table_engine: 'MergeTree',
  create_table_empty_primary_key_by_default: 1,
  // A long build or load keeps its connection alive through proxies and load balancers.
  send_progress_in_http_headers: 1,
  http_headers_progress_interval_ms: '60000',
};

/**
 * On a cluster, besides: every table is sharded by the tenant column and every query names one
 * tenant, so a query goes to that tenant's shard only, and a join's other side is read from the
 * same shard's local table (co-sharded: the rows it can match are there).
 */
export const CLUSTER_SETTINGS: ClickHouseSettings = {
  optimize_skip_unused_shards: 1,
  distributed_product_mode: 'local',
  // A DELETE ON CLUSTER, EXCHANGE or CREATE returns once every replica has applied it.
  distributed_ddl_task_timeout: '600',
  distributed_ddl_output_mode: 'throw',
};

/** clickhouse://, clickhouses://, http:// and https:// URLs → the client's connection options. */
export function clickhouseConnection(url: string): { url: string; username: string; password: string; database: string } {
  const u = new URL(url);
  const secure = u.protocol === 'clickhouses:' || u.protocol === 'https:' || u.searchParams.get('secure') === 'true';
  const database = decodeURIComponent(u.pathname.replace(/^\/+/, '')) || 'default';
  if (!/^[A-Za-z_][\w]*$/.test(database)) throw new Error(`the database name "${database}" must be letters, digits and _`);
  return {
    url: `${secure ? 'https' : 'http'}://${u.hostname}:${u.port || (secure ? '8443' : '8123')}`,
    username: decodeURIComponent(u.username) || 'default',
    password: decodeURIComponent(u.password),
    database,
  };
}

/** The ClickHouse type of a bound value given as $n (SQL written for every engine). */
function paramType(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? 'Int64' : 'Float64';
  if (typeof v === 'boolean') return 'Bool';
  return 'String';
}

// $n outside string literals and quoted identifiers.
const TOKENS = /'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.)*"|\$(\d+)/g;

/**
 * SQL with $1, $2 … (the Warehouse contract, shared with the other engines) becomes ClickHouse's
 * {p1:Type} placeholders; the compiler's {pN:Type} pass unchanged. Values are always sent apart.
 */
export function bindParams(sql: string, params: unknown[]): { query: string; query_params: Record<string, unknown> } {
  sql = rewriteRollupQualifier(sql, ROLLUP_SCHEMA);
  const query = params.length
    ? sql.replace(TOKENS, (m, n?: string) => (n === undefined ? m : `{p${n}:${paramType(params[Number(n) - 1])}}`))
    : sql;
  const query_params: Record<string, unknown> = {};
  params.forEach(
    (v, i) =>
      (query_params[`p${i + 1}`] =
        v === null || v === undefined ? null : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : String(v)),
  );
  return { query, query_params };
}

const VERSION_TTL_MS = 2000;
// A row per load: the latest is the tenant's version (no row: never loaded).
const TENANT_VERSION_SQL = `SELECT argMax(version, loaded_at) AS version FROM ${TENANT_VERSIONS_TABLE}
  WHERE tenant_id = $1 HAVING count() > 0`;
const BASE_VERSION_SQL = 'SELECT version FROM warehouse_meta WHERE id = 1 ORDER BY seeded_at DESC LIMIT 1';
// Both in one request: every uncached execute first asks for the version, and on a server each
// request is a round trip (about 2 ms even on loopback), the same order as a small KPI query.
const BOTH_VERSIONS_SQL = `SELECT 'data' AS k, version FROM (${BASE_VERSION_SQL})
  UNION ALL SELECT 'tenant' AS k, version FROM (${TENANT_VERSION_SQL})`;

const READS = /^\s*(\(?\s*SELECT|WITH|SHOW|DESCRIBE|EXPLAIN|EXISTS)\b/i;

export class ClickHouseWarehouse implements Warehouse {
  readonly dialect = 'clickhouse' as const;
  readonly title = 'ClickHouse';
  readonly soleWriter = false;
  readonly client: ClickHouseClient;
  readonly topology: ClickHouseTopology;
  readonly rollupDdl: RollupDdl;
  // Other processes may load into a shared server, so the memos are short (as on PostgreSQL).
  private readonly versions = new VersionMemo(
    (sql, params) => this.query(sql, params),
    VERSION_TTL_MS,
    TENANT_VERSION_SQL,
    BASE_VERSION_SQL,
  );
  /** A tenant's whole version (data/tenant), read in one request once the memo is stale. */
  private readonly tenantVersions = new Map<string, { value: string | undefined; at: number }>();

  /** Reads side by side (the client's sockets), fair between tenants. */
  private readonly lanes: ReadLanes;

  constructor(url: string, options: { cluster?: string; maxConnections?: number; readers?: number } = {}) {
    const c = clickhouseConnection(url);
    this.lanes = new ReadLanes(options.readers ?? os.cpus().length + 1);
    this.topology = { database: c.database, ...(options.cluster ? { cluster: options.cluster } : {}) };
    this.rollupDdl = clickhouseRollupDdl(this.topology);
    this.client = createClient({
      url: c.url,
      username: c.username,
      password: c.password,
      database: c.database,
      clickhouse_settings: options.cluster ? { ...CLICKHOUSE_SETTINGS, ...CLUSTER_SETTINGS } : CLICKHOUSE_SETTINGS,
      compression: { request: false, response: false },
      request_timeout: 600_000,
      max_open_connections: options.maxConnections ?? 10,
      application: 'insights',
      // Failures reach the caller as errors (and the service's log); the client would print them again.
      log: { level: ClickHouseLogLevel.OFF },
    });
  }

  /** The service's own tables, and with `demo` the demo shop's (ON CLUSTER on a cluster). */
  async ensureTables(demo = true): Promise<void> {
    for (const sql of clickhouseWarehouseDdl(this.topology, demo)) await this.client.command({ query: sql });
  }

  /** ClickHouse takes DuckDB's generated rows as Parquet (seed.ts): the very same rows as the other engines. */
  seedDemo(opts: SeedOptions): Promise<DemoSeeded> {
    return seedClickHouseFromDuckDb(this, opts);
  }

  /** query() already writes a DateTime64 as the other engines do; its CAST to String would keep six decimals. */
  timeText(sql: string): string {
    return sql;
  }

  async query(sql: string, params: unknown[] = [], options: ReadOptions = {}): Promise<WarehouseRow[]> {
    const { query, query_params } = bindParams(sql, params);
    if (!READS.test(query)) {
      await this.client.command({ query, query_params });
      this.forgetVersions();
      return [];
    }
    // ClickHouse prepares nothing over HTTP: the turns are what the reads share.
    const rs = await this.lanes.run(options.tenant, () =>
      this.client.query({ query, query_params, format: 'JSONCompactEachRowWithNamesAndTypes' }).then(async (r) => r.json()),
    );
    const [names, types, ...rows] = rs as unknown as [string[], string[], ...WarehouseValue[][]];
    // DateTime64(6) prints six decimals; the other engines print only those that are not 0.
    const times = (types ?? []).flatMap((t, i) => (/^(Nullable\()?DateTime64/.test(t) ? [i] : []));
    return rows.map((r) => {
      for (const i of times) if (typeof r[i] === 'string') r[i] = (r[i] as string).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
      return Object.fromEntries(names.map((n, i) => [n, r[i]]));
    });
  }

  async exec(sql: string): Promise<void> {
    for (const statement of splitStatements(sql)) await this.client.command({ query: bindParams(statement, []).query });
    this.forgetVersions();
  }

  /**
   * ClickHouse has no transactions: the statements run in order and stop at the first failure or
   * when the signal aborts. Callers write so that readers never see a half state (a table built
   * aside and swapped in with EXCHANGE TABLES, rows tagged and deleted on failure): see rollups and
   * loading in docs/clickhouse.md.
   */
  async transaction(statements: TransactionStatement[], signal?: AbortSignal): Promise<void> {
    try {
      for (const s of statements) {
        signal?.throwIfAborted();
        await this.query(s.sql, s.params ?? []);
      }
    } finally {
      this.forgetVersions();
    }
  }

  private forgetVersions(): void {
    this.versions.forget();
    this.tenantVersions.clear();
  }

  async version(tenantId?: string): Promise<string | undefined> {
    if (tenantId === undefined) return this.versions.version();
    const now = Date.now();
    const memo = this.tenantVersions.get(tenantId);
    if (memo && now - memo.at < VERSION_TTL_MS) return memo.value;
    let rows: WarehouseRow[];
    try {
      rows = await this.query(BOTH_VERSIONS_SQL, [tenantId]);
    } catch {
      // A table missing (created by ensureTables, so only on a server someone emptied): one at a time.
      return this.versions.version(tenantId);
    }
    const of = (k: string) => rows.find((r) => r.k === k && r.version !== null)?.version;
    const [data, tenant] = [of('data'), of('tenant')];
    const value = data === undefined && tenant === undefined ? undefined : `${data ?? ''}/${tenant ?? ''}`;
    if (this.tenantVersions.size > 10_000) this.tenantVersions.clear();
    this.tenantVersions.set(tenantId, { value, at: now });
    return value;
  }

  async load(request: LoadRequest): Promise<LoadResult> {
    try {
      return await loadIntoClickHouse(this, request);
    } finally {
      this.forgetVersions();
    }
  }

  /** The tables with the tenant column (on a cluster the Distributed ones, not their shards' local tables). */
  async tables(tenantColumnOf?: TenantColumnOf): Promise<WarehouseTable[]> {
    return (await this.allTables(tenantColumnOf)).tables;
  }

  /** Every table of the database (a load refuses a name taken by a table without the tenant column). */
  async allTables(tenantColumnOf?: TenantColumnOf): Promise<{ tables: WarehouseTable[]; all: Set<string> }> {
    const rows = await this.query(
      `SELECT c.table AS t, c.name AS c, c.type AS type FROM system.columns AS c
       INNER JOIN system.tables AS s ON s.database = c.database AND s.name = c.table
       WHERE c.database = currentDatabase() AND NOT s.is_temporary AND s.engine NOT IN ('View', 'MaterializedView')
       ORDER BY c.table, c.position`,
    );
    const hidden = (name: string) =>
      STAGING_NAME.test(name) || name.startsWith('.') || (this.topology.cluster !== undefined && name.endsWith('_local'));
    return groupTables(
      rows
        .filter((r) => !hidden(String(r.t)))
        .map((r) => ({ table: String(r.t), column: String(r.c), type: canonicalFromClickHouse(String(r.type)) })),
      tenantColumnOf,
    );
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
