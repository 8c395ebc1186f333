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
  type LoadResult,
  type WarehouseTable,
} from './load.ts';
import { describeFile, explainReadError, fileTimeRanges, readerSql, watchProgress } from './load-reader.ts';

/** Tables of the current schema, with the tenant column left out; `all` also names tables without one. */
export async function duckDbTables(conn: DuckDBConnection): Promise<{ tables: WarehouseTable[]; all: Set<string> }> {
  const reader = await conn.runAndReadAll(
    `SELECT c.table_name, c.column_name, c.data_type
     FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_catalog = c.table_catalog AND t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND c.table_catalog = current_database() AND t.table_type = 'BASE TABLE'
     ORDER BY c.table_name, c.ordinal_position`,
  );
  return groupTables(reader.getRowObjectsJson().map((r) => ({ table: String(r.table_name), column: String(r.column_name), type: duckTableType(String(r.data_type)) })));
}

/** Groups (table, column, type) rows into the tables a tenant can load into or read. */
export function groupTables(rows: { table: string; column: string; type: string }[]): { tables: WarehouseTable[]; all: Set<string> } {
  const byName = new Map<string, { columns: WarehouseTable['columns']; tenant: boolean }>();
  for (const r of rows) {
    let t = byName.get(r.table);
    if (!t) byName.set(r.table, (t = { columns: [], tenant: false }));
    if (r.column === TENANT_COLUMN) t.tenant = true;
    else t.columns.push({ name: r.column, type: r.type });
  }
  const tables = [...byName]
    .filter(([name, t]) => t.tenant && !name.startsWith('warehouse_'))
    .map(([name, t]) => ({ name, columns: t.columns }));
  return { tables, all: new Set(byName.keys()) };
}

export async function ensureVersionsTable(conn: DuckDBConnection): Promise<void> {
  await conn.run(
    `CREATE TABLE IF NOT EXISTS ${TENANT_VERSIONS_TABLE} (tenant_id VARCHAR PRIMARY KEY, version VARCHAR NOT NULL, loaded_at TIMESTAMP NOT NULL)`,
  );
}

/** Finds the table a load goes into; a table without the tenant column cannot take tenant rows. */
export function targetTable(table: string, found: { tables: WarehouseTable[]; all: Set<string> }): WarehouseTable | undefined {
  const existing = found.tables.find((t) => t.name === table);
  if (!existing && found.all.has(table)) {
    throw new LoadError('input', `Table ${table} exists without a ${TENANT_COLUMN} column, so it cannot hold tenants' rows; load into another table.`, { table: true });
  }
  return existing;
}

export async function loadIntoDuckDb(conn: DuckDBConnection, req: LoadRequest): Promise<LoadResult> {
  checkTableName(req.table);
  await conn.run('SET enable_progress_bar = true; SET enable_progress_bar_print = false');
  if (req.exclusive) {
    await conn.run('SET preserve_insertion_order = false');
    return load(conn, req);
  }
  // Inside the server a load runs on one DuckDB thread: its memory stays small (each reader thread
  // holds its own buffers and row groups) and the other cores stay with the queries. Both settings
  // are global, so they are put back afterwards; loads run one at a time (DuckDbWarehouse.load).
  const threads = Number((await conn.runAndReadAll(`SELECT current_setting('threads') AS n`)).getRowObjectsJson()[0].n);
  await conn.run('SET threads = 1');
  try {
    return await load(conn, req);
  } finally {
    await conn.run(`SET threads = ${threads}`);
  }
}

async function load(conn: DuckDBConnection, req: LoadRequest): Promise<LoadResult> {
  req.onProgress?.({ step: 'reading' });
  const detected = await describeFile(conn, req.file);
  const existing = targetTable(req.table, await duckDbTables(conn));
  const plan = planLoad(req.file, detected, existing);
  await ensureVersionsTable(conn);

  const table = quoteIdent(req.table);
  const names = plan.columns.map((c) => quoteIdent(c.name));
  const casts = plan.columns.map((c) => `CAST(${quoteIdent(c.name)} AS ${c.type})`);
  await conn.run('BEGIN TRANSACTION');
  let rowsLoaded: number;
  let timeRanges: Record<string, { min: string; max: string }>;
  try {
    if (plan.create) {
      await conn.run(`CREATE TABLE ${table} (${plan.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ')}, ${TENANT_COLUMN} VARCHAR NOT NULL)`);
    }
    if (req.mode === 'replace') await conn.run(`DELETE FROM ${table} WHERE ${TENANT_COLUMN} = $1`, [req.tenantId]);
    const stop = watchProgress(conn, 'loading', req.onProgress);
    try {
      const inserted = await conn.run(
        `INSERT INTO ${table} (${[...names, TENANT_COLUMN].join(', ')}) SELECT ${[...casts, '$1'].join(', ')} FROM ${readerSql(req.file, plan.readTypes)}`,
        [req.tenantId],
      );
      rowsLoaded = inserted.rowsChanged;
    } finally {
      stop();
    }
    timeRanges = rowsLoaded > 0 ? await fileTimeRanges(conn, req.file, plan.columns, plan.readTypes) : {};
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
  return { table: req.table, mode: req.mode, rowsLoaded, created: plan.create, timeRanges };
}
