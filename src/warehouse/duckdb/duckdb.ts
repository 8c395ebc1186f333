// The embedded warehouse: a DuckDB file (or :memory: for tests) through @duckdb/node-api.
import type { DuckDBConnection, DuckDBResultReader, DuckDBValue } from '@duckdb/node-api';
import { duckDbTables, loadIntoDuckDb } from './load.ts';
import type { TenantColumnOf } from '../../semantic/tenancy.ts';
import type { LoadRequest, LoadResult, WarehouseTable } from '../load/rules.ts';
import type { RollupDdl } from '../rollups/ddl.ts';
import { duckDbRollupDdl } from './rollup-ddl.ts';
import { VersionMemo } from '../versions.ts';
import os from 'node:os';
import { seedByScript } from '../demo/demo.ts';
import { ReadLanes } from '../read-lanes.ts';
import { PooledConnection, type PooledRead } from './pooled-connection.ts';
import { openDuckDb, type OwnInstance } from '../load/own-duckdb.ts';
import {
  isOutOfMemory,
  runTransaction,
  warehouseDdl,
  type DemoSeeded,
  type ReadOptions,
  type SeedOptions,
  type TransactionStatement,
  type Warehouse,
  type WarehouseRow,
  type WarehouseValue,
} from '../warehouse.ts';

export interface DuckDbSettings {
  /** DuckDB's size syntax, e.g. '256MB': the buffer pool and operators spill to disk beyond it. */
  memoryLimit: string;
  /**
   * The ceiling a read is run again under when it failed for lack of memory under memoryLimit
   * (same syntax); absent or equal to memoryLimit: no second try (docs/footprint.md).
   */
  memoryBurst?: string;
  threads: number;
  /** Reads run at once, each on a pooled connection (default: threads + 1; config/index.ts says why no more). */
  readers?: number;
}

const NUMERIC_TYPES = /^(BIGINT|HUGEINT|UBIGINT|UHUGEINT|DECIMAL)/;

/** A whole result read by the node API's reader, as the pool answers. */
function readOf(reader: DuckDBResultReader): PooledRead {
  return { names: reader.columnNames(), types: reader.columnTypes().map(String), rows: reader.getRowObjectsJson() };
}

export class DuckDbWarehouse implements Warehouse {
  readonly dialect = 'duckdb' as const;
  readonly title = 'DuckDB';
  // DuckDB locks the file to this process.
  readonly soleWriter = true;
  // No other process can write the file while this one has it open (DuckDB locks it), and every
  // write of this process goes through exec() or a non-SELECT query(), which forget the versions:
  // so they are read once.
  private readonly versions = new VersionMemo((sql, params) => this.query(sql, params), Number.POSITIVE_INFINITY);
  /**
   * Rollup builds and refreshes run one at a time (a whole build swaps the table a refresh writes).
   * Loads run beside them and beside each other (appends of different tenants never conflict in
   * DuckDB; the data service gives each tenant one load at a time and bounds how many run).
   */
  private writes: Promise<unknown> = Promise.resolve();
  /** Loads running in the server, and the thread count to restore once none is (see load()). */
  private activeLoads = 0;
  private threadsBefore?: number;
  /**
   * Loads running, by table, and whether each is waiting to try again: a first load of a table that
   * lost the race to create it waits for the others of that table (see loadOfTable()).
   */
  private readonly loadsOf = new Map<string, Map<Promise<unknown>, { waiting: boolean }>>();
  readonly rollupDdl: RollupDdl = duckDbRollupDdl((select, params) => this.columnsOf(select, params));
  /** Reads running under the burst ceiling: the ceiling goes back to memoryLimit when the last ends. */
  private bursting = 0;
  /** Reads side by side, fair between tenants (read-lanes.ts), each on a connection of the pool. */
  private readonly lanes: ReadLanes;
  private readonly idle: PooledConnection[] = [];
  private readonly pool: PooledConnection[] = [];
  private constructor(
    private readonly own: OwnInstance,
    private readonly conn: DuckDBConnection,
    private readonly settings?: DuckDbSettings,
  ) {
    // DuckDB's threads serve every connection of the instance; one more connection than threads
    // lets another tenant's read start while one tenant's fill the threads.
    this.lanes = new ReadLanes(settings?.readers ?? (settings?.threads ?? os.cpus().length) + 1);
  }

