// The ClickHouse warehouse for tests: @clickhouse/client over real HTTP to the chdb-backed
// stand-in (test/fakes/clickhouse-server.ts), a database of its own per warehouse (dropped by
// close()), the demo data copied from the same generator as the other engines. Where chdb is not
// installed, `clickhouseSkip` is the reason tests print when they skip.
import { seedDemo } from '../../src/warehouse/demo/demo.ts';
import { ClickHouseWarehouse } from '../../src/warehouse/clickhouse/clickhouse.ts';
import { chdbMissing, clickHouseStandIn } from '../fakes/clickhouse-server.ts';
import { TEST_WAREHOUSE_ROWS } from './warehouse.ts';

export const clickhouseSkip: string | false = chdbMissing();

let n = 0;

/** An empty ClickHouse warehouse (the demo tables created unless `demo: false`, no rows). */
export async function emptyClickHouseWarehouse(options: { cluster?: string; demo?: boolean } = {}): Promise<ClickHouseWarehouse> {
  const server = await clickHouseStandIn();
  const database = `wh_${process.pid}_${++n}_${Math.random().toString(16).slice(2, 8)}`;
  const warehouse = new ClickHouseWarehouse(await server.urlFor(database), options);
  const close = warehouse.close.bind(warehouse);
  warehouse.close = async () => {
    await warehouse.exec(`DROP DATABASE IF EXISTS ${database}`).catch(() => {});
    await close();
  };
  await warehouse.ensureTables(options.demo ?? true);
  return warehouse;
}

/** The demo data on ClickHouse: the very rows of testWarehouse(now, rows, tenants). */
export async function testClickHouseWarehouse(
  now: Date,
  rows = TEST_WAREHOUSE_ROWS,
  tenants = ['demo', 'acme'],
): Promise<ClickHouseWarehouse> {
  const warehouse = await emptyClickHouseWarehouse();
  try {
    await seedDemo(warehouse, { rows, tenants, endDay: now.toISOString().slice(0, 10), now });
  } catch (err) {
    await warehouse.close();
    throw err;
  }
  return warehouse;
}
