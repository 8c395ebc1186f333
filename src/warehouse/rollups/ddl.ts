// The statements that create, swap and delete from rollup tables, where engines differ: DuckDB and
// PostgreSQL take them as written here (inside one transaction); ClickHouse has no transactions, no
// CREATE SCHEMA and no ALTER … RENAME TO, and on a cluster writes through its shards' local tables
// (clickhouse/rollups.ts). The rest of a build (INSERT … SELECT, the state rows) is common SQL.
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
    `CREATE TABLE IF NOT EXISTS ${table} (rollup VARCHAR NOT NULL, tenant VARCHAR NOT NULL, problem VARCHAR NOT NULL, ` +
    `attempts INTEGER NOT NULL, failed_at TIMESTAMP NOT NULL)`,
  createAs: (table, select, params) => [{ sql: `CREATE TABLE ${table} AS ${select}`, params }],
  // Inside the build's transaction: readers see the swap at COMMIT.
  replace: (building, table, name) => [{ sql: `DROP TABLE IF EXISTS ${table}` }, { sql: `ALTER TABLE ${building} RENAME TO ${name}` }],
  drop: (table) => [{ sql: `DROP TABLE IF EXISTS ${table}` }],
  delete: (table, where, params) => ({ sql: `DELETE FROM ${table} WHERE ${where}`, params }),
};
