// Loading a tenant's data through the API and describing what is loaded. Owners and admins load;
// everyone in the tenant may see the tables. The warehouse does the loading (src/warehouse/load/rules.ts).
import { requireRole, type AuthContext } from '../../auth/context.ts';
import { AppError, invalidField } from '../../lib/errors.ts';
import { LoadError, tableNameProblem, type DataFile, type LoadMode, type LoadResult } from '../../warehouse/load/rules.ts';
import { parseDateFormat, parseDelimiter } from '../../warehouse/load/formats.ts';
import type { FileColumn } from '../../warehouse/load/reader.ts';
import { loadTenantData } from '../../warehouse/tenant-load.ts';
import type { RollupStore } from '../../warehouse/rollups/rollups.ts';
import type { ModelColumnsOf, TenantColumnOf } from '../../semantic/tenancy.ts';
import { LoadQueue } from './data.queue.ts';
import type { Warehouse } from '../../warehouse/warehouse.ts';
import type { DataRepository, TableSummary } from './data.repository.ts';
import type { Upload } from './data.upload.ts';
import type { LoadView, TableView } from './data.schemas.ts';

export const isTenantId = (id: string) => /^[A-Za-z0-9_.-]{1,100}$/.test(id);

/** How the body's text is read: the load's query parameters (docs/data.md). */
export interface ReadOptions {
  date_format?: string;
  delimiter?: string;
}

/** A refused load as the problem the API answers. */
export function loadProblem(err: LoadError): AppError {
  if (err.kind === 'row') {
    const path = `/body/${err.where.line ?? ''}${err.where.column ? `/${err.where.column}` : ''}`;
    return new AppError('DATA_ROW_INVALID', `${err.message} Nothing was loaded.`, { errors: [{ path, message: err.message }] });
  }
  if (err.kind === 'columns') {
    return new AppError('DATA_COLUMNS_MISMATCH', err.message, {
      errors: [{ path: `/body/${err.where.column ?? ''}`, message: err.message }],
    });
  }
  return err.where.table ? invalidField('/params/table', err.message) : invalidField('/body', err.message);
}

/** The columns a load wrote (the table's names and types), with the date format where text dates were read. */
function storedColumns(read: FileColumn[], written: LoadResult['columns']): LoadView['columns'] {
  if (!written) return read;
  return written.map((c) => {
    const r = read.find((f) => f.name === c.name) ?? read.find((f) => f.name.toLowerCase() === c.name.toLowerCase());
    return r?.date_format ? { ...c, date_format: r.date_format } : { ...c };
  });
}

export class DataService {
  private readonly queue: LoadQueue;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly repository: DataRepository,
    private readonly rollups?: Pick<RollupStore, 'refreshAfterLoad' | 'timeRangesOf'>,
    /** tenantColumnOf: the model's tenant column per table (tenant_id where no cube reads it). */
    private readonly options: {
      tenantColumnOf?: TenantColumnOf;
      /** The columns the model reads per table: what a load over the API creates and fills. */
      modelColumnsOf?: ModelColumnsOf;
      concurrentLoads?: number;
      modelTables?: readonly string[];
    } = {},
  ) {
    this.queue = new LoadQueue(options.concurrentLoads ?? 2);
    this.modelTables = [...new Set(options.modelTables ?? [])].sort();
  }

  /**
   * The tables the model's cubes read (sql_table, in the warehouse's own schema): the only ones a
   * tenant may load into or see over the API. Other tables are the operator's (`insights data
   * load`), so no tenant ever learns of a table another tenant made.
   */
  private readonly modelTables: string[];

  /** The checks that need no body: run before the upload is read, so a refused one is not stored first. */
  checkLoad(auth: AuthContext, table: string): void {
    requireRole(auth, 'admin', 'load data');
    const problem = tableNameProblem(table);
    if (problem) throw invalidField('/params/table', problem);
    if (!this.modelTables.includes(table)) {
      const allowed = this.modelTables.length
        ? `the model's tables are ${this.modelTables.join(', ')}`
        : 'the model reads no table of its own schema';
      throw new AppError(
        'DATA_TABLE_NOT_IN_MODEL',
        `No cube of the model reads a table ${table}: ${allowed}. Add a cube for it to the model (docs/model.md) to load it here.`,
        {
          errors: [{ path: '/params/table', message: `not a table of the model (${this.modelTables.join(', ') || 'none'})` }],
        },
      );
    }
  }

  /**
   * Loads in the tenant's turn (data.queue.ts). An aborted `signal` (the client went away) cancels
   * the load before its commit: nothing is kept. After the commit the load stands and answers 200:
   * a rollup refresh that fails is retried in the background and shown in `rollups status`.
   */
  async load(
    auth: AuthContext,
    table: string,
    mode: LoadMode,
    upload: Upload,
    signal?: AbortSignal,
    read: ReadOptions = {},
  ): Promise<LoadView> {
    this.checkLoad(auth, table);
    const tenantId = auth.tenantId;
    // The upload measured a JSON body's depth as it arrived (data.upload.ts).
    const file: DataFile = { path: upload.path, format: upload.format, depthMeasured: true };
    try {
      if (read.delimiter !== undefined) file.delimiter = parseDelimiter(read.delimiter);
    } catch (err) {
      throw invalidField('/query/delimiter', (err as Error).message);
    }
    try {
      if (read.date_format !== undefined) file.dateFormat = parseDateFormat(read.date_format).format;
    } catch (err) {
      throw invalidField('/query/date_format', (err as Error).message);
    }
    try {
      return await this.queue.run(
        tenantId,
        async () => {
          // In the tenant's turn, so no other load of this tenant commits between its data version
          // and its load. The tenant's rollups are current again before the answer (the next query
          // may read them), unless a refresh failed: then the raw rows answer until its retry succeeds.
          const { result, read } = await loadTenantData(
            this.warehouse,
            this.rollups,
            {
              table,
              mode,
              tenantId,
              tenantColumn: this.options.tenantColumnOf?.(table),
              // The model decides the table's columns and types, never the file of whoever loads first.
              modelColumns: this.options.modelColumnsOf?.(table) ?? [],
              file,
              signal,
            },
            { retry: true },
          );
          return { table: result.table, mode: result.mode, rows_loaded: result.rowsLoaded, columns: storedColumns(read, result.columns) };
        },
        signal,
      );
    } catch (err) {
      throw err instanceof LoadError ? loadProblem(err) : err;
    }
  }

  /** The model's tables, each with the caller's rows (a table not loaded yet: no columns, 0 rows). */
  async tables(auth: AuthContext): Promise<TableView[]> {
    const tables: TableSummary[] = await this.repository.listTables(auth.tenantId, this.modelTables);
    return tables.map((t) => ({
      name: t.name,
      row_count: t.rowCount,
      columns: t.columns,
      time_ranges: t.timeRanges,
    }));
  }
}
