// The start and the end of every engine's load, written once: the file read and checked against
// the target table (its columns, each value's type, the time range) before anything is written,
// and the result a committed load answers. Engines differ only in where the rows go between.
import { Transform } from 'node:stream';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuckDb } from './own-duckdb.ts';
import { checkedTimeRanges, checkedValue, explainLoadError, type TimeRanges } from './ranges.ts';
import { describeFile, readerSql, watchProgress } from './reader.ts';
import { planLoad, quoteLiteral, TENANT_COLUMN, type Column, type LoadPlan, type LoadRequest, type LoadResult } from './rules.ts';
import { targetTable, type FoundTables } from './tables.ts';
import type { TenantColumnOf } from '../../semantic/tenancy.ts';

export interface PreparedLoad {
  plan: LoadPlan;
  /** The tenant column as the table spells it (the model's for a table the load creates). */
  tenantColumn: string;
  timeRanges: TimeRanges;
}

/**
 * Reads the file's columns on `conn` (DuckDB, whichever engine the rows go to) and matches them
 * with the table (`tables` lists the engine's): a mismatched column is a LoadError here. Each
 * value's type and time range is checked in the one pass that writes the rows (checkedValue);
 * only the time ranges a rollup asks for (req.timeRangesOf) take a read of their own.
 */
export async function prepareLoad(
  conn: DuckDBConnection,
  req: LoadRequest,
  tables: (tenantColumnOf: TenantColumnOf) => Promise<FoundTables>,
): Promise<PreparedLoad> {
  req.onProgress?.({ step: 'reading' });
  const tenantColumn = req.tenantColumn ?? TENANT_COLUMN;
  const detected = await describeFile(conn, req.file);
  const existing = targetTable(req.table, await tables(() => tenantColumn), tenantColumn);
  const plan = planLoad(req.file, detected, existing, tenantColumn, req.modelColumns);
  const wanted = req.timeRangesOf?.filter((c) => plan.columns.some((p) => p.name === c));
  const timeRanges = wanted?.length ? await checkedTimeRanges(conn, req.file, plan, wanted) : {};
  return { plan, tenantColumn: existing?.tenantColumn ?? tenantColumn, timeRanges };
}

/** What a committed load answers. */
export function loadResult(req: LoadRequest, prepared: PreparedLoad, rowsLoaded: number): LoadResult {
  return {
    table: req.table,
    mode: req.mode,
    rowsLoaded,
    created: prepared.plan.create,
    timeRanges: rowsLoaded > 0 ? prepared.timeRanges : {},
    columns: prepared.plan.columns,
  };
}

/** Counts the bytes of a staged file as they are sent, for the progress of the send. */
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

/**
 * A private in-memory DuckDB for an engine that is not DuckDB: it reads and checks the file with
 * the same readers and rules, and writes the rows to a staged file that engine takes. The staged
 * file's row order does not matter, so DuckDB writes it in parallel.
 */
export async function withStagingReader<T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  const own = await openDuckDb(':memory:');
  try {
    const conn = await own.instance.connect();
    try {
      await conn.run('SET enable_progress_bar = true; SET enable_progress_bar_print = false; SET preserve_insertion_order = false');
      return await work(conn);
    } finally {
      conn.closeSync();
    }
  } finally {
    own.close();
  }
}

/**
 * Writes the file's rows, each value cast to the table's type (`column` gives its SQL) and the
 * tenant's id beside them (`tenant`, with the id as $1), to `staged` in DuckDB's COPY `format`.
 * Reading and casting happen here, so a row that does not fit is reported with its line; a client
 * that goes away stops the reading at once.
 */
export async function stageRows(
  conn: DuckDBConnection,
  req: LoadRequest,
  prepared: PreparedLoad,
  out: { column: (value: string, c: Column) => string; tenant: string; staged: string; format: string },
): Promise<void> {
  const { plan } = prepared;
  const stop = watchProgress(conn, 'loading', req.onProgress);
  const interrupt = () => conn.interrupt();
  req.signal?.addEventListener('abort', interrupt, { once: true });
  try {
    req.signal?.throwIfAborted();
    await conn.run(
      `COPY (SELECT ${[...plan.columns.map((c) => out.column(checkedValue(c), c)), out.tenant].join(', ')} FROM ` +
        `${readerSql(req.file, plan.readTypes)}) TO ${quoteLiteral(out.staged)} (${out.format})`,
      [req.tenantId],
    );
  } catch (err) {
    req.signal?.throwIfAborted();
    throw await explainLoadError(conn, req.file, plan, err as Error);
  } finally {
    req.signal?.removeEventListener('abort', interrupt);
    stop();
  }
}
