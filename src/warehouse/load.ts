// Loading a tenant's data file into a warehouse table: the rules both engines share. Files are
// read by DuckDB's own readers (read_csv, read_json, read_parquet), which detect the columns and
// their types; the engines differ only in where the rows go (see load-duckdb.ts, load-postgres.ts).
// docs/data.md is the user-facing description of these rules.
import fs from 'node:fs';
import readline from 'node:readline';
import zlib from 'node:zlib';
import type { DuckDBConnection } from '@duckdb/node-api';

/** The column every loaded table carries; its value is the loading tenant's id, never the file's. */
export const TENANT_COLUMN = 'tenant_id';

/** Per-tenant data versions: bumped in the same transaction as each load (see Warehouse.version). */
export const TENANT_VERSIONS_TABLE = 'warehouse_tenant_versions';

export type LoadMode = 'append' | 'replace';
export const LOAD_MODES: readonly LoadMode[] = ['append', 'replace'];

export type DataFormat = 'csv' | 'tsv' | 'ndjson' | 'json' | 'parquet';

export interface DataFile {
  path: string;
  format: DataFormat;
}

export interface LoadProgress {
  step: 'reading' | 'loading' | 'sending' | 'committing';
  /** 0…1 when the engine can tell. */
  fraction?: number;
}

export interface LoadRequest {
  table: string;
  file: DataFile;
  tenantId: string;
  mode: LoadMode;
  onProgress?: (p: LoadProgress) => void;
  /**
   * The process has the warehouse to itself (the CLI): DuckDB may then write rows in parallel
   * without keeping the file's row order (a global setting, so never inside the server).
   */
  exclusive?: boolean;
}

export interface LoadResult {
  table: string;
  mode: LoadMode;
  rowsLoaded: number;
  /** True when this load created the table. */
  created: boolean;
}

export interface Column {
  name: string;
  /** A canonical type name (see canonicalType): the same words on both engines. */
  type: string;
}

export interface WarehouseTable {
  name: string;
  /** Without the tenant column. */
  columns: Column[];
}

/**
 * Why a load was refused. `input`: the file or the request itself (empty file, unknown format,
 * bad table name); `columns`: the file's columns do not match the table's; `row`: one row does not
 * fit (line is 1-based and counts the header line, as an editor does).
 */
export class LoadError extends Error {
  constructor(
    readonly kind: 'input' | 'columns' | 'row',
    message: string,
    readonly where: { line?: number; column?: string; table?: boolean } = {},
  ) {
    super(message);
  }
}

// SQL words that are reserved on DuckDB or PostgreSQL: a table named so would need quoting in every
// model file that mentions it.
const RESERVED_WORDS = new Set(
  `all analyse analyze and any array as asc asymmetric both case cast check collate column constraint create
  current_catalog current_date current_role current_time current_timestamp current_user default deferrable desc
  distinct do else end except false fetch for foreign from grant group having in initially intersect into
  lateral leading limit localtime localtimestamp not null offset on only or order placing primary references
  returning select session_user some symmetric table then to trailing true union unique user using variadic
  when where window with`.split(/\s+/),
);

/** The reason a table name is refused, or undefined when it may be loaded into. */
export function tableNameProblem(name: string): string | undefined {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    return 'must start with a lower-case letter or _ and contain only a-z, 0-9 and _ (at most 63 characters)';
  }
  if (/^(warehouse_|pg_|duckdb_|sqlite_|information_schema$)/.test(name)) return `"${name}" is reserved for the service's own tables`;
  if (RESERVED_WORDS.has(name)) return `"${name}" is a reserved SQL word`;
  return undefined;
}

export function checkTableName(name: string): void {
  const problem = tableNameProblem(name);
  if (problem) throw new LoadError('input', `Table name ${problem}.`, { table: true });
}

