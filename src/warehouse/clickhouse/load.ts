// Loading into ClickHouse (docs/clickhouse.md "Loading"). DuckDB reads the file with the same
// readers, type rules and line-numbered errors as on the other engines (load/reader.ts) and writes
// the rows, cast to the table's types and with the tenant column, as Parquet; ClickHouse takes that
// stream with INSERT … FORMAT Parquet into a staging table shaped like the target.
//
// All or nothing without transactions: every row goes to the staging table first, and a failure
// drops it (nothing reached the table). Then, in one ALTER (metadata only, no rows copied):
// append attaches the staging table's partitions to the table; replace first copies into staging
// the other tenants' rows of every partition it touches (the tenant's old months and new ones),
// then swaps those partitions whole with REPLACE PARTITION, so readers see each month either
// before or after, never the tenant without rows. Loads into one table run one at a time.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { ClickHouseClient } from '@clickhouse/client';
import { tempFile } from '../../lib/temp-dir.ts';
import { chQuote, clickhouseType, createTable, dropTable, localTable, onCluster, VERSIONS_TABLE, type ClickHouseTopology } from './ddl.ts';
import { byteCounter, loadResult, prepareLoad, stageRows, withStagingReader } from '../load/prepare.ts';
import {
  checkTableName,
  isTimeType,
  LoadError,
  quoteIdent,
  quoteLiteral,
  TENANT_VERSIONS_TABLE,
  type LoadRequest,
  type LoadResult,
} from '../load/rules.ts';
import type { FoundTables } from '../load/tables.ts';
import type { TenantColumnOf } from '../../semantic/tenancy.ts';

/** What a load needs of the warehouse: its client, its topology and its queries. */
export interface ClickHouseTarget {
  readonly client: ClickHouseClient;
  readonly topology: ClickHouseTopology;
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Every table with its canonical column types, for targetTable. */
  allTables(tenantColumnOf?: TenantColumnOf): Promise<FoundTables>;
}

// DuckDB types Parquet cannot carry as ClickHouse reads them: TIME goes as text.
const parquetCast = (type: string) => (type === 'TIME' ? 'VARCHAR' : type);

const locks = new Map<string, Promise<unknown>>();

/** Loads into one table run one at a time: a replace rebuilds whole partitions the next load could write into. */
export function loadIntoClickHouse(ch: ClickHouseTarget, req: LoadRequest): Promise<LoadResult> {
  const key = `${ch.topology.database}.${req.table}`;
  const run = (locks.get(key) ?? Promise.resolve()).then(() => load(ch, req));
  const settled = run.catch(() => {});
  locks.set(key, settled);
  void settled.then(() => locks.get(key) === settled && locks.delete(key));
  return run;
}

