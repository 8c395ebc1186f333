// Loading a tenant's data file into a warehouse table: the rules both engines share. Files are
// read by DuckDB's own readers (read_csv, read_json, read_parquet), which detect the columns and
// their types (load/reader.ts); the engines differ only in where the rows go (duckdb/load.ts,
// postgres/load.ts).
// docs/data.md is the user-facing description of these rules.
import { DEFAULT_TENANT_COLUMN, type ModelColumn } from '../../semantic/tenancy.ts';

/**
 * The tenant column of a table no cube reads (the demo's tables have it too). Every loaded table
 * carries its tenant column, named by the model (LoadRequest.tenantColumn); its value is the
 * loading tenant's id, never the file's.
 */
export const TENANT_COLUMN = DEFAULT_TENANT_COLUMN;

/**
 * Time values outside these bounds are refused (a bad row): every engine and every rollup bucket
 * can hold a month or a year past them, and ClickHouse's DateTime64 starts at 1900.
 */
export const TIME_RANGE = { min: '1900-01-01', max: '2200-12-31' } as const;

/** Per-tenant data versions: bumped in the same transaction as each load (see Warehouse.version). */
export const TENANT_VERSIONS_TABLE = 'warehouse_tenant_versions';

export type LoadMode = 'append' | 'replace';
export const LOAD_MODES: readonly LoadMode[] = ['append', 'replace'];

export type DataFormat = 'csv' | 'tsv' | 'ndjson' | 'json' | 'parquet';

export interface DataFile {
  path: string;
  format: DataFormat;
  /** CSV: the field delimiter; detected from the header line when not given (load/reader.ts). */
  delimiter?: string;
  /** How text dates are written (`D.M.YYYY`, `%d/%m/%Y`…); tried first, before detection. */
  dateFormat?: string;
  /** JSON whose depth was measured as it arrived (an upload, data.upload.ts): not read again for it. */
  depthMeasured?: boolean;
  /**
   * Text dates converted in SQL only, never by the CSV reader: set for a second try of a load whose
   * reader met a date field of spaces alone (conversionSql reads it as NULL; see BlankDateInReader).
   */
  datesInSql?: boolean;
}

export interface LoadProgress {
  step: 'reading' | 'loading' | 'sending' | 'committing' | 'refreshing';
  /** 0…1 when the engine can tell. */
  fraction?: number;
}

export interface LoadRequest {
  table: string;
  file: DataFile;
  tenantId: string;
  /** The column the tenant's id goes into: the model's tenant_column for the table (default tenant_id). */
  tenantColumn?: string;
  mode: LoadMode;
  onProgress?: (p: LoadProgress) => void;
  /**
   * The process has the warehouse to itself (the CLI): DuckDB may then write rows in parallel
   * without keeping the file's row order (a global setting, so never inside the server).
   */
  exclusive?: boolean;
  /** Aborted when the requester went away: the load stops before its commit and keeps nothing. */
  signal?: AbortSignal;
  /**
   * A load over the API: the columns the model reads from the table (semantic/tenancy.ts
   * modelColumns). A first load creates exactly these, with these types, whatever the file holds;
   * a file's other columns are not stored. Unset (the operator's CLI): the file decides.
   */
  modelColumns?: readonly ModelColumn[];
  /**
   * Time columns whose earliest and latest loaded values the result should carry: those a rollup
   * rebuilds only the partitions of (an append). Each takes one more read of the file, so a load
   * no rollup needs them for reads the file once.
   */
  timeRangesOf?: readonly string[];
}

