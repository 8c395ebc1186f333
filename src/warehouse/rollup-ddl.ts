// The statements that create, swap and delete from rollup tables, where engines differ: DuckDB and
// PostgreSQL take them as written here (inside one transaction); ClickHouse has no transactions, no
// CREATE SCHEMA and no ALTER … RENAME TO, and on a cluster writes through its shards' local tables
// (clickhouse-rollups.ts). The rest of a build (INSERT … SELECT, the state rows) is common SQL.
/** A statement of a rollup build (Warehouse.transaction's). */
export type TransactionStatement = { sql: string; params?: unknown[] };

export interface RollupDdl {
  /** A script creating the rollup schema and the state table (columns given in standard SQL). */
  schema(schema: string, state: string, columns: string): string;
  /** A script creating the problems table (rollup, tenant, problem, attempts, failed_at), when missing. */
  problems(table: string): string;
  /** `table` created from a SELECT (its rows, or only its columns when `empty`). */
  createAs(table: string, select: string, params: unknown[]): TransactionStatement[] | Promise<TransactionStatement[]>;
  /**
   * The table built aside (`building`) takes the place of `table` (which may not exist yet; `name`
   * is its bare name); readers see the old rows or the new ones, never none.
   */
  replace(building: string, table: string, name: string, select: string, params: unknown[]): TransactionStatement[];
  drop(table: string): TransactionStatement[];
  delete(table: string, where: string, params: unknown[]): TransactionStatement;
}

export const STANDARD_ROLLUP_DDL: RollupDdl = {
  schema: (schema, state, columns) => `CREATE SCHEMA IF NOT EXISTS ${schema}; CREATE TABLE IF NOT EXISTS ${state} (${columns})`,
  problems: (table) =>
    `CREATE TABLE IF NOT EXISTS ${table} (rollup VARCHAR NOT NULL, tenant VARCHAR NOT NULL, problem VARCHAR NOT NULL, attempts INTEGER NOT NULL, failed_at TIMESTAMP NOT NULL)`,
  createAs: (table, select, params) => [{ sql: `CREATE TABLE ${table} AS ${select}`, params }],
  // Inside the build's transaction: readers see the swap at COMMIT.
  replace: (building, table, name) => [{ sql: `DROP TABLE IF EXISTS ${table}` }, { sql: `ALTER TABLE ${building} RENAME TO ${name}` }],
  drop: (table) => [{ sql: `DROP TABLE IF EXISTS ${table}` }],
  delete: (table, where, params) => ({ sql: `DELETE FROM ${table} WHERE ${where}`, params }),
};

/** A 128-bit integer type of DuckDB: HUGEINT, UHUGEINT, or a DECIMAL wider than 18 digits. */
const WIDE = /^(U?HUGEINT|INT128|DECIMAL\((19|[2-3]\d),\s*\d+\))$/i;

/**
 * DuckDB: the table is declared column by column with the SELECT's own types, and its 128-bit
 * columns (a sum of money is DECIMAL(38,2), a sum of integers HUGEINT) stored uncompressed. DuckDB
 * bit-packs them otherwise, and unpacking 128-bit values scans ~60× slower than any other column:
 * on 10 M orders, summing the orders.daily rollup's 55,480 revenue figures took 10–60 ms bit-packed,
 * under 1 ms uncompressed, for 16 bytes a row (docs/performance.md). The values and types are the
 * same, so every answer is too.
 */
export function duckDbRollupDdl(columnsOf: (select: string, params: unknown[]) => Promise<{ name: string; type: string }[]>): RollupDdl {
  return {
    ...STANDARD_ROLLUP_DDL,
    createAs: async (table, select, params) => {
      const columns = await columnsOf(select, params);
      const list = columns.map(
        (c) => `"${c.name.replace(/"/g, '""')}" ${c.type}${WIDE.test(c.type) ? ' USING COMPRESSION uncompressed' : ''}`,
      );
      return [{ sql: `CREATE TABLE ${table} (${list.join(', ')})` }, { sql: `INSERT INTO ${table} ${select}`, params }];
    },
  };
}
