// Loading over the API for a model of the user's own, written from docs/model.md alone: its cubes
// name their tenant columns (`store`, `account`), its tables take names the demo also uses
// (`orders`, `customers`) with columns of its own. Run on every engine there is: DuckDB always,
// PostgreSQL with a server (DATABASE_URL / WAREHOUSE_TEST_URL), ClickHouse with chdb.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../../src/config/index.ts';
import { modelFromText } from '../../../src/semantic/model.ts';
import { tenantColumns } from '../../../src/semantic/tenancy.ts';
import { openWarehouse } from '../../../src/warehouse/open.ts';
import { warehouseDdl, type Warehouse } from '../../../src/warehouse/warehouse.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { clickhouseSkip, emptyClickHouseWarehouse } from '../../helpers/clickhouse.ts';
import { emptyPostgresWarehouse, postgresWarehouseUrl } from '../../helpers/warehouse.ts';
import { clock, tables, upload } from './support.ts';

import { CUSTOMERS, ORDERS, SHOP_MODEL } from './own-model.fixture.ts';

const WINDOW = 'date_from=2025-01-01&date_to=2025-02-28';

type Engine = 'duckdb' | 'postgres' | 'clickhouse';

/** The warehouse as the server opens it on INSIGHTS_MODEL: none of the demo's tables. */
async function ownModelWarehouse(engine: Engine, dataDir: string, modelFile: string): Promise<Warehouse> {
  if (engine === 'duckdb') return openWarehouse(loadConfig({ INSIGHTS_DATA_DIR: dataDir, INSIGHTS_MODEL: modelFile }));
  if (engine === 'postgres') {
    const wh = await emptyPostgresWarehouse(postgresWarehouseUrl);
    await wh.exec(warehouseDdl('postgres', false));
    return wh;
  }
  return emptyClickHouseWarehouse({ demo: false });
}

const skipOf: Record<Engine, string | false> = {
  duckdb: false,
  postgres: postgresWarehouseUrl ? false : 'no PostgreSQL server (DATABASE_URL or WAREHOUSE_TEST_URL); PGlite cannot COPY',
  clickhouse: clickhouseSkip,
};

