// The DDL the service issues on ClickHouse, one code path for a single server and a cluster
// (docs/clickhouse.md). Single server: MergeTree tables ordered by (tenant column, time column),
// partitioned by month where there is a time column. Cluster (INSIGHTS_CLICKHOUSE_CLUSTER): every
// statement ON CLUSTER; the rows live in <table>_local, a ReplicatedMergeTree on each shard, and
// <table> is a Distributed table over them sharded by the tenant column, so one tenant's rows are
// on one shard and its queries and deletes touch that shard only.
import { TENANT_COLUMN, TENANT_VERSIONS_TABLE } from '../load/rules.ts';

export interface ClickHouseTopology {
  /** The cluster's name in the servers' remote_servers, or undefined for one server. */
  cluster?: string;
  /** The database of WAREHOUSE_URL. */
  database: string;
}

export interface TableSpec {
  name: string;
  /** Column definitions in ClickHouse types, e.g. ['"tenant_id" String', '"ordered_at" DateTime64(6)']. */
  columns: string[];
  /** Sorting key columns after the tenant column (the time column first where there is one). */
  orderBy: string[];
  /** The time column the table is partitioned by month on, if any. */
  partitionBy?: string;
  /** Default true: the table carries the tenant column and is sharded by it. */
  tenant?: boolean;
  /** The tenant column's name (default tenant_id): the model's tenant_column for a loaded table. */
  tenantColumn?: string;
  /** The time column may hold NULL (a loaded file's empty values): it may still sort and partition. */
  nullableKey?: boolean;
}

/** A load's staging table (clickhouse/load.ts): never listed as a table of the warehouse. */
export const STAGING_NAME = /__load_[0-9a-f]{12}(_local)?$/;