async function load(ch: ClickHouseTarget, req: LoadRequest): Promise<LoadResult> {
  checkTableName(req.table);
  // Cancelled while waiting for the table's turn: nothing was started.
  req.signal?.throwIfAborted();
  const t = ch.topology;
  const staged = tempFile('insights-load', 'parquet');
  const staging = `${req.table}__load_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let stagingCreated = false;
  try {
    const { prepared, rowsLoaded } = await withStagingReader(async (conn) => {
      const prepared = await prepareLoad(conn, req, (tenantColumnOf) => ch.allTables(tenantColumnOf));
      await stageRows(conn, req, prepared, {
        column: (value, c) => `CAST(${value} AS ${parquetCast(c.type)}) AS ${quoteIdent(c.name)}`,
        tenant: `$1 AS ${quoteIdent(prepared.tenantColumn)}`,
        staged,
        format: 'FORMAT parquet, ROW_GROUP_SIZE 1000000',
      });
      req.signal?.throwIfAborted();
      const counted = await conn.runAndReadAll(`SELECT count(*) AS n FROM read_parquet(${quoteLiteral(staged)})`);
      return { prepared, rowsLoaded: Number(counted.getRowObjectsJson()[0].n) };
    });
    const { plan } = prepared;
    const tenant = prepared.tenantColumn;

    const time = plan.columns.find((c) => isTimeType(c.type))?.name;
    const table = chQuote(req.table);
    if (plan.create) {
      // The first load decides the table: sorted by (tenant, first time column), a partition per month.
      const columns = [...plan.columns.map((c) => `${chQuote(c.name)} ${clickhouseType(c.type)}`), `${chQuote(tenant)} String`];
      const spec = { name: req.table, columns, orderBy: time ? [time] : [], partitionBy: time, nullableKey: true, tenantColumn: tenant };
      for (const sql of createTable(t, spec, false)) await ch.query(sql);
    }
    for (const sql of createTable(t, VERSIONS_TABLE)) await ch.query(sql);
    // The staging table: the target's very structure, engine, sorting and partitioning.
    await ch.query(`CREATE TABLE ${chQuote(localTable(t, staging))}${onCluster(t)} AS ${chQuote(localTable(t, req.table))}`);
    stagingCreated = true;
    if (t.cluster) {
      await ch.query(
        `CREATE TABLE ${chQuote(staging)}${onCluster(t)} AS ${table} ENGINE = Distributed(${chQuote(t.cluster)}, ` +
          `${chQuote(t.database)}, ${chQuote(localTable(t, staging))}, cityHash64(${chQuote(tenant)}))`,
      );
    }
    const size = (await fs.promises.stat(staged)).size;
    await ch.client.insert({
      table: staging,
      // The client writes these names into the INSERT as they are: quoted, a file's "Cost Total $"
      // or "Phase of flight" header is one column, not a syntax error.
      columns: [chQuote(tenant), ...plan.columns.map((c) => chQuote(c.name))],
      values: fs.createReadStream(staged).pipe(byteCounter(size, req.onProgress)),
      format: 'Parquet',
      // Every row in one piece: a staging table is all or nothing anyway, and wide batches make few parts.
      // The file's months are the staging table's partitions: 14 years of strikes are 168 of them,
      // over ClickHouse's default of 100 per INSERT block, which guards against careless keys.
      clickhouse_settings: {
        max_insert_block_size: '10000000',
        min_insert_block_size_rows: '1000000',
        max_partitions_per_insert_block: '0',
      },
      // Cancelled mid-stream: the INSERT stops, and the staging table (dropped below) held its rows.
      abort_signal: req.signal,
    });

    req.onProgress?.({ step: 'committing' });
    // The last point a cancel is heard: after it the partitions go in and the load stands.
    req.signal?.throwIfAborted();
    // The version first: once the partitions are in, nothing may fail (a load answers an error
    // only when none of its rows is kept). A version bumped for a load that then fails only
    // makes the tenant's cached results be computed again.
    await ch.query(`INSERT INTO ${TENANT_VERSIONS_TABLE} VALUES ($1, $2, now64(6))`, [req.tenantId, crypto.randomUUID()]);
    const partitions = async (from: string, where = '') =>
      (await ch.query(`SELECT DISTINCT _partition_id AS p FROM ${chQuote(from)}${where}`, where ? [req.tenantId] : [])).map((r) =>
        String(r.p),
      );
    const ids = (list: string[]) => list.map((p) => quoteLiteral(p));
    const local = chQuote(localTable(t, req.table));
    const from = chQuote(localTable(t, staging));
    if (req.mode === 'append') {
      const staged = await partitions(staging);
      if (staged.length)
        await ch.query(
          `ALTER TABLE ${local}${onCluster(t)} ${staged.map((p) => `ATTACH PARTITION ID ${quoteLiteral(p)} FROM ${from}`).join(', ')}`,
        );
    } else {
      const touched = [...new Set([...(await partitions(req.table, ` WHERE ${chQuote(tenant)} = $1`)), ...(await partitions(staging))])];
      if (touched.length) {
        await ch.query(
          `INSERT INTO ${chQuote(staging)} SELECT * FROM ${table} WHERE _partition_id IN (${ids(touched).join(', ')}) ` +
            `AND ${chQuote(tenant)} != $1`,
          [req.tenantId],
        );
        // A month left with no rows at all is emptied on purpose.
        await ch.query(
          `ALTER TABLE ${local}${onCluster(t)} ` +
            `${touched.map((p) => `REPLACE PARTITION ID ${quoteLiteral(p)} FROM ${from}`).join(', ')} SETTINGS ` +
            `allow_replace_partition_from_empty_source = 1`,
        );
      }
    }
    return loadResult(req, prepared, rowsLoaded);
  } catch (err) {
    if (err instanceof LoadError) throw err;
    // Cancelled: the signal's reason (the client went away), not the client library's abort error.
    if (req.signal?.aborted) throw req.signal.reason ?? err;
    // A value DuckDB accepted but ClickHouse does not (rare: a date beyond DateTime64's range).
    const e = err as { type?: string; message: string };
    if (e.type && /CANNOT_PARSE|CANNOT_CONVERT|ARGUMENT_OUT_OF_BOUND|DECIMAL_OVERFLOW|VALUE_IS_OUT_OF_RANGE/.test(e.type))
      throw new LoadError('row', `${e.message.trim()}.`);
    throw err;
  } finally {
    if (stagingCreated) for (const sql of dropTable(t, staging)) await ch.query(sql).catch(() => {});
    await fs.promises.rm(staged, { force: true });
  }
}