  /** The columns a SELECT would give, with DuckDB's SQL names of their types (nothing is read). */
  private async columnsOf(select: string, params: unknown[]): Promise<{ name: string; type: string }[]> {
    const reader = await this.conn.runAndReadAll(
      `SELECT * FROM (${select}) LIMIT 0`,
      params.length ? (params as DuckDBValue[]) : undefined,
    );
    const types = reader.columnTypes();
    return reader.columnNames().map((name, i) => ({ name, type: types[i].toString() }));
  }

  /**
   * path: a file, or ':memory:'. Without settings DuckDB takes 80 % of RAM and a thread per core,
   * and keeps what it freed: the server passes the configured ceiling (docs/footprint.md).
   */
  static async open(path: string, settings?: DuckDbSettings): Promise<DuckDbWarehouse> {
    const own = await openDuckDb(
      path,
      settings && {
        memory_limit: settings.memoryLimit,
        threads: String(settings.threads),
        // Memory a finished query freed goes back to the system instead of staying in the
        // allocator's caches (by default up to 128 MB per process is kept).
        allocator_flush_threshold: '16MB',
        allocator_background_threads: 'true',
      },
    );
    try {
      return new DuckDbWarehouse(own, await own.instance.connect(), settings);
    } catch (err) {
      own.close();
      throw err;
    }
  }

  async query(sql: string, params: unknown[] = [], options: ReadOptions = {}): Promise<WarehouseRow[]> {
    const read = /^\s*(SELECT|WITH)\b/i.test(sql);
    const bound = params.length ? (params as DuckDBValue[]) : undefined;
    let answer: PooledRead;
    if (!read) {
      // Writes and settings stay on the main connection, one after another as they come.
      this.forgetVersions();
      answer = readOf(await this.conn.runAndReadAll(sql, bound));
    } else {
      answer = await this.lanes.run(options.tenant, async () => {
        const pooled = this.idle.pop() ?? (await this.connectPooled());
        try {
          return await pooled.read(sql, bound);
        } catch (err) {
          if (!isOutOfMemory(err)) throw err;
          return readOf(await this.underBurst(sql, bound, err));
        } finally {
          this.idle.push(pooled);
        }
      });
    }
    const { types, names } = answer;
    // The JSON form gives exact text for decimals and big integers; every figure we return fits a double.
    const rows = answer.rows as Record<string, unknown>[];
    const numeric = names.filter((_, i) => NUMERIC_TYPES.test(types[i]));
    if (numeric.length) {
      for (const row of rows) for (const n of numeric) if (row[n] !== null) row[n] = Number(row[n]);
    }
    return rows as Record<string, WarehouseValue>[];
  }

  /**
   * A read that needed more than the ceiling (a join of 100 M order items with their orders needs
   * ~200–500 MB; the default ceiling is 128 MB to keep an idle server small) runs once more under
   * the burst ceiling, which holds for every query while it runs and goes back afterwards; the
   * allocator then hands the memory back (allocator_flush_threshold). Still too little: the error
   * goes on, and the insights service answers 503.
   */
  private async underBurst(sql: string, params: DuckDBValue[] | undefined, first: unknown): Promise<DuckDBResultReader> {
    const { memoryLimit, memoryBurst } = this.settings ?? {};
    if (!memoryLimit || !memoryBurst || memoryBurst === memoryLimit) throw first;
    if (this.bursting++ === 0) await this.conn.run(`SET memory_limit = '${memoryBurst}'`);
    try {
      return await this.conn.runAndReadAll(sql, params);
    } finally {
      if (--this.bursting === 0) await this.conn.run(`SET memory_limit = '${memoryLimit}'`);
    }
  }

  async exec(sql: string): Promise<void> {
    await this.conn.run(sql);
    this.forgetVersions();
  }

  private forgetVersions(): void {
    this.versions.forget();
  }

  version(tenantId?: string): Promise<string | undefined> {
    return this.versions.version(tenantId);
  }

  knownVersion(tenantId: string): { readonly value: string | undefined } | undefined {
    return this.versions.known(tenantId);
  }

