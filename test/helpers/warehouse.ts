// A small deterministic warehouse for test apps: in-memory DuckDB with both demo tenants, ending on
// the test clock's date, so every module's tests see real data. The PostgreSQL dialect runs on
// DATABASE_URL's (or WAREHOUSE_TEST_URL's) server when one is configured, else on PGlite, which is
// PostgreSQL: so `npm test` needs no server, and CI still runs it against a real one.
import { PGlite } from '@electric-sql/pglite';
import { DuckDbWarehouse } from '../../src/warehouse/duckdb/duckdb.ts';
import { seedByScript, seedDemo } from '../../src/warehouse/demo/demo.ts';
import { PostgresWarehouse } from '../../src/warehouse/postgres/postgres.ts';
import { postgresTables } from '../../src/warehouse/postgres/load.ts';
import {
  warehouseDdl,
  type LoadResult,
  type SeedOptions,
  type Warehouse,
  type WarehouseRow,
  type WarehouseTable,
} from '../../src/warehouse/warehouse.ts';

/** Orders over both tenants in a test warehouse: enough for every insight to have rows. */
export const TEST_WAREHOUSE_ROWS = 6000;

export async function testWarehouse(now: Date, rows = TEST_WAREHOUSE_ROWS, tenants = ['demo', 'acme']): Promise<Warehouse> {
  const warehouse = await DuckDbWarehouse.open(':memory:');
  await seedDemo(warehouse, { rows, tenants, endDay: now.toISOString().slice(0, 10), now });
  return warehouse;
}

/** The PostgreSQL server the warehouse tests use, if any. */
export const postgresWarehouseUrl: string | undefined = process.env.WAREHOUSE_TEST_URL || process.env.DATABASE_URL || undefined;

// The same type mapping as PostgresWarehouse: dates and timestamps as text, int8 and numeric as
// numbers (their figures fit a double).
const DATE = 1082;
const TIMESTAMP = 1114;
const INT8 = 20;
const NUMERIC = 1700;
const asText = (v: string) => v;

/** The PostgreSQL warehouse on PGlite: the same SQL as PostgresWarehouse, on an in-memory cluster. */
export class PGliteWarehouse implements Warehouse {
  readonly dialect = 'postgres' as const;
  readonly title = 'PostgreSQL';
  readonly soleWriter = false;
  private constructor(private readonly pg: PGlite) {}

  static async open(): Promise<PGliteWarehouse> {
    return new PGliteWarehouse(
      await PGlite.create({ parsers: { [DATE]: asText, [TIMESTAMP]: asText, [INT8]: Number, [NUMERIC]: Number } }),
    );
  }

  async query(sql: string, params: unknown[] = []): Promise<WarehouseRow[]> {
    return (await this.pg.query<WarehouseRow>(sql, params)).rows;
  }

  async exec(sql: string): Promise<void> {
    await this.pg.exec(sql);
  }

  async transaction(statements: { sql: string; params?: unknown[] }[], signal?: AbortSignal): Promise<void> {
    await this.pg.transaction(async (tx) => {
      for (const s of statements) {
        signal?.throwIfAborted();
        await tx.query(s.sql, s.params ?? []);
      }
    });
  }

  async ensureTables(demo: boolean): Promise<void> {
    await this.exec(warehouseDdl('postgres', demo));
  }

  seedDemo(opts: SeedOptions) {
    return seedByScript(this, 'postgres', opts);
  }

  timeText(sql: string): string {
    return `CAST(${sql} AS text)`;
  }

  async version(): Promise<string | undefined> {
    const rows = await this.query('SELECT version FROM warehouse_meta WHERE id = 1').catch(() => []);
    return rows.length ? String(rows[0].version) : undefined;
  }

  /** Loading needs COPY … FROM STDIN over the wire (pg-copy-streams): the data tests use a server. */
  async load(): Promise<LoadResult> {
    throw new Error('PGliteWarehouse does not load files; run the data tests against a PostgreSQL server');
  }

  async tables(): Promise<WarehouseTable[]> {
    return (await postgresTables(async (sql, params) => ({ rows: await this.query(sql, params) }))).tables;
  }

  async close(): Promise<void> {
    if (!this.pg.closed) await this.pg.close();
  }
}

/**
 * An empty PostgreSQL warehouse (no tables): a schema of its own on the configured server (close()
 * drops it), else PGlite.
 */
export async function emptyPostgresWarehouse(url = postgresWarehouseUrl): Promise<Warehouse> {
  if (!url) return PGliteWarehouse.open();
  const pg = await import('pg');
  const schema = `wh_${Math.random().toString(16).slice(2, 10)}`;
  const admin = new pg.default.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const warehouse = new PostgresWarehouse(url, { schema, max: 4 });
  const close = warehouse.close.bind(warehouse);
  warehouse.close = async () => {
    await close();
    const c = new pg.default.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  };
  return warehouse;
}

/** The demo data on the PostgreSQL dialect (see emptyPostgresWarehouse). */
export async function testPostgresWarehouse(
  now: Date,
  rows = TEST_WAREHOUSE_ROWS,
  tenants = ['demo', 'acme'],
  url = postgresWarehouseUrl,
): Promise<Warehouse> {
  const warehouse = await emptyPostgresWarehouse(url);
  try {
    await seedDemo(warehouse, { rows, tenants, endDay: now.toISOString().slice(0, 10), now });
  } catch (err) {
    await warehouse.close();
    throw err;
  }
  return warehouse;
}