/** The format of a file from its name: .csv, .tsv, .ndjson/.jsonl, .json, .parquet, each but Parquet optionally .gz. */
export function dataFileOf(path: string): DataFile {
  const lower = path.toLowerCase();
  const gz = /\.(gz|gzip)$/.test(lower);
  const base = lower.replace(/\.(gz|gzip)$/, '');
  const ext = base.slice(base.lastIndexOf('.') + 1);
  const format = ({ csv: 'csv', tsv: 'tsv', tab: 'tsv', ndjson: 'ndjson', jsonl: 'ndjson', json: 'json', parquet: 'parquet' } as const)[ext];
  if (!format) throw new LoadError('input', `Cannot tell the format of ${path}: name it .csv, .tsv, .ndjson, .jsonl, .json or .parquet (optionally .gz).`);
  if (format === 'parquet' && gz) throw new LoadError('input', 'Parquet files are compressed inside; load the .parquet file itself, not a .gz of it.');
  return { path, format };
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

function structLiteral(columns: Column[]): string {
  return `{${columns.map((c) => `${quoteLiteral(c.name)}: ${quoteLiteral(c.type)}`).join(', ')}}`;
}

/**
 * The DuckDB table function reading the file. `types` forces column types (a later load reads the
 * file with the table's types, so a value that does not fit is an error on its line).
 */
export function readerSql(file: DataFile, types?: Column[]): string {
  const p = quoteLiteral(file.path);
  switch (file.format) {
    case 'csv':
    case 'tsv': {
      const delim = file.format === 'tsv' ? `'\t'` : `','`;
      return `read_csv(${p}, header = true, delim = ${delim}${types ? `, types = ${structLiteral(types)}` : ''})`;
    }
    case 'ndjson':
    case 'json': {
      const format = file.format === 'ndjson' ? 'newline_delimited' : 'auto';
      return `read_json(${p}, format = '${format}'${types ? `, columns = ${structLiteral(types)}` : ''})`;
    }
    case 'parquet':
      return `read_parquet(${p})`;
  }
}

const INTEGER = /^(TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER)$/;

/**
 * The type a detected column is stored as: integers widen to BIGINT, floats to DOUBLE, text-like
 * values to VARCHAR, timestamps to microseconds. Nested and binary values are refused.
 */
export function canonicalType(detected: string): string | undefined {
  const t = detected.toUpperCase();
  if (INTEGER.test(t)) return 'BIGINT';
  if (/^(UBIGINT|HUGEINT|UHUGEINT)$/.test(t)) return 'DECIMAL(38,0)';
  if (/^(FLOAT|REAL|DOUBLE)$/.test(t)) return 'DOUBLE';
  if (/^DECIMAL\(\d+,\d+\)$/.test(t)) return t;
  if (/^(VARCHAR|JSON|UUID)$/.test(t)) return 'VARCHAR';
  if (/^TIMESTAMP(_S|_MS|_NS)?$/.test(t)) return 'TIMESTAMP';
  if (t === 'TIMESTAMP WITH TIME ZONE' || t === 'TIMESTAMPTZ') return 'TIMESTAMPTZ';
  if (t === 'DATE' || t === 'TIME' || t === 'BOOLEAN') return t;
  return undefined;
}

/** The canonical name of a DuckDB table column's type (INTEGER stays INTEGER: existing tables keep theirs). */
export function duckTableType(type: string): string {
  const t = type.toUpperCase();
  if (t === 'TIMESTAMP WITH TIME ZONE') return 'TIMESTAMPTZ';
  if (t === 'FLOAT' || t === 'REAL') return 'FLOAT';
  return t;
}

export const isTimeType = (type: string) => /^(DATE|TIMESTAMP|TIMESTAMPTZ)$/.test(type);

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|FLOAT|DOUBLE|DECIMAL\(\d+,\d+\))$/;

/**
 * Whether a Parquet column (its own, fixed type) may go into a table column: same type, any
 * number into a number, a date into a timestamp, anything into text.
 */
function fits(fileType: string, tableType: string): boolean {
  if (fileType === tableType || tableType === 'VARCHAR') return true;
  if (NUMERIC.test(fileType) && NUMERIC.test(tableType)) return true;
  return fileType === 'DATE' && /^TIMESTAMP/.test(tableType);
}

export interface LoadPlan {
  /** The table's columns in the file's order, with the types rows are stored as. */
  columns: Column[];
  /** True when the table does not exist yet. */
  create: boolean;
  /** Types forced on the reader (CSV and JSON), or undefined to keep the detected ones. */
  readTypes?: Column[];
}

/**
 * Matches the file's columns against the table (when it exists). Every mismatch is named; the
 * first load takes the file's columns with canonical types.
 */
