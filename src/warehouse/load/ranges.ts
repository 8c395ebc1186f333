// The time columns of a file being loaded: the check that every value lies within TIME_RANGE,
// made in the load's own pass over the file (checkedValue: a value outside raises an error that
// stops the statement, so nothing is kept), and their earliest and latest values, read only when
// a rollup rebuilds just what an append touched. A value outside the range is a bad row naming its
// line, found by a second read only then.
import fs from 'node:fs';
import zlib from 'node:zlib';
import type { DuckDBConnection } from '@duckdb/node-api';
import { isTimeType, LoadError, quoteIdent, quoteLiteral, TIME_RANGE, type Column, type DataFile, type LoadPlan } from './rules.ts';
import { explainReadError, readerSql } from './reader.ts';

export type TimeRanges = Record<string, { min: string; max: string }>;

/** The bounds as literals of the column's type (TIMESTAMPTZ in UTC). */
function bounds(type: string): [string, string] {
  if (type === 'DATE') return [`DATE '${TIME_RANGE.min}'`, `DATE '${TIME_RANGE.max}'`];
  if (type === 'TIMESTAMPTZ') return [`TIMESTAMPTZ '${TIME_RANGE.min} 00:00:00+00'`, `TIMESTAMPTZ '${TIME_RANGE.max} 23:59:59.999999+00'`];
  return [`TIMESTAMP '${TIME_RANGE.min} 00:00:00'`, `TIMESTAMP '${TIME_RANGE.max} 23:59:59.999999'`];
}

const OUT_OF_RANGE = 'insights-out-of-range';

/**
 * A column's value as the load writes it: cast to the table's type and, for a time, checked
 * against TIME_RANGE in the same pass (a value outside raises an error naming no line: the caller
 * turns it into one with explainLoadError).
 */
export function checkedValue(c: Column): string {
  const v = `CAST(${quoteIdent(c.name)} AS ${c.type})`;
  if (!isTimeType(c.type)) return v;
  const [lo, hi] = bounds(c.type);
  // The message names the value, so the error is not a constant the optimizer could raise early.
  return `CASE WHEN ${v} < ${lo} OR ${v} > ${hi} THEN error(${quoteLiteral(`${OUT_OF_RANGE} `)} || CAST(${v} AS VARCHAR)) ELSE ${v} END`;
}

/**
 * A load statement's error as the user's LoadError: a time out of range (checkedValue) names the
 * first such value's line and column, found by reading the file again; anything else as the
 * reader explains it.
 */
export async function explainLoadError(conn: DuckDBConnection, file: DataFile, plan: LoadPlan, err: Error): Promise<Error> {
  if (err.message.includes(OUT_OF_RANGE)) {
    try {
      await checkedTimeRanges(conn, file, plan);
    } catch (found) {
      return found as Error;
    }
  }
  return explainReadError(conn, file, err, plan.readTypes ?? plan.columns);
}

/**
 * The min and max (as text) of the plan's time columns named in `wanted`; throws LoadError when a
 * value of a time column lies outside TIME_RANGE (or, as any read of the file would, when a value
 * does not fit its type). One read of the file: only for the loads whose rollups need it.
 */
