// `insights data load` as a new user runs it: with INSIGHTS_MODEL naming a model of their own
// (tenant_column: store), into table names the demo also uses; files named with glob characters,
// unbalanced quotes, very long rows, times no engine can bucket and tenant-column headers.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { modelFromText } from '../../../src/semantic/model.ts';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import { buildTestApp, call } from '../../helpers/app.ts';
import { runCli, tempDataDir } from '../../helpers/process.ts';
import { CUSTOMERS, ORDERS, SHOP_MODEL } from './own-model.fixture.ts';
import { clock } from './support.ts';

let dir: string;
let files: string;
let model: string;

before(() => {
  dir = tempDataDir('insights-own-cli-');
  files = tempDataDir('insights-own-cli-files-');
  model = path.join(files, 'shop.yml');
  fs.writeFileSync(model, SHOP_MODEL);
});
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(files, { recursive: true, force: true });
});

const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { INSIGHTS_DATA_DIR: dir, INSIGHTS_MODEL: model, ...env });
const load = (table: string, file: string, tenant = 'north', mode = 'append') =>
  cli(['data', 'load', '--table', table, '--file', file, '--tenant', tenant, '--mode', mode]);

function write(name: string, content: string | Buffer): string {
  const file = path.join(files, name);
  fs.writeFileSync(file, content);
  return file;
}

async function withWarehouse<T>(fn: (wh: DuckDbWarehouse) => Promise<T>): Promise<T> {
  const wh = await DuckDbWarehouse.open(path.join(dir, 'warehouse.duckdb'));
  try {
    return await fn(wh);
  } finally {
    await wh.close();
  }
}

const tableNames = () =>
  withWarehouse(async (wh) =>
    (await wh.query(`SELECT table_name FROM information_schema.tables ORDER BY 1`)).map((r) => String(r.table_name)),
  );

test('with INSIGHTS_MODEL, loads make the model’s tenant column in tables the demo would have taken, and execute answers exact figures', async () => {
  for (const tenant of ['north', 'south'] as const) {
    const o = await load('orders', write(`orders-${tenant}.csv`, ORDERS[tenant]), tenant);
    assert.equal(o.code, 0, o.stderr);
    assert.match(o.stdout, /Loaded \d rows .* into orders for tenant/);
    assert.equal((await load('customers', write(`customers-${tenant}.csv`, CUSTOMERS[tenant]), tenant)).code, 0);
  }
  assert.deepEqual(await tableNames(), ['customers', 'orders', 'warehouse_meta', 'warehouse_tenant_versions'], 'nothing of the demo');
  await withWarehouse(async (wh) => {
    const cols = await wh.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'orders' ORDER BY ordinal_position`);
    assert.deepEqual(
      cols.map((c) => c.column_name),
      ['order_no', 'sold_at', 'city', 'amount', 'customer_no', 'store'],
    );
    const t = await buildTestApp({ clock, deps: { warehouse: wh, model: modelFromText(SHOP_MODEL) } });
    try {
      const north = await t.login({ tenant: 'north', user: 'o', role: 'owner' });
      const res = await call(t, north, 'GET', '/api/v1/insights/revenue/execute?date_from=2025-01-01&date_to=2025-02-28&granularity=month');
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        res.data.data.rows.map((r: Record<string, unknown>) => [r.period, r.revenue, r.orders]),
        [
          ['2025-01-01', 150.5, 2],
          ['2025-02-01', 20.25, 1],
        ],
      );
    } finally {
      await t.close();
    }
  });
});

test('with INSIGHTS_MODEL, `demo seed` refuses and creates nothing', async () => {
  const res = await cli(['demo', 'seed', '--rows', '100']);
  assert.equal(res.code, 2);
  assert.match(res.stderr, /INSIGHTS_MODEL is set .*insights data load/);
  assert.ok(!(await tableNames()).includes('products'));
});

test('--file is a path, not a glob: a*b.csv loads that file only', async () => {
  write('aZZb.csv', 'k,v\nother,1\n');
  const literal = write('a*b.csv', 'k,v\nmine,2\n');
  const res = await load('pairs', literal);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /Loaded 1 rows/);
  assert.deepEqual(await withWarehouse((wh) => wh.query(`SELECT k, v FROM pairs`)), [{ k: 'mine', v: 2 }]);
});

test('an unclosed quote, a 3 MB row and a time out of range are refused naming their line; nothing is kept', async () => {
  const quote = await load('quoted', write('quote.csv', 'a,b\n1,"x\n2,y\n3,z\n'));
  assert.equal(quote.code, 1, quote.stdout);
  assert.match(quote.stderr, /Line 2: a quoted value is never closed/);
  const late = await load('quoted', write('quote2.csv', 'a,b\n1,x\n2,"y\n'));
  assert.match(late.stderr, /Line 3: a quoted value is never closed/);
  // A quote inside an unquoted value is text, as spreadsheets write inches.
  const inches = await load('screens', write('inch.csv', 'size,name\n27,27" screen\n'));
  assert.equal(inches.code, 0, inches.stderr);
  assert.deepEqual(await withWarehouse((wh) => wh.query(`SELECT name FROM screens`)), [{ name: '27" screen' }]);

  const long = await load('long', write('long.csv', `a,b\n1,${'x'.repeat(3_000_000)}\n2,y\n`));
  assert.equal(long.code, 1);
  assert.match(long.stderr, /Line 2: the row is longer than 2,000,000 bytes/);

  const times = await load(
    'orders',
    write(
      'far.csv',
      'order_no,sold_at,city,amount,customer_no\n5,2025-03-01 10:00:00,Oslo,1,7\n6,9999-12-31 23:00:00,Oslo,1,7\n7,0001-01-01,Oslo,1,7\n',
    ),
  );
  assert.equal(times.code, 1);
  assert.match(
    times.stderr,
    /Line 3, column sold_at: 9999-12-31 23:00:00 is outside the supported range of times \(1900-01-01 to 2200-12-31\)/,
  );
  const header = await load(
    'orders',
    write('store.csv', 'order_no,sold_at,city,amount,customer_no,STORE\n5,2025-03-01 10:00:00,Oslo,1,7,south\n'),
  );
  assert.equal(header.code, 1);
  assert.match(header.stderr, /column STORE, which is the table's tenant column store/);
  assert.deepEqual(await tableNames(), ['customers', 'orders', 'pairs', 'screens', 'warehouse_meta', 'warehouse_tenant_versions']);
  assert.deepEqual(await withWarehouse((wh) => wh.query(`SELECT count(*) AS n FROM orders`)), [{ n: 5 }]);
});