export function planLoad(file: DataFile, detected: Column[], existing: WarehouseTable | undefined): LoadPlan {
  const names = new Set<string>();
  for (const c of detected) {
    if (c.name === TENANT_COLUMN) {
      throw new LoadError('columns', `The file has a ${TENANT_COLUMN} column; leave it out: every row gets the loading tenant's id.`, { column: c.name });
    }
    names.add(c.name);
  }
  const fixedTypes = file.format === 'parquet';
  if (!existing) {
    const columns = detected.map((c) => {
      const type = canonicalType(c.type);
      if (!type) throw new LoadError('columns', `Column ${c.name} holds ${c.type} values, which cannot be loaded; flatten it to text, numbers, dates or booleans.`, { column: c.name });
      return { name: c.name, type };
    });
    // JSON readers must be told the canonical types, or a column of mixed values stays JSON text.
    return { columns, create: true, readTypes: fixedTypes || file.format === 'csv' || file.format === 'tsv' ? undefined : columns };
  }
  const tableTypes = new Map(existing.columns.map((c) => [c.name, c.type]));
  const extra = detected.filter((c) => !tableTypes.has(c.name)).map((c) => c.name);
  const missing = existing.columns.filter((c) => !names.has(c.name)).map((c) => c.name);
  if (extra.length || missing.length) {
    const parts = [
      ...(missing.length ? [`missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`] : []),
      ...(extra.length ? [`extra column${extra.length > 1 ? 's' : ''} ${extra.join(', ')}`] : []),
    ];
    throw new LoadError('columns', `The file does not match table ${existing.name}: ${parts.join('; ')}. Its columns are ${existing.columns.map((c) => c.name).join(', ')}.`, {
      column: missing[0] ?? extra[0],
    });
  }
  const columns = detected.map((c) => ({ name: c.name, type: tableTypes.get(c.name)! }));
  if (fixedTypes) {
    for (const c of detected) {
      const fileType = canonicalType(c.type) ?? c.type;
      const tableType = tableTypes.get(c.name)!;
      if (!fits(fileType, tableType)) {
        throw new LoadError('columns', `Column ${c.name} is ${fileType} in the file but ${tableType} in table ${existing.name}.`, { column: c.name });
      }
    }
    return { columns, create: false };
  }
  return { columns, create: false, readTypes: columns };
}

