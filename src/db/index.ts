// The system of record: PGlite (embedded) by default, PostgreSQL when DATABASE_URL is set
// (PostgresDb, ./postgres.ts: its client is loaded only then). Both sit behind one small interface
// so that repositories run the same SQL on either.
import type { PGlite } from '@electric-sql/pglite';
import { PGliteStatements } from './pglite-statements.ts';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type Row = Record<string, any>;

export interface Queryable {
  /** One statement with bound parameters ($1, $2 …). */
  query<T extends Row = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Several statements, no parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
}

/** A subscription to a channel's notifications (LISTEN); see Db.listen. */
export interface Listening {
  /** False while notifications may be missed (the listening connection is lost, until it is back). */
  readonly live: boolean;
  close(): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Calls onNotify for every NOTIFY on the channel of this schema (from any process sharing the
   * database) with its payload, and without one when the subscription is lost or (re)made: whatever
   * the caller derived from earlier state is stale then.
   */
  listen(channel: string, onNotify: (payload?: string) => void): Promise<Listening>;
  /** Runs fn in one transaction; it commits when fn resolves and rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// int8 and numeric arrive as strings by default; every count and sum we store fits a double.
export const INT8 = 20;
export const NUMERIC = 1700;

// PostgreSQL's default 128 MB of shared buffers live inside PGlite's WASM heap, which never gives
// memory back, and PostgreSQL touches all of its buffers at start: each MB here is a MB resident.
// 8 MB holds the system of record's whole database after the demo's first start (~8 MB, most of
// it the catalogs); a page beyond it is read again through the file system (docs/footprint.md).
const START_PARAMS = ['-c', 'shared_buffers=8MB'];

const PGLITE_MODULE = import.meta.resolve('@electric-sql/pglite');

/**
 * Creates a new data dir in a child process. PGlite's initdb runs a second WASM instance and
 * copies the new cluster through memory; in this process that would leave ~130 MB resident for
 * good, while a child hands it all back when it exits.
 */
function initializeDataDir(dataDir: string): Promise<void> {
  const code = `const { PGlite } = await import(${JSON.stringify(PGLITE_MODULE)});
const db = await PGlite.create({ dataDir: process.argv[1] });
await db.close();`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code, dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`Initializing the database in ${dataDir} failed: ${stderr.trim() || `exit code ${code}`}`)),
    );
  });
}

export class PGliteDb implements Db {
  readonly kind = 'pglite' as const;

  private constructor(
    private readonly pg: PGlite,
    private readonly statements: PGliteStatements,
  ) {}

  static async open(options: { dataDir?: string; loadDataDir?: Blob }): Promise<PGliteDb> {
    if (options.dataDir && !options.loadDataDir && !fs.existsSync(path.join(options.dataDir, 'PG_VERSION'))) {
      await initializeDataDir(options.dataDir);
    }
    // Loaded here, not at import: with DATABASE_URL the process never holds PGlite (docs/footprint.md).
    const { PGlite, protocol, parse } = await import('@electric-sql/pglite');
    const instance = await PGlite.create({
      dataDir: options.dataDir,
      startParams: [...PGlite.defaultStartParams, ...START_PARAMS],
      loadDataDir: options.loadDataDir,
      parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v) },
    });
    return new PGliteDb(instance, new PGliteStatements(instance, { protocol, parse }));
  }

  get raw(): PGlite {
    return this.pg;
  }

  // PGlite's locks as its own `query` takes them: no statement runs inside another's transaction.
  async query<T extends Row = Row>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.pg._runExclusiveTransaction(() =>
      this.pg._runExclusiveQuery(async () => {
        const rows = await this.statements.run<T>(sql, params);
        await this.pg.syncToFs();
        return rows;
      }),
    );
  }

  async exec(sql: string): Promise<void> {
    await this.pg.exec(sql);
  }

  // One process holds the data dir, and PGlite delivers a notification before the statement that
  // caused it returns: the subscription is live for as long as it is open.
  async listen(channel: string, onNotify: (payload?: string) => void): Promise<Listening> {
    const unlisten = await this.pg.listen(channel, (payload) => onNotify(payload));
    let live = true;
    return {
      get live() {
        return live;
      },
      close: async () => {
        live = false;
        if (!this.pg.closed) await unlisten();
      },
    };
  }

  // PGlite has a single connection: its own mutex serializes a transaction against every other
  // query, so nothing else interleaves between BEGIN and COMMIT.
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.pg.transaction(async (tx) =>
      fn({
        // The transaction holds PGlite's transaction lock; a statement of it takes the query lock.
        query: async <R extends Row = Row>(sql: string, params: unknown[] = []) => {
          if (tx.closed) throw new Error('Transaction is closed');
          return this.pg._runExclusiveQuery(() => this.statements.run<R>(sql, params));
        },
        exec: async (sql: string) => {
          await tx.exec(sql);
        },
      }),
    );
  }

  async dump(): Promise<Blob> {
    return (await this.pg.dumpDataDir('none')) as Blob;
  }

  async close(): Promise<void> {
    if (!this.pg.closed) await this.pg.close();
  }
}