for (const engine of ['duckdb', 'postgres', 'clickhouse'] as const) {
  describe(`a model of the user's own on ${engine}`, { skip: skipOf[engine] }, () => {
    let dir: string;
    let warehouse: Warehouse;
    let t: TestApp;
    let north: string;
    let south: string;

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-own-model-'));
      const modelFile = path.join(dir, 'shop.yml');
      fs.writeFileSync(modelFile, SHOP_MODEL);
      warehouse = await ownModelWarehouse(engine, path.join(dir, 'data'), modelFile);
      t = await buildTestApp({ clock, deps: { warehouse, model: modelFromText(SHOP_MODEL) } });
      north = await t.login({ tenant: 'north', user: 'o', role: 'owner' });
      south = await t.login({ tenant: 'south', user: 'o', role: 'owner' });
    });
    after(async () => {
      await t?.close();
      await warehouse?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    test('nothing of the demo is there, and an insight before any load names the table to load, never the demo', async () => {
      assert.deepEqual(await warehouse.tables(tenantColumns(modelFromText(SHOP_MODEL))), []);
      const res = await call(t, north, 'GET', `/api/v1/insights/revenue/execute?${WINDOW}`);
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(res.data.code, 'DATA_NOT_LOADED');
      assert.match(res.data.detail, /insights data load --table orders/);
      assert.doesNotMatch(res.body, /demo seed/);
    });

    test('loads create the tenant column the model names, with any table name the model uses, and execute answers exact figures', async () => {
      for (const [tenant, auth] of [
        ['north', north],
        ['south', south],
      ] as const) {
        const o = await upload(t, auth, { table: 'orders', body: ORDERS[tenant] });
        assert.equal(o.statusCode, 200, o.body);
        const c = await upload(t, auth, { table: 'customers', body: CUSTOMERS[tenant] });
        assert.equal(c.statusCode, 200, c.body);
      }
      const stores = await warehouse.query(`SELECT store, count(*) AS n FROM orders GROUP BY store ORDER BY store`);
      assert.deepEqual(
        stores.map((r) => [r.store, Number(r.n)]),
        [
          ['north', 3],
          ['south', 2],
        ],
      );
      assert.deepEqual(
        (await warehouse.query(`SELECT account, count(*) AS n FROM customers GROUP BY account ORDER BY account`)).map((r) => [
          r.account,
          Number(r.n),
        ]),
        [
          ['north', 2],
          ['south', 2],
        ],
      );
      const listed = (await warehouse.tables((name) => ({ orders: 'store', customers: 'account' })[name] ?? 'tenant_id')).map((x) => [
        x.name,
        x.tenantColumn,
      ]);
      assert.deepEqual(listed.sort(), [
        ['customers', 'account'],
        ['orders', 'store'],
      ]);

      const series = await call(t, north, 'GET', `/api/v1/insights/revenue/execute?${WINDOW}&granularity=month`);
      assert.equal(series.statusCode, 200, series.body);
      assert.deepEqual(
        series.data.data.rows.map((r: Record<string, unknown>) => [r.period, r.revenue, r.orders]),
        [
          ['2025-01-01', 150.5, 2],
          ['2025-02-01', 20.25, 1],
        ],
      );
      const oslo = await call(t, north, 'GET', `/api/v1/insights/revenue/execute?${WINDOW}&granularity=month&city=Oslo`);
      assert.deepEqual(
        oslo.data.data.rows.map((r: Record<string, unknown>) => r.revenue),
        [100.5, 20.25],
      );
      // The join is tenant-restricted on both sides: south's customer 7 is wholesale, north's retail.
      const bySegment = await call(t, north, 'GET', `/api/v1/insights/revenue_by_segment/execute?${WINDOW}`);
      assert.equal(bySegment.statusCode, 200, bySegment.body);
      assert.deepEqual(Object.fromEntries(bySegment.data.data.rows.map((r: Record<string, unknown>) => [r.segment, r.revenue])), {
        retail: 120.75,
        wholesale: 50,
      });
      const southSeg = await call(t, south, 'GET', `/api/v1/insights/revenue_by_segment/execute?${WINDOW}`);
      assert.deepEqual(Object.fromEntries(southSeg.data.data.rows.map((r: Record<string, unknown>) => [r.segment, r.revenue])), {
        wholesale: 1000,
        retail: 3000,
      });

      const mine = (await tables(t, north)).orders;
      assert.equal(mine.row_count, 3);
      // The columns the model reads (order_no, which no member reads, is not stored over the API).
      assert.deepEqual(mine.columns, [
        { name: 'sold_at', type: 'TIMESTAMP' },
        { name: 'city', type: 'VARCHAR' },
        { name: 'amount', type: 'DOUBLE' },
        { name: 'customer_no', type: 'VARCHAR' }, // a join key that no member types: text on both sides
      ]);
    });

    test('replace removes only the loading tenant’s rows, by the model’s tenant column', async () => {
      const res = await upload(t, north, {
        table: 'orders',
        mode: 'replace',
        body: 'order_no,sold_at,city,amount,customer_no\n9,2025-01-09 08:00:00,Oslo,1,7\n',
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        (await warehouse.query(`SELECT store, sum(amount) AS s FROM orders GROUP BY store ORDER BY store`)).map((r) => [
          r.store,
          Number(r.s),
        ]),
        [
          ['north', 1],
          ['south', 4000],
        ],
      );
    });

    test('a header naming the tenant column in any case, or holding a NUL, is a 400 naming it; nothing is kept', async () => {
      const before = await warehouse.query(`SELECT count(*) AS n FROM orders`);
      for (const header of ['Store', 'STORE']) {
        const res = await upload(t, north, {
          table: 'orders',
          body: `order_no,sold_at,city,amount,customer_no,${header}\n5,2025-01-05 10:00:00,Oslo,1,7,south\n`,
        });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.data.code, 'DATA_COLUMNS_MISMATCH');
        assert.match(res.data.detail, new RegExp(`column ${header}, which is the table's tenant column store`));
        assert.deepEqual(
          res.data.errors.map((e: { path: string }) => e.path),
          [`/body/${header}`],
        );
      }
      const nul = await upload(t, north, { table: 'visits', body: 'a\u0000b,n\nx,1\n' });
      assert.equal(nul.statusCode, 400, nul.body);
      assert.equal(nul.data.code, 'DATA_COLUMNS_MISMATCH');
      assert.match(nul.data.detail, /NUL/);
      assert.deepEqual(await warehouse.query(`SELECT count(*) AS n FROM orders`), before);
      assert.ok(
        !(await warehouse.tables(tenantColumns(modelFromText(SHOP_MODEL)))).some((x) => x.name === 'visits'),
        'no table was created',
      );
    });

    test('a time outside 1900-01-01…2200-12-31 is a 400 naming its line and column, and nothing is kept', async () => {
      const before = (await tables(t, north)).orders.row_count;
      for (const [bad, line] of [
        ['9999-12-31 23:00:00', 3],
        ['0001-01-01 00:00:00', 3],
        ['1899-12-31 23:59:59', 3],
        ['2201-01-01 00:00:00', 3],
      ] as const) {
        const body = `order_no,sold_at,city,amount,customer_no\n5,2025-01-05 10:00:00,Oslo,1,7\n6,${bad},Oslo,1,7\n`;
        const res = await upload(t, north, { table: 'orders', mode: 'replace', body });
        assert.equal(res.statusCode, 400, `${bad}: ${res.body}`);
        assert.equal(res.data.code, 'DATA_ROW_INVALID');
        assert.match(
          res.data.detail,
          new RegExp(`^Line ${line}, column sold_at: .* is outside the supported range of times \\(1900-01-01 to 2200-12-31\\)`),
        );
        assert.deepEqual(
          res.data.errors.map((e: { path: string }) => e.path),
          [`/body/${line}/sold_at`],
        );
      }
      // A first load too: the table is not created.
      const first = await upload(t, north, {
        table: 'visits',
        type: 'application/x-ndjson',
        body: '{"day":"2025-01-01","n":1}\n\n{"day":"0001-01-01","n":2}\n',
      });
      assert.equal(first.statusCode, 400, first.body);
      assert.match(first.data.detail, /^Line 3, column day: 0001-01-01 00:00:00 is outside/);
      assert.ok(!(await warehouse.tables(tenantColumns(modelFromText(SHOP_MODEL)))).some((x) => x.name === 'visits'));
      assert.equal((await tables(t, north)).orders.row_count, before, 'the replace was rolled back');
      const edges = await upload(t, north, { table: 'visits', body: 'day,n\n1900-01-01,1\n2200-12-31,2\n' });
      assert.equal(edges.statusCode, 200, edges.body);
    });

    test('a table that exists without its cube’s tenant column: a load is refused and execute is a 409, never a 500', async () => {
      const text = engine === 'duckdb' ? 'VARCHAR' : engine === 'postgres' ? 'text' : 'String';
      const ddl = `CREATE TABLE refunds (amount DOUBLE PRECISION, refunded_on DATE, tenant_id ${text})${engine === 'clickhouse' ? ' ENGINE = MergeTree ORDER BY tuple()' : ''}`;
      await warehouse.exec(engine === 'clickhouse' ? ddl.replace('DOUBLE PRECISION', 'Float64').replace('DATE', 'Date32') : ddl);
      const load = await upload(t, north, { table: 'refunds', body: 'amount,refunded_on\n5,2025-01-01\n' });
      assert.equal(load.statusCode, 400, load.body);
      assert.match(load.data.detail, /Table refunds exists without a store column/);
      const res = await call(t, north, 'GET', `/api/v1/insights/refunds/execute?${WINDOW}`);
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(res.data.code, 'DATA_MODEL_MISMATCH');
      assert.match(res.data.detail, /table refunds has no column store, which cube refunds declares as its tenant_column/);
    });
  });
}