export const chQuote = (id: string) => `"${id.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** Where a table's rows are written and deleted: the table itself, or its shards' local table on a cluster. */
export function localTable(t: ClickHouseTopology, name: string): string {
  return t.cluster ? `${name}_local` : name;
}

/** ` ON CLUSTER "name"` on a cluster, else nothing. */
export function onCluster(t: ClickHouseTopology): string {
  return t.cluster ? ` ON CLUSTER ${chQuote(t.cluster)}` : '';
}

// The replication path holds the table's UUID (ON CLUSTER gives every replica the same one), so a
// table dropped and created again, or swapped with EXCHANGE TABLES, never meets an old path.
const REPLICATED = "ReplicatedMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}')";

function engineClause(t: ClickHouseTopology, key: string[], partitionBy?: string, nullableKey = false): string {
  return (
    `ENGINE = ${t.cluster ? REPLICATED : 'MergeTree'}` +
    (partitionBy ? ` PARTITION BY toYYYYMM(${chQuote(partitionBy)})` : '') +
    ` ORDER BY ${key.length ? `(${key.map(chQuote).join(', ')})` : 'tuple()'}` +
    (nullableKey ? ' SETTINGS allow_nullable_key = 1' : '')
  );
}

const tenantOf = (spec: TableSpec) => (spec.tenant !== false ? (spec.tenantColumn ?? TENANT_COLUMN) : undefined);
const keyOf = (spec: TableSpec) => [...(tenantOf(spec) ? [tenantOf(spec)!] : []), ...spec.orderBy];

function distributed(t: ClickHouseTopology, name: string, ine: string, shardColumn?: string): string {
  const shardBy = shardColumn ? `cityHash64(${chQuote(shardColumn)})` : 'rand()';
  return (
    `CREATE TABLE ${ine}${chQuote(name)}${onCluster(t)} AS ${chQuote(localTable(t, name))} ` +
    `ENGINE = Distributed(${chQuote(t.cluster!)}, ${chQuote(t.database)}, ${chQuote(localTable(t, name))}, ${shardBy})`
  );
}

/**
 * A table created from a SELECT (`empty`: its columns only), sorted by `key` and, on a cluster,
 * sharded by `shardColumn`: rollup tables. On a cluster the rows go in through the Distributed table.
 */
export function createTableAs(
  t: ClickHouseTopology,
  name: string,
  key: string[],
  shardColumn: string,
  select: string,
  opts: { empty?: boolean; ifNotExists?: boolean } = {},
): string[] {
  const ine = opts.ifNotExists ? 'IF NOT EXISTS ' : '';
  // A rollup's keys come through LEFT JOINs (order_items' day is its order's), so they may be NULL.
  const engine = engineClause(t, key, undefined, true);
  if (!t.cluster) return [`CREATE TABLE ${ine}${chQuote(name)} ${engine} ${opts.empty ? 'EMPTY ' : ''}AS ${select}`];
  return [
    `CREATE TABLE ${ine}${chQuote(localTable(t, name))}${onCluster(t)} ${engine} EMPTY AS ${select}`,
    distributed(t, name, ine, shardColumn),
    ...(opts.empty ? [] : [`INSERT INTO ${chQuote(name)} ${select}`]),
  ];
}

/** Swaps two tables' contents atomically for readers (EXCHANGE TABLES; on a cluster their local tables on every replica). */
export function exchangeTables(t: ClickHouseTopology, a: string, b: string): string {
  return `EXCHANGE TABLES ${chQuote(localTable(t, a))} AND ${chQuote(localTable(t, b))}${onCluster(t)}`;
}

/** The statements that create a table (IF NOT EXISTS): one on a server, two on a cluster. */
export function createTable(t: ClickHouseTopology, spec: TableSpec, ifNotExists = true): string[] {
  const ine = ifNotExists ? 'IF NOT EXISTS ' : '';
  const local =
    `CREATE TABLE ${ine}${chQuote(localTable(t, spec.name))}${onCluster(t)} (${spec.columns.join(', ')}) ` +
    `${engineClause(t, keyOf(spec), spec.partitionBy, spec.nullableKey)}`;
  if (!t.cluster) return [local];
  return [local, distributed(t, spec.name, ine, tenantOf(spec))];
}

/** Drops a table (and its local tables on a cluster). */
export function dropTable(t: ClickHouseTopology, name: string): string[] {
  const sync = t.cluster ? ' SYNC' : '';
  return [
    `DROP TABLE IF EXISTS ${chQuote(name)}${onCluster(t)}${sync}`,
    ...(t.cluster ? [`DROP TABLE IF EXISTS ${chQuote(localTable(t, name))}${onCluster(t)} SYNC`] : []),
  ];
}

/**
 * Deletes rows (a lightweight DELETE, applied before it returns under the warehouse's settings):
 * on a cluster on the local tables of every shard, as a Distributed table takes no DELETE.
 */
export function deleteRows(t: ClickHouseTopology, name: string, where: string): string {
  return `DELETE FROM ${chQuote(localTable(t, name))}${onCluster(t)} WHERE ${where}`;
}

// The demo shop's tables (docs/product.md §7) and the service's own small tables. In the large
// tables a column with few distinct values (tenant, country, channel, status) is LowCardinality: a
// dictionary per part, so the tenant filter and GROUP BYs on it read and compare small integers
// instead of strings (about a third less CPU per scan in bench/clickhouse.ts). Products stay plain
// strings: a few hundred rows, whose columns a join copies out per matched row.
const LC = 'LowCardinality(String)';
const DEMO: TableSpec[] = [
  {
    name: 'products',
    columns: ['"product_id" Int64', '"tenant_id" String', '"name" String', '"category" String', '"brand" String'],
    orderBy: ['product_id'],
  },
  {
    name: 'customers',
    columns: ['"customer_id" Int64', `"tenant_id" ${LC}`, '"signup_at" DateTime64(6)', `"country" ${LC}`],
    orderBy: ['customer_id'],
  },
  {
    name: 'orders',
    columns: [
      '"order_id" Int64',
      `"tenant_id" ${LC}`,
      '"customer_id" Int64',
      '"ordered_at" DateTime64(6)',
      `"country" ${LC}`,
      `"channel" ${LC}`,
      `"status" ${LC}`,
      '"items" Int32',
      '"revenue" Decimal(12, 2)',
      '"discount" Decimal(12, 2)',
    ],
    orderBy: ['ordered_at'],
    partitionBy: 'ordered_at',
  },
  {
    name: 'order_items',
    columns: ['"order_id" Int64', `"tenant_id" ${LC}`, '"product_id" Int64', '"quantity" Int32', '"unit_price" Decimal(10, 2)'],
    orderBy: ['order_id'],
  },
  {
    name: 'web_sessions',
    columns: [`"tenant_id" ${LC}`, '"day" Date32', `"country" ${LC}`, `"channel" ${LC}`, '"sessions" Int32'],
    orderBy: ['day'],
    partitionBy: 'day',
  },
];

export const META_TABLE: TableSpec = {
  name: 'warehouse_meta',
  columns: [
    '"id" Int32',
    '"version" String',
    '"seeded_at" DateTime64(6)',
    '"rows_requested" Int64',
    '"tenants" String',
    '"end_day" Date32',
  ],
  orderBy: ['id'],
  tenant: false,
};

/** A row per load: the tenant's data version is its latest (read with argMax, no updates in place). */
export const VERSIONS_TABLE: TableSpec = {
  name: TENANT_VERSIONS_TABLE,
  columns: ['"tenant_id" String', '"version" String', '"loaded_at" DateTime64(6)'],
  orderBy: ['loaded_at'],
};

/** The demo tables and the service's own tables, created when missing. */
export function clickhouseWarehouseDdl(t: ClickHouseTopology, demo = true): string[] {
  return [...createTable(t, META_TABLE), ...createTable(t, VERSIONS_TABLE), ...(demo ? DEMO.flatMap((spec) => createTable(t, spec)) : [])];
}

export const DEMO_TABLES = DEMO;

/** A ClickHouse column type → the canonical (DuckDB) type name the load rules speak. */
export function canonicalFromClickHouse(type: string): string {
  const t = type.replace(/^(Nullable|LowCardinality)\((.*)\)$/, '$2').replace(/^(Nullable|LowCardinality)\((.*)\)$/, '$2');
  const decimal = /^Decimal(?:\d+)?\((\d+),\s*(\d+)\)$/.exec(t);
  if (decimal) return `DECIMAL(${decimal[1]},${decimal[2]})`;
  if (/^DateTime(64)?\(.*'.+'\)$/.test(t) || /^DateTime\('.+'\)$/.test(t)) return 'TIMESTAMPTZ';
  if (/^DateTime/.test(t)) return 'TIMESTAMP';
  const map: Record<string, string> = {
    Int8: 'TINYINT',
    Int16: 'SMALLINT',
    Int32: 'INTEGER',
    Int64: 'BIGINT',
    UInt8: 'SMALLINT',
    UInt16: 'INTEGER',
    UInt32: 'BIGINT',
    UInt64: 'DECIMAL(38,0)',
    Int128: 'DECIMAL(38,0)',
    UInt128: 'DECIMAL(38,0)',
    Float32: 'FLOAT',
    Float64: 'DOUBLE',
    String: 'VARCHAR',
    UUID: 'VARCHAR',
    Date: 'DATE',
    Date32: 'DATE',
    Bool: 'BOOLEAN',
  };
  if (/^FixedString\(\d+\)$/.test(t) || /^Enum(8|16)\(/.test(t)) return 'VARCHAR';
  return map[t] ?? t.toUpperCase();
}

/** The canonical type → the ClickHouse column type a first load creates (Nullable: files have empty values). */
export function clickhouseType(canonical: string): string {
  const decimal = /^DECIMAL\((\d+),(\d+)\)$/.exec(canonical);
  if (decimal) return `Nullable(Decimal(${decimal[1]}, ${decimal[2]}))`;
  const map: Record<string, string> = {
    BIGINT: 'Int64',
    INTEGER: 'Int32',
    SMALLINT: 'Int16',
    TINYINT: 'Int8',
    DOUBLE: 'Float64',
    FLOAT: 'Float32',
    VARCHAR: 'String',
    DATE: 'Date32',
    TIMESTAMP: 'DateTime64(6)',
    TIMESTAMPTZ: "DateTime64(6, 'UTC')",
    TIME: 'String',
    BOOLEAN: 'Bool',
  };
  return `Nullable(${map[canonical] ?? 'String'})`;
}

/**
 * Splits a script into statements on `;` outside quotes and comments (the HTTP interface takes one
 * statement per request).
 */
export function splitStatements(script: string): string[] {
  const out: string[] = [];
  let current = '';
  const re = /'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`|--[^\n]*|\/\*[\s\S]*?\*\/|;|[^'"`;\-/]+|[\s\S]/g;
  for (const m of script.matchAll(re)) {
    const tok = m[0];
    if (tok === ';') {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else if (!tok.startsWith('--') && !(tok.startsWith('/*') && tok.length > 1)) current += tok;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