export interface LoadResult {
  table: string;
  mode: LoadMode;
  rowsLoaded: number;
  /** True when this load created the table. */
  created: boolean;
  /** Earliest and latest value of the time columns the request named (timeRangesOf) in the rows loaded. */
  timeRanges?: Record<string, { min: string; max: string }>;
  /** The table's columns this load wrote, as the table names and types them. */
  columns?: Column[];
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
  /** The column holding the tenant's id, as the table spells it. */
  tenantColumn: string;
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

/**
 * A load stopped by a date field of spaces alone in a column the CSV reader parsed with its format
 * (load/reader.ts readerSql): the reader refuses it where conversionSql reads it as NULL. Nothing
 * was kept; the load use case (tenant-load.ts) loads again with `datesInSql`. Told as any
 * unreadable date if it gets further.
 */
export class BlankDateInReader extends LoadError {}

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
  const format = ({ csv: 'csv', tsv: 'tsv', tab: 'tsv', ndjson: 'ndjson', jsonl: 'ndjson', json: 'json', parquet: 'parquet' } as const)[
    ext
  ];
  if (!format)
    throw new LoadError(
      'input',
      `Cannot tell the format of ${path}: name it .csv, .tsv, .ndjson, .jsonl, .json or .parquet (optionally .gz).`,
    );
  if (format === 'parquet' && gz)
    throw new LoadError('input', 'Parquet files are compressed inside; load the .parquet file itself, not a .gz of it.');
  return { path, format };
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

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
export function planLoad(
  file: DataFile,
  detected: Column[],
  existing: WarehouseTable | undefined,
  tenantColumn: string = TENANT_COLUMN,
  model?: readonly ModelColumn[],
): LoadPlan {
  const names = new Set<string>();
  for (const c of detected) {
    // The engines match names without regard to case: TENANT_ID would be the tenant column again.
    if (c.name.toLowerCase() === tenantColumn.toLowerCase()) {
      throw new LoadError(
        'columns',
        `The file has a column ${c.name}, which is the table's tenant column ${tenantColumn}; leave it out: every row ` +
          `gets the loading tenant's id.`,
        { column: c.name },
      );
    }
    if (c.name.includes('\u0000')) {
      const shown = JSON.stringify(c.name).slice(1, -1);
      throw new LoadError('columns', `The column name "${shown}" holds a NUL character; rename it in the file's header.`, {
        column: shown,
      });
    }
    names.add(c.name);
  }
  const fixedTypes = file.format === 'parquet';
  if (model) return planModelLoad(file, detected, existing, model);
  if (!existing) {
    // PostgreSQL cuts longer names to 63 bytes without a word: the table would not have the file's
    // columns, and the next load of the same file would not match. The same limit everywhere keeps
    // a table movable between engines.
    const long = detected.find((c) => Buffer.byteLength(c.name) > 63);
    if (long)
      throw new LoadError(
        'columns',
        `The column name "${long.name}" is longer than 63 bytes, the most a column name may have; shorten it in the file.`,
        { column: long.name },
      );
    const columns = detected.map((c) => {
      const type = canonicalType(c.type);
      if (!type)
        throw new LoadError(
          'columns',
          `Column ${c.name} holds ${c.type} values, which cannot be loaded; flatten it to text, numbers, dates or booleans.`,
          { column: c.name },
        );
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
    throw new LoadError(
      'columns',
      `The file does not match table ${existing.name}: ${parts.join('; ')}. Its columns are ` +
        `${existing.columns.map((c) => c.name).join(', ')}.`,
      {
        column: missing[0] ?? extra[0],
      },
    );
  }
  const columns = detected.map((c) => ({ name: c.name, type: tableTypes.get(c.name)! }));
  if (fixedTypes) {
    for (const c of detected) {
      const fileType = canonicalType(c.type) ?? c.type;
      const tableType = tableTypes.get(c.name)!;
      if (!fits(fileType, tableType)) {
        throw new LoadError('columns', `Column ${c.name} is ${fileType} in the file but ${tableType} in table ${existing.name}.`, {
          column: c.name,
        });
      }
    }
    return { columns, create: false };
  }
  return { columns, create: false, readTypes: columns };
}

/**
 * A load over the API (docs/data.md "The schema belongs to the model"): the table is the model's.
 * A first load creates the columns the model reads with the model's types; a later one fills the
 * table's columns. Either way each column the model reads must be in the file, each value is read
 * as the table's type (a bad one is a bad row naming its line and column), and a file's columns
 * the table does not have are not stored. So no tenant's file decides what another can load.
 */
function planModelLoad(file: DataFile, detected: Column[], existing: WarehouseTable | undefined, model: readonly ModelColumn[]): LoadPlan {
  const exact = new Map(detected.map((c) => [c.name, c]));
  const folded = new Map<string, Column>();
  for (const c of detected) if (!folded.has(c.name.toLowerCase())) folded.set(c.name.toLowerCase(), c);
  // A header matches in any case (the exact spelling first): the column is stored under the
  // model's (or table's) spelling, which is what the model's SQL reads, and DuckDB's reader
  // matches names without regard to case.
  const inFile = (name: string) => exact.get(name) ?? folded.get(name.toLowerCase());
  const modelNames = new Set(model.map((c) => c.name.toLowerCase()));
  const targets: Column[] = existing ? existing.columns : model.map((c) => ({ name: c.name, type: c.type }));
  const required = existing ? targets.filter((c) => modelNames.has(c.name.toLowerCase())) : targets;
  const missing = required.filter((c) => !inFile(c.name));
  if (missing.length) {
    const names = missing.map((c) => c.name).join(', ');
    throw new LoadError(
      'columns',
      `The file has no column ${names}, which the model reads from this table (it reads ` +
        `${model.map((c) => c.name).join(', ') || 'no column'}; a file's other columns are not stored).`,
      { column: missing[0].name },
    );
  }
  const loaded: { target: Column; source: Column }[] = [];
  for (const target of targets) {
    const source = inFile(target.name);
    if (source) loaded.push({ target, source });
  }
  if (file.format === 'parquet') {
    for (const { target, source } of loaded) {
      const fileType = canonicalType(source.type) ?? source.type;
      if (!fits(fileType, target.type))
        throw new LoadError('columns', `Column ${source.name} is ${fileType} in the file but ${target.type} in the table.`, {
          column: source.name,
        });
    }
  }
  return {
    columns: loaded.map((l) => l.target),
    create: !existing,
    // The reader is told the table's types, so a value that does not fit fails on its line.
    readTypes:
      file.format === 'parquet' || loaded.length === 0 ? undefined : loaded.map((l) => ({ name: l.source.name, type: l.target.type })),
  };
}