/** The file's columns and detected types, or a LoadError saying why it cannot be read. */
export async function describeFile(conn: DuckDBConnection, file: DataFile): Promise<Column[]> {
  const stat = await fs.promises.stat(file.path).catch(() => undefined);
  if (!stat?.isFile()) throw new LoadError('input', `No such file: ${file.path}`);
  if (stat.size === 0) throw new LoadError('input', 'The file is empty.');
  let columns: Column[];
  try {
    const reader = await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${readerSql(file)}`);
    columns = reader.getRowObjectsJson().map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
  } catch (err) {
    throw await explainReadError(conn, file, err as Error);
  }
  if (file.format === 'csv' || file.format === 'tsv') {
    // On rows of unequal length the sniffer may take another line for the header rather than fail.
    const header = headerFields(file, (await lineOf(file.path, 1)) ?? '');
    if (header.length !== columns.length) {
      throw (await strictCsvError(conn, file, header.length)) ?? new LoadError('input', RAGGED_CSV);
    }
  }
  return columns;
}

const RAGGED_CSV = 'The file is not readable as CSV with a header row: its rows do not have a consistent number of fields.';

/** The fields of a CSV/TSV header line (quotes honoured). */
function headerFields(file: DataFile, line: string): string[] {
  const delim = file.format === 'tsv' ? '\t' : ',';
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  const text = line.replace(/^\uFEFF/, '');
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delim) {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  fields.push(field);
  return fields;
}

/** Reads the file strictly as `width` text columns: the error, if any, names the first bad line. */
async function strictCsvError(conn: DuckDBConnection, file: DataFile, width: number): Promise<Error | undefined> {
  const columns = Array.from({ length: width }, (_, i) => ({ name: `c${i}`, type: 'VARCHAR' }));
  const delim = file.format === 'tsv' ? `'\t'` : `','`;
  try {
    await conn.run(`SELECT count(*) FROM read_csv(${quoteLiteral(file.path)}, header = true, auto_detect = false, delim = ${delim}, quote = '"', escape = '"', columns = ${structLiteral(columns)})`);
    return undefined;
  } catch (err) {
    return /CSV Error on Line/.test((err as Error).message) ? explainReadError(conn, file, err as Error) : undefined;
  }
}

/** Reads one line of a (possibly gzipped) text file, 1-based; undefined past the end. */
async function lineOf(path: string, wanted: number): Promise<string | undefined> {
  const raw = fs.createReadStream(path);
  const input = /\.(gz|gzip)$/i.test(path) ? raw.pipe(zlib.createGunzip()) : raw;
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const line of lines) if (++n === wanted) return line;
    return undefined;
  } finally {
    lines.close();
    raw.destroy();
  }
}

/**
 * Turns a DuckDB reader error into a LoadError naming the line and, where one is to blame, the
 * column. CSV errors carry both; JSON errors carry the line, and the column is found by trying each
 * value of that line against its type.
 */
export async function explainReadError(conn: DuckDBConnection, file: DataFile, err: Error, types?: Column[]): Promise<Error> {
  const message = err.message;
  const csvLine = /CSV Error on Line: (\d+)/.exec(message);
  if (csvLine) {
    const line = Number(csvLine[1]);
    const conversion = /Error when converting column "(.+?)"\. Could not convert string "(.*?)" to '(.+?)'/.exec(message);
    if (conversion) {
      return new LoadError('row', `Line ${line}, column ${conversion[1]}: "${conversion[2]}" is not a valid ${conversion[3]}.`, { line, column: conversion[1] });
    }
    const count = /Expected Number of Columns: (\d+) Found: (\d+)/.exec(message);
    if (count) return new LoadError('row', `Line ${line}: expected ${count[1]} fields, found ${count[2]}.`, { line });
    const first = message.split('\n').find((l) => l.trim() && !l.startsWith('Original Line')) ?? message;
    return new LoadError('row', `Line ${line}: ${first.replace(/^.*?Error: CSV Error on Line: \d+\s*/, '').trim() || 'the row cannot be read'}.`, { line });
  }
  if (/Error when sniffing file/.test(message) && (file.format === 'csv' || file.format === 'tsv')) {
    // The sniffer gives up on rows of unequal length without saying where; a strict read of the
    // header's columns as text finds the line.
    const header = await lineOf(file.path, 1);
    const strict = header === undefined ? undefined : await strictCsvError(conn, file, headerFields(file, header).length);
    return strict ?? new LoadError('input', RAGGED_CSV);
  }
  const jsonLine = /in file ".*?", (?:at byte \d+ )?in line (\d+): (.*)/.exec(message);
  if (jsonLine) {
    const line = Number(jsonLine[1]);
    const reason = jsonLine[2].split('\n')[0].trim();
    if (/Malformed JSON/.test(message)) {
      const bad = await firstInvalidJsonLine(file.path, line);
      return new LoadError('row', `Line ${bad}: not valid JSON (${reason.replace(/\.$/, '')}).`, { line: bad });
    }
    const column = types ? await jsonColumnAt(conn, file, line, types) : undefined;
    if (column) return new LoadError('row', `Line ${line}, column ${column.name}: ${JSON.stringify(column.value)} is not a valid ${column.type}.`, { line, column: column.name });
    return new LoadError('row', `Line ${line}: ${reason.replace(/\.$/, '')}.`, { line });
  }
  if (/Conversion Error|Invalid Input Error|IO Error/.test(message)) {
    return new LoadError('input', message.split('\n')[0].replace(/^[A-Za-z ]+Error: /, '').trim());
  }
  return err;
}

/** DuckDB 1.5 reports malformed JSON one line late; the line it names or the one before is the bad one. */
async function firstInvalidJsonLine(path: string, reported: number): Promise<number> {
  for (const candidate of [reported - 1, reported]) {
    if (candidate < 1) continue;
    const text = await lineOf(path, candidate);
    if (text === undefined) continue;
    try {
      JSON.parse(text);
    } catch {
      return candidate;
    }
  }
  return reported;
}

async function jsonColumnAt(conn: DuckDBConnection, file: DataFile, line: number, types: Column[]): Promise<{ name: string; type: string; value: unknown } | undefined> {
  const text = await lineOf(file.path, line);
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
  for (const c of types) {
    const value = record[c.name];
    if (value === null || value === undefined) continue;
    const asText = typeof value === 'string' ? value : JSON.stringify(value);
    const ok = await conn.runAndReadAll(`SELECT TRY_CAST($1::VARCHAR AS ${c.type}) IS NOT NULL AS ok`, [asText]);
    if (!ok.getRowObjectsJson()[0].ok) return { name: c.name, type: c.type, value };
  }
  return undefined;
}

/** Calls onProgress with DuckDB's progress of the statement running on conn, every 250 ms, until stopped. */
export function watchProgress(conn: DuckDBConnection, step: LoadProgress['step'], onProgress?: (p: LoadProgress) => void): () => void {
  if (!onProgress) return () => {};
  onProgress({ step });
  const timer = setInterval(() => {
    const pct = Number(conn.progress.percentage);
    if (pct >= 0) onProgress({ step, fraction: Math.min(1, pct / 100) });
  }, 250);
  return () => clearInterval(timer);
}
