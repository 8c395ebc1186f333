// Loading into a PostgreSQL warehouse. DuckDB (in memory) reads the file with the same readers and
// type rules as the embedded warehouse and writes the rows, already cast to the table's types and
// with the tenant column, as a plain CSV; PostgreSQL takes that with COPY … FROM STDIN.
//
// The COPY goes straight into the table inside the load's transaction: the rows become visible only
// at COMMIT, together with a `replace`'s DELETE, so a staging table would only write every row twice.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { tempFile } from '../../lib/temp-dir.ts';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { byteCounter, loadResult, prepareLoad, stageRows, withStagingReader } from '../load/prepare.ts';
import { checkTableName, LoadError, quoteIdent, TENANT_VERSIONS_TABLE, type LoadRequest, type LoadResult } from '../load/rules.ts';
import { groupTables, type FoundTables } from '../load/tables.ts';
import type { TenantColumnOf } from '../../semantic/tenancy.ts';

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

export async function postgresTables(query: Query, tenantColumnOf?: TenantColumnOf): Promise<FoundTables> {
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
      `CREATE TABLE IF NOT EXISTS ${TENANT_VERSIONS_TABLE} (tenant_id text PRIMARY KEY, version text NOT NULL, ` +
        `loaded_at timestamp NOT NULL)`,
    );
  } catch (err) {
    // Two first loads at once: the other one created it.
    if ((err as { code?: string }).code !== '23505') throw err;
  }
}

export async function loadIntoPostgres(pool: pg.Pool, req: LoadRequest): Promise<LoadResult> {
  checkTableName(req.table);
  const staged = tempFile('insights-load', 'csv');
  const query: Query = (sql, params) => pool.query(sql, params as unknown[]);
  try {
    return await withStagingReader(async (conn) => {
      const prepared = await prepareLoad(conn, req, (tenantColumnOf) => postgresTables(query, tenantColumnOf));
      const { plan } = prepared;
      await stageRows(conn, req, prepared, {
        column: (value) => value,
        tenant: '$1',
        staged,
        format: 'FORMAT csv, HEADER false',
      });
      const tenant = quoteIdent(prepared.tenantColumn);
      await ensurePostgresVersionsTable(query);
      const table = quoteIdent(req.table);
      const client = await pool.connect();
      let rowsLoaded = 0;
      try {
        await client.query('BEGIN');
        if (plan.create) {
          await client.query(
            `CREATE TABLE ${table} ` +
              `(${[...plan.columns.map((c) => `${quoteIdent(c.name)} ${postgresType(c.type)}`), `${tenant} text NOT NULL`].join(', ')})`,
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
      return loadResult(req, prepared, rowsLoaded);
    });
  } finally {
    await fs.promises.rm(staged, { force: true });
  }
}