test('a query that fails on a warehouse nothing was loaded into names the tables to load, not the demo (503)', async () => {
  const model = modelFromText(`
cubes:
  - name: tickets
    sql_table: tickets
    tenant_column: desk
    measures:
      - name: minutes
        type: sum
        sql: CAST(minutes AS INTEGER)
    dimensions:
      - name: opened
        type: time
        sql: opened
insights:
  - code: minutes
    kind: kpi
    measures: [tickets.minutes]
    time_dimension: tickets.opened
`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-own-model-'));
  const modelFile = path.join(dir, 'desk.yml');
  fs.writeFileSync(modelFile, 'cubes: []\n');
  const warehouse = await ownModelWarehouse('duckdb', path.join(dir, 'data'), modelFile);
  // Made by hand, not loaded: the warehouse has no data version, and the value fails only when read.
  await warehouse.exec(
    `CREATE TABLE tickets (minutes VARCHAR, opened DATE, desk VARCHAR); INSERT INTO tickets VALUES ('ten', DATE '2025-01-10', 'north')`,
  );
  const t = await buildTestApp({ clock, deps: { warehouse, model } });
  try {
    const north = await t.login({ tenant: 'north', user: 'o', role: 'owner' });
    const res = await call(t, north, 'GET', `/api/v1/insights/minutes/execute?${WINDOW}`);
    assert.equal(res.statusCode, 503, res.body);
    assert.doesNotMatch(res.body, /demo seed/);
    assert.match(res.data.detail, /load the table insight minutes reads \(tickets\): insights data load --table tickets/);
  } finally {
    await t.close();
    await warehouse.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