export async function checkedTimeRanges(
  conn: DuckDBConnection,
  file: DataFile,
  plan: LoadPlan,
  wanted?: readonly string[],
): Promise<TimeRanges> {
  const time = plan.columns.filter((c) => isTimeType(c.type) && (!wanted || wanted.includes(c.name)));
  if (time.length === 0) return {};
  const value = (c: Column) => `CAST(${quoteIdent(c.name)} AS ${c.type})`;
  const cols = time.flatMap((c, i) => {
    const [lo, hi] = bounds(c.type);
    return [
      `CAST(min(${value(c)}) AS VARCHAR) AS ${quoteIdent(`min${i}`)}`,
      `CAST(max(${value(c)}) AS VARCHAR) AS ${quoteIdent(`max${i}`)}`,
      `coalesce(min(${value(c)}) < ${lo} OR max(${value(c)}) > ${hi}, false) AS ${quoteIdent(`out${i}`)}`,
    ];
  });
  let row: Record<string, unknown>;
  try {
    row = (await conn.runAndReadAll(`SELECT ${cols.join(', ')} FROM ${readerSql(file, plan.readTypes)}`)).getRowObjectsJson()[0];
  } catch (err) {
    throw await explainReadError(conn, file, err as Error, plan.readTypes ?? plan.columns);
  }
  const out: TimeRanges = {};
  for (const [i, c] of time.entries()) {
    if (row[`out${i}`]) throw await outOfRange(conn, file, plan, c);
    if (row[`min${i}`] !== null && row[`max${i}`] !== null) out[c.name] = { min: String(row[`min${i}`]), max: String(row[`max${i}`]) };
  }
  return out;
}

/** The first row whose value in `column` is out of range, as a LoadError naming its line. */
async function outOfRange(conn: DuckDBConnection, file: DataFile, plan: LoadPlan, column: Column): Promise<LoadError> {
  const [lo, hi] = bounds(column.type);
  const v = `CAST(${quoteIdent(column.name)} AS ${column.type})`;
  // The row's position in the file: the scan keeps the file's order only with this setting on
  // (the CLI turns it off for speed; it is put back).
  const preserve = (await conn.runAndReadAll(`SELECT current_setting('preserve_insertion_order') AS p`)).getRowObjectsJson()[0].p;
  await conn.run('SET preserve_insertion_order = true');
  let found: Record<string, unknown> | undefined;
  try {
    found = (
      await conn.runAndReadAll(
        `SELECT n, CAST(v AS VARCHAR) AS v FROM (SELECT row_number() OVER () AS n, ${v} AS v FROM ` +
          `${readerSql(file, plan.readTypes)}) WHERE v < ${lo} OR v > ${hi} ORDER BY n LIMIT 1`,
      )
    ).getRowObjectsJson()[0];
  } finally {
    await conn.run(`SET preserve_insertion_order = ${preserve ? 'true' : 'false'}`);
  }
  const record = Number(found?.n ?? 0);
  const line = record > 0 ? await lineOfRecord(file, record) : undefined;
  const range = `${TIME_RANGE.min} to ${TIME_RANGE.max}`;
  const where = line !== undefined ? `Line ${line}` : `Row ${record}`;
  return new LoadError(
    'row',
    `${where}, column ${column.name}: ${found?.v ?? 'a value'} is outside the supported range of times (${range}).`,
    {
      line,
      column: column.name,
    },
  );
}

/**
 * The line (1-based, the header counted) on which the file's `record`-th row starts: CSV rows are
 * counted with quoted line breaks kept inside their field, NDJSON rows are its non-blank lines. A
 * JSON array or a Parquet file has no lines for a row (undefined).
 */
export async function lineOfRecord(file: DataFile, record: number): Promise<number | undefined> {
  if (file.format === 'parquet' || file.format === 'json') return undefined;
  const raw = fs.createReadStream(file.path);
  const input = /\.(gz|gzip)$/i.test(file.path) ? raw.pipe(zlib.createGunzip()) : raw;
  const csv = file.format === 'csv' || file.format === 'tsv';
  // CSV: the header is record 0; NDJSON has none.
  let seen = csv ? -1 : 0;
  let line = 1;
  let start = 1;
  let quoted = false;
  let blank = true;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i];
        if (csv && b === 0x22) quoted = !quoted;
        if (b === 0x0a) {
          if (!quoted) {
            if (!blank && ++seen === record) return start;
            blank = true;
          }
          line++;
        } else if (b !== 0x0d && !(b === 0x20 && blank && !csv)) {
          if (blank) start = line;
          blank = false;
        }
      }
    }
    return !blank && ++seen === record ? start : undefined;
  } finally {
    raw.destroy();
  }
}
