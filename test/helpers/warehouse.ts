// A small deterministic warehouse for test apps: in-memory DuckDB with both demo tenants, ending on
// the test clock's date, so every module's tests see real data.
import { DuckDbWarehouse } from '../../src/warehouse/duckdb.ts';
import { seedDemo } from '../../src/warehouse/demo.ts';
import { PostgresWarehouse } from '../../src/warehouse/postgres.ts';
import type { Warehouse } from '../../src/warehouse/warehouse.ts';

/** Orders over both tenants in a test warehouse: enough for every insight to have rows. */
export const TEST_WAREHOUSE_ROWS = 6000;

export async function testWarehouse(now: Date, rows = TEST_WAREHOUSE_ROWS, tenants = ['demo', 'acme']): Promise<Warehouse> {
  const warehouse = await DuckDbWarehouse.open(':memory:');
  await seedDemo(warehouse, { rows, tenants, endDay: now.toISOString().slice(0, 10), now });
  return warehouse;
}

/** The same data on PostgreSQL in a schema of its own; close() drops the schema. */
export async function testPostgresWarehouse(url: string, now: Date, rows = TEST_WAREHOUSE_ROWS, tenants = ['demo', 'acme']): Promise<Warehouse> {
  const pg = await import('pg');
  const schema = `wh_${Math.random().toString(16).slice(2, 10)}`;
  const admin = new pg.default.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const warehouse = new PostgresWarehouse(url, { schema, max: 4 });
  await seedDemo(warehouse, { rows, tenants, endDay: now.toISOString().slice(0, 10), now });
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
