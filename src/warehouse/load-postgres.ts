// Loading into a PostgreSQL warehouse. DuckDB (in memory) reads the file with the same readers and
// type rules as the embedded warehouse and writes the rows, already cast to the table's types and
// with the tenant column, as a plain CSV; PostgreSQL takes that with COPY … FROM STDIN.
//
// The COPY goes straight into the table inside the load's transaction: the rows become visible only
// at COMMIT, together with a `replace`'s DELETE, so a staging table would only write every row twice.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { tempFile } from '../lib/temp-dir.ts';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { groupTables, targetTable } from './load-duckdb.ts';
import {
  checkTableName,
  LoadError,
  planLoad,
  quoteIdent,
  quoteLiteral,
  TENANT_COLUMN,
  TENANT_VERSIONS_TABLE,
  type LoadRequest,
  type LoadResult,
  type WarehouseTable,
} from './load.ts';
import { describeFile, explainReadError, readerSql, watchProgress } from './load-reader.ts';
import { checkedTimeRanges } from './load-ranges.ts';
import type { TenantColumnOf } from '../semantic/tenancy.ts';

/** PostgreSQL's information_schema type → the canonical (DuckDB) type name. */
export function canonicalFromPostgres(dataType: string, precision: number | null, scale: number | null): string {
  switch (dataType) {
    case 'bigint':
      return 'BIGINT';
    case 'integer':
      return 'INTEGER';
    case 'smallint':
      return 'SMALLINT';
    case 'double precision':
      return 'DOUBLE';
    case 'real':
      return 'FLOAT';
    case 'numeric':
      return precision === null ? 'DOUBLE' : `DECIMAL(${precision},${scale ?? 0})`;
    case 'text':
    case 'character varying':
    case 'character':
    case 'uuid':
    case 'json':
    case 'jsonb':
      return 'VARCHAR';
    case 'date':
      return 'DATE';
    case 'timestamp without time zone':
      return 'TIMESTAMP';
    case 'timestamp with time zone':
      return 'TIMESTAMPTZ';
    case 'time without time zone':
      return 'TIME';
    case 'boolean':
      return 'BOOLEAN';
    default:
      return dataType.toUpperCase();
  }
}

/** The canonical type → the PostgreSQL column type a first load creates. */
export function postgresType(canonical: string): string {
  const decimal = /^DECIMAL\((\d+),(\d+)\)$/.exec(canonical);
  if (decimal) return `numeric(${decimal[1]},${decimal[2]})`;
  const map: Record<string, string> = {
    BIGINT: 'bigint',
    INTEGER: 'integer',
    SMALLINT: 'smallint',
    DOUBLE: 'double precision',
    FLOAT: 'real',
    VARCHAR: 'text',
    DATE: 'date',
    TIMESTAMP: 'timestamp',
    TIMESTAMPTZ: 'timestamptz',
    TIME: 'time',
    BOOLEAN: 'boolean',
  };
  return map[canonical] ?? 'text';
}

type Query = (sql: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export async function postgresTables(
  query: Query,
  tenantColumnOf?: TenantColumnOf,
): Promise<{ tables: WarehouseTable[]; all: Set<string> }> {
  const { rows } = await query(
    `SELECT c.table_name, c.column_name, c.data_type, c.numeric_precision, c.numeric_scale
     FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
     ORDER BY c.table_name, c.ordinal_position`,
  );
  return groupTables(
    rows.map((r) => ({
      table: String(r.table_name),
      column: String(r.column_name),
      type: canonicalFromPostgres(
        String(r.data_type),
        r.numeric_precision === null ? null : Number(r.numeric_precision),
        r.numeric_scale === null ? null : Number(r.numeric_scale),
      ),
    })),
    tenantColumnOf,
  );
}

export async function ensurePostgresVersionsTable(query: Query): Promise<void> {
  try {
    await query(
      `CREATE TABLE IF NOT EXISTS ${TENANT_VERSIONS_TABLE} (tenant_id text PRIMARY KEY, version text NOT NULL, loaded_at timestamp NOT NULL)`,
    );
  } catch (err) {
    // Two first loads at once: the other one created it.
    if ((err as { code?: string }).code !== '23505') throw err;
  }
}

/** Counts the bytes read from the staged file, for the progress of the COPY. */
export function byteCounter(total: number, onProgress?: LoadRequest['onProgress']): Transform {
  let sent = 0;
  let last = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      sent += chunk.length;
      const now = Date.now();
      if (onProgress && now - last > 250) {
        last = now;
        onProgress({ step: 'sending', fraction: total ? sent / total : undefined });
      }
      done(null, chunk);
    },
  });
}