  /**
   * On a connection of its own, so queries on the main one go on meanwhile and see the load only
   * once it has committed.
   */
  async load(request: LoadRequest): Promise<LoadResult> {
    // A load inside the server runs on one thread, so its memory stays small (each reader thread
    // holds its own buffers and row groups) and the other cores stay with the queries. The setting
    // is global: it is set once for all loads running at once and put back when the last ends, so
    // overlapping loads never restore each other's value.
    if (!request.exclusive && this.activeLoads++ === 0) {
      this.threadsBefore = Number((await this.query(`SELECT current_setting('threads') AS n`))[0].n);
      await this.conn.run('SET threads = 1');
    }
    try {
      return await this.loadOfTable(request);
    } finally {
      if (!request.exclusive && --this.activeLoads === 0 && this.threadsBefore) await this.conn.run(`SET threads = ${this.threadsBefore}`);
    }
  }

  /**
   * Two first loads of one table (two tenants at once) both find no table and both create it: the
   * second CREATE fails with a write-write conflict on the catalog while the first is uncommitted,
   * or with "already exists" once it has committed. Nothing of the loser was kept; it waits until
   * the table's other loads that are not themselves waiting have ended (the winner has committed or
   * rolled back), then loads again and finds the table made. Waiting only on loads that are not
   * waiting can never wait in a circle.
   */
  private async loadOfTable(request: LoadRequest): Promise<LoadResult> {
    let loads = this.loadsOf.get(request.table);
    if (!loads) this.loadsOf.set(request.table, (loads = new Map()));
    const state = { waiting: false };
    const run = (async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.loadOnce(request);
        } catch (err) {
          if (attempt >= 5 || !/write-write conflict|already exists/i.test((err as Error).message)) throw err;
          state.waiting = true;
          const others = [...loads].filter(([p, s]) => p !== run && !s.waiting).map(([p]) => p);
          await Promise.allSettled(others);
          state.waiting = false;
          request.signal?.throwIfAborted();
        }
      }
    })();
    loads.set(run, state);
    try {
      return await run;
    } finally {
      loads.delete(run);
      if (loads.size === 0) this.loadsOf.delete(request.table);
    }
  }

  private async loadOnce(request: LoadRequest): Promise<LoadResult> {
    const conn = await this.own.instance.connect();
    // A cancelled request stops the statement running; duckdb/load.ts checks again before COMMIT.
    const interrupt = () => conn.interrupt();
    request.signal?.addEventListener('abort', interrupt, { once: true });
    try {
      request.signal?.throwIfAborted();
      return await loadIntoDuckDb(conn, request);
    } catch (err) {
      request.signal?.throwIfAborted();
      throw err;
    } finally {
      request.signal?.removeEventListener('abort', interrupt);
      conn.closeSync();
      this.forgetVersions();
    }
  }

  /** One at a time (see `writes`), on a connection of its own. */
  transaction(statements: TransactionStatement[], signal?: AbortSignal): Promise<void> {
    const run = this.writes.then(async () => {
      const conn = await this.own.instance.connect();
      try {
        await runTransaction((sql, params) => conn.run(sql, params?.length ? (params as DuckDBValue[]) : undefined), statements, signal);
      } finally {
        conn.closeSync();
        this.forgetVersions();
      }
    });
    this.writes = run.catch(() => {});
    return run;
  }

  async ensureTables(demo: boolean): Promise<void> {
    await this.exec(warehouseDdl('duckdb', demo));
  }

  async seedDemo(opts: SeedOptions): Promise<DemoSeeded> {
    // Row order does not matter to the generator's tables; only a process that has the file to
    // itself may change the global setting (never the server).
    if (opts.exclusive) await this.exec('SET preserve_insertion_order = false');
    return seedByScript(this, 'duckdb', opts);
  }

  timeText(sql: string): string {
    return `CAST(${sql} AS VARCHAR)`;
  }

  async tables(tenantColumnOf?: TenantColumnOf): Promise<WarehouseTable[]> {
    return (await duckDbTables(this.conn, tenantColumnOf)).tables;
  }

  /** Another connection on the same database, for reading (benchmarks compare hand-written SQL on it). */
  connect(): Promise<DuckDBConnection> {
    return this.own.instance.connect();
  }

  private async connectPooled(): Promise<PooledConnection> {
    const pooled = new PooledConnection(await this.own.instance.connect());
    this.pool.push(pooled);
    return pooled;
  }

  async close(): Promise<void> {
    for (const pooled of this.pool) pooled.close();
    this.conn.closeSync();
    this.own.close();
  }
}
