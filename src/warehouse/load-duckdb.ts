// Loading into the embedded DuckDB warehouse: one set-based INSERT … SELECT from DuckDB's own
// reader inside one transaction, so a load is all or nothing and queries running meanwhile (on
// other connections) see either none of its rows or all of them.
import crypto from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  checkTableName,
  duckTableType,
  LoadError,
  planLoad,
  quoteIdent,
  TENANT_COLUMN,
  TENANT_VERSIONS_TABLE,
  type LoadRequest,
  type Column,
  type LoadResult,
  type WarehouseTable,
} from './load.ts';
import { describeFile, explainReadError, readerSql, watchProgress } from './load-reader.ts';
import { checkedTimeRanges } from './load-ranges.ts';
import type { TenantColumnOf } from '../semantic/tenancy.ts';

/** Tables of the current schema, with the tenant column left out; `all` also names tables without one. */
export async function duckDbTables(
  conn: DuckDBConnection,
  tenantColumnOf?: TenantColumnOf,
): Promise<{ tables: WarehouseTable[]; all: Set<string> }> {
  const reader = await conn.runAndReadAll(
    `SELECT c.table_name, c.column_name, c.data_type
     FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_catalog = c.table_catalog AND t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND c.table_catalog = current_database() AND t.table_type = 'BASE TABLE'
     ORDER BY c.table_name, c.ordinal_position`,
  );
  return groupTables(
    reader
      .getRowObjectsJson()
      .map((r) => ({ table: String(r.table_name), column: String(r.column_name), type: duckTableType(String(r.data_type)) })),
    tenantColumnOf,
  );
}

/**
 * Groups (table, column, type) rows into the tables a tenant can load into or read: those with
 * their tenant column (the model's for that table, tenant_id by default; matched without regard to
 * case, as the engines do).
 */
export function groupTables(
  rows: { table: string; column: string; type: string }[],
  tenantColumnOf: TenantColumnOf = () => TENANT_COLUMN,
): { tables: WarehouseTable[]; all: Set<string> } {
  const byName = new Map<string, Column[]>();
  for (const r of rows) {
    let columns = byName.get(r.table);
    if (!columns) byName.set(r.table, (columns = []));
    columns.push({ name: r.column, type: r.type });
  }
  const tables: WarehouseTable[] = [];
  for (const [name, columns] of byName) {
    if (name.startsWith('warehouse_')) continue;
    const wanted = tenantColumnOf(name);
    const tenant = columns.find((c) => c.name === wanted) ?? columns.find((c) => c.name.toLowerCase() === wanted.toLowerCase());
    if (tenant) tables.push({ name, columns: columns.filter((c) => c !== tenant), tenantColumn: tenant.name });
  }
  return { tables, all: new Set(byName.keys()) };
}

export async function ensureVersionsTable(conn: DuckDBConnection): Promise<void> {
  await conn.run(
    `CREATE TABLE IF NOT EXISTS ${TENANT_VERSIONS_TABLE} (tenant_id VARCHAR PRIMARY KEY, version VARCHAR NOT NULL, loaded_at TIMESTAMP NOT NULL)`,
  );
}

/** Finds the table a load goes into; a table without its tenant column cannot take tenant rows. */
export function targetTable(
  table: string,
  found: { tables: WarehouseTable[]; all: Set<string> },
  tenantColumn: string = TENANT_COLUMN,
): WarehouseTable | undefined {
  const existing = found.tables.find((t) => t.name === table);
  if (!existing && found.all.has(table)) {
    throw new LoadError(
      'input',
      `Table ${table} exists without a ${tenantColumn} column (the model's tenant_column for it), so it cannot hold tenants' rows; name its tenant column in the model, or load into another table.`,
      { table: true },
    );
  }
  return existing;
}

export async function loadIntoDuckDb(conn: DuckDBConnection, req: LoadRequest): Promise<LoadResult> {
  checkTableName(req.table);
  await conn.run('SET enable_progress_bar = true; SET enable_progress_bar_print = false');
  if (req.exclusive) await conn.run('SET preserve_insertion_order = false');
  // Inside the server a load runs on one DuckDB thread (set and put back by DuckDbWarehouse.load,
  // once for all loads running at once): its memory stays small and the other cores stay with the
  // queries.
  return load(conn, req);
}

async function load(conn: DuckDBConnection, req: LoadRequest): Promise<LoadResult> {
  req.onProgress?.({ step: 'reading' });
  const tenantColumn = req.tenantColumn ?? TENANT_COLUMN;
  const detected = await describeFile(conn, req.file);
  const existing = targetTable(req.table, await duckDbTables(conn, () => tenantColumn), tenantColumn);
  const plan = planLoad(req.file, detected, existing, tenantColumn, req.modelColumns);
  const tenant = quoteIdent(existing?.tenantColumn ?? tenantColumn);
  // Before anything is written: a time no engine or rollup can bucket is a bad row.
  const timeRanges = await checkedTimeRanges(conn, req.file, plan);
  await ensureVersionsTable(conn);

  const table = quoteIdent(req.table);
  const names = plan.columns.map((c) => quoteIdent(c.name));
  const casts = plan.columns.map((c) => `CAST(${quoteIdent(c.name)} AS ${c.type})`);
  await conn.run('BEGIN TRANSACTION');
  let rowsLoaded: number;
  try {
    if (plan.create) {
      await conn.run(
        `CREATE TABLE ${table} (${plan.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ')}, ${tenant} VARCHAR NOT NULL)`,
      );
    }
    if (req.mode === 'replace') await conn.run(`DELETE FROM ${table} WHERE ${tenant} = $1`, [req.tenantId]);
    const stop = watchProgress(conn, 'loading', req.onProgress);
    try {
      const inserted = await conn.run(
        `INSERT INTO ${table} (${[...names, tenant].join(', ')}) SELECT ${[...casts, '$1'].join(', ')} FROM ${readerSql(req.file, plan.readTypes)}`,
        [req.tenantId],
      );
      rowsLoaded = inserted.rowsChanged;
    } finally {
      stop();
    }
    req.onProgress?.({ step: 'committing' });
    req.signal?.throwIfAborted();
    await conn.run(
      `INSERT INTO ${TENANT_VERSIONS_TABLE} VALUES ($1, $2, CAST(now() AS TIMESTAMP))
       ON CONFLICT (tenant_id) DO UPDATE SET version = excluded.version, loaded_at = excluded.loaded_at`,
      [req.tenantId, crypto.randomUUID()],
    );
    await conn.run('COMMIT');
  } catch (err) {
    await conn.run('ROLLBACK').catch(() => {});
    throw err instanceof LoadError ? err : await explainReadError(conn, req.file, err as Error, plan.readTypes ?? plan.columns);
  }
  return {
    table: req.table,
    mode: req.mode,
    rowsLoaded,
    created: plan.create,
    timeRanges: rowsLoaded > 0 ? timeRanges : {},
    columns: plan.columns,
  };
}