export async function loadIntoPostgres(pool: pg.Pool, req: LoadRequest): Promise<LoadResult> {
  checkTableName(req.table);
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const staged = tempFile('insights-load', 'csv');
  const query: Query = (sql, params) => pool.query(sql, params as unknown[]);
  try {
    // A private instance: the staged file's row order does not matter, so DuckDB writes it in parallel.
    await conn.run('SET enable_progress_bar = true; SET enable_progress_bar_print = false; SET preserve_insertion_order = false');
    req.onProgress?.({ step: 'reading' });
    const tenantColumn = req.tenantColumn ?? TENANT_COLUMN;
    const detected = await describeFile(conn, req.file);
    const existing = targetTable(req.table, await postgresTables(query, () => tenantColumn), tenantColumn);
    const plan = planLoad(req.file, detected, existing, tenantColumn, req.modelColumns);
    const tenant = quoteIdent(existing?.tenantColumn ?? tenantColumn);
    // Before anything is written: a time no engine or rollup can bucket is a bad row.
    const timeRanges = await checkedTimeRanges(conn, req.file, plan);

    // Reading and casting happen here, so a row that does not fit is reported with its line.
    const casts = plan.columns.map((c) => `CAST(${quoteIdent(c.name)} AS ${c.type})`);
    const stop = watchProgress(conn, 'loading', req.onProgress);
    const interrupt = () => conn.interrupt();
    req.signal?.addEventListener('abort', interrupt, { once: true });
    try {
      req.signal?.throwIfAborted();
      await conn.run(
        `COPY (SELECT ${[...casts, '$1'].join(', ')} FROM ${readerSql(req.file, plan.readTypes)}) TO ${quoteLiteral(staged)} (FORMAT csv, HEADER false)`,
        [req.tenantId],
      );
    } catch (err) {
      req.signal?.throwIfAborted();
      throw await explainReadError(conn, req.file, err as Error, plan.readTypes ?? plan.columns);
    } finally {
      req.signal?.removeEventListener('abort', interrupt);
      stop();
    }

    await ensurePostgresVersionsTable(query);
    const table = quoteIdent(req.table);
    const client = await pool.connect();
    let rowsLoaded = 0;
    try {
      await client.query('BEGIN');
      if (plan.create) {
        await client.query(
          `CREATE TABLE ${table} (${plan.columns.map((c) => `${quoteIdent(c.name)} ${postgresType(c.type)}`).join(', ')}, ${tenant} text NOT NULL)`,
        );
      }
      if (req.mode === 'replace') await client.query(`DELETE FROM ${table} WHERE ${tenant} = $1`, [req.tenantId]);
      const copy = client.query(
        copyStreams.from(
          `COPY ${table} (${[...plan.columns.map((c) => quoteIdent(c.name)), tenant].join(', ')}) FROM STDIN WITH (FORMAT csv)`,
        ),
      );
      await pipeline(fs.createReadStream(staged), byteCounter((await fs.promises.stat(staged)).size, req.onProgress), copy);
      rowsLoaded = copy.rowCount;
      req.onProgress?.({ step: 'committing' });
      req.signal?.throwIfAborted();
      await client.query(
        `INSERT INTO ${TENANT_VERSIONS_TABLE} VALUES ($1, $2, now()::timestamp)
         ON CONFLICT (tenant_id) DO UPDATE SET version = excluded.version, loaded_at = excluded.loaded_at`,
        [req.tenantId, crypto.randomUUID()],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      const e = err as { code?: string; message: string; where?: string };
      // A value DuckDB accepted but PostgreSQL does not (rare: e.g. a date beyond PostgreSQL's range).
      if (e.code && /^22/.test(e.code)) throw new LoadError('row', `${e.message}${e.where ? ` (${e.where.split('\n')[0]})` : ''}.`);
      throw err;
    } finally {
      client.release();
    }
    return {
      table: req.table,
      mode: req.mode,
      rowsLoaded,
      created: plan.create,
      timeRanges: rowsLoaded > 0 ? timeRanges : {},
      columns: plan.columns,
    };
  } finally {
    await fs.promises.rm(staged, { force: true });
    conn.closeSync();
    instance.closeSync();
  }
}
