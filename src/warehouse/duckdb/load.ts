// Loading into the embedded DuckDB warehouse: one set-based INSERT … SELECT from DuckDB's own
// reader inside one transaction, so a load is all or nothing and queries running meanwhile (on
// other connections) see either none of its rows or all of them.
import crypto from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { loadResult, prepareLoad } from '../load/prepare.ts';
import { checkedValue, explainLoadError } from '../load/ranges.ts';
import { readerSql, watchProgress } from '../load/reader.ts';
import {
  checkTableName,
  duckTableType,
  LoadError,
  quoteIdent,
  TENANT_VERSIONS_TABLE,
  type LoadRequest,
  type LoadResult,
} from '../load/rules.ts';
import { groupTables, type FoundTables } from '../load/tables.ts';
import type { TenantColumnOf } from '../../semantic/tenancy.ts';

/** Tables of the current schema, with the tenant column left out; `all` also names tables without one. */
export async function duckDbTables(conn: DuckDBConnection, tenantColumnOf?: TenantColumnOf): Promise<FoundTables> {
  const reader = await conn.runAndReadAll(
    `SELECT c.table_name, c.column_name, c.data_type
     FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_catalog = c.table_catalog AND t.table_schema = c.table_schema
      AND t.table_name = c.table_name
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

export async function ensureVersionsTable(conn: DuckDBConnection): Promise<void> {
  await conn.run(
    `CREATE TABLE IF NOT EXISTS ${TENANT_VERSIONS_TABLE} (tenant_id VARCHAR PRIMARY KEY, version VARCHAR NOT NULL, ` +
      `loaded_at TIMESTAMP NOT NULL)`,
  );
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
  const prepared = await prepareLoad(conn, req, (tenantColumnOf) => duckDbTables(conn, tenantColumnOf));
  const { plan } = prepared;
  const tenant = quoteIdent(prepared.tenantColumn);
  await ensureVersionsTable(conn);

  const table = quoteIdent(req.table);
  const names = plan.columns.map((c) => quoteIdent(c.name));
  const casts = plan.columns.map(checkedValue);
  await conn.run('BEGIN TRANSACTION');
  let rowsLoaded: number;
  try {
    if (plan.create) {
      await conn.run(
        // A cube that reads no column of its table (a count) makes a table of the tenant column alone.
        `CREATE TABLE ${table} ` +
          `(${[...plan.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`), `${tenant} VARCHAR NOT NULL`].join(', ')})`,
      );
    }
    if (req.mode === 'replace') await conn.run(`DELETE FROM ${table} WHERE ${tenant} = $1`, [req.tenantId]);
    const stop = watchProgress(conn, 'loading', req.onProgress);
    try {
      const inserted = await conn.run(
        `INSERT INTO ${table} (${[...names, tenant].join(', ')}) SELECT ${[...casts, '$1'].join(', ')} FROM ` +
          `${readerSql(req.file, plan.readTypes)}`,
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
    throw err instanceof LoadError ? err : await explainLoadError(conn, req.file, plan, err as Error);
  }
  return loadResult(req, prepared, rowsLoaded);
}
