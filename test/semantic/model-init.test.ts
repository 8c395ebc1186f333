// `insights model init` through the real CLI over files as people export them: two tables, headers
// with spaces, `$`, hyphens, mixed case, a leading digit, an SQL word, an empty column, a table
// without dates. The written model passes `model check` and every one of its insights executes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'yaml';
import { ManualClock } from '../../src/lib/clock.ts';
import { DuckDbWarehouse } from '../../src/warehouse/duckdb/duckdb.ts';
import { buildTestApp, call } from '../helpers/app.ts';
import { runCli, tempDataDir } from '../helpers/process.ts';

let dir: string;
const env = () => ({ INSIGHTS_DATA_DIR: dir });

const purchasesCsv = [
  'Order Date,Order ID,Customer ID,product-line,Region,Net Amount $,Discount %,Qty,2nd Address,limit,Notes',
  ...Array.from({ length: 60 }, (_, i) => {
    const day = `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`;
    return [
      day,
      `O-${i}`,
      `C${i % 25}`,
      ['Books', 'Games', 'Toys'][i % 3],
      ['North', 'South'][i % 2],
      (10 + i * 1.5).toFixed(2),
      i % 10,
      (i % 4) + 1,
      `Street ${i}`,
      i % 3,
      '',
    ].join(',');
  }),
].join('\r\n');
const stores = ['Store Code,Store Name,Floor Area', 'S1,Main Street,120.5', 'S2,Harbour,80'].join('\n');

before(async () => {
  dir = tempDataDir('insights-model-init-');
  fs.writeFileSync(path.join(dir, 'purchases.csv'), `${purchasesCsv}\r\n`);
  fs.writeFileSync(path.join(dir, 'stores.csv'), `${stores}\n`);
  for (const t of ['purchases', 'stores']) {
    const r = await runCli(['data', 'load', '--table', t, '--file', path.join(dir, `${t}.csv`), '--tenant', 'acme'], env());
    assert.equal(r.code, 0, r.stderr);
  }
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('refuses what it cannot do, naming it', async () => {
  const none = await runCli(['model', 'init'], env());
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--table is required/);
  const gone = await runCli(['model', 'init', '--table', 'sales'], env());
  assert.equal(gone.code, 2);
  assert.match(gone.stderr, /--table sales: no such table in the duckdb warehouse \(loaded: .*purchases.*stores/);
  fs.writeFileSync(path.join(dir, 'taken.yml'), 'keep me');
  const taken = await runCli(['model', 'init', '--table', 'purchases', '--out', path.join(dir, 'taken.yml')], env());
  assert.equal(taken.code, 2);
  assert.match(taken.stderr, /taken\.yml exists/);
  assert.equal(fs.readFileSync(path.join(dir, 'taken.yml'), 'utf8'), 'keep me');
});

test('two tables: a model that checks, quotes what needs quoting, and whose every insight executes', async () => {
  const out = path.join(dir, 'model.yml');
  const r = await runCli(['model', 'init', '--table', 'purchases', '--table', 'stores', '--out', out], env());
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /note: purchases: Notes: every value is empty, left out/);
  assert.match(r.stderr, /note: stores: no date or time column, so no insights/);
  const text = fs.readFileSync(out, 'utf8');
  const model = parse(text);
  const cube = model.cubes[0];
  const dim = (n: string) => cube.dimensions.find((d: { name: string }) => d.name === n);
  const measure = (n: string) => cube.measures.find((d: { name: string }) => d.name === n);
  assert.equal(dim('order_date').sql, '{CUBE}."Order Date"');
  assert.equal(dim('product_line').sql, '{CUBE}."product-line"');
  assert.equal(dim('product_line').title, 'Product line');
  assert.equal(dim('_2nd_address').sql, '{CUBE}."2nd Address"');
  assert.equal(measure('net_amount').sql, '{CUBE}."Net Amount $"');
  assert.equal(measure('net_amount').format, 'money');
  assert.deepEqual(measure('net_amount').synonyms, ['net amount $', 'total net amount']);
  // A percentage is averaged, never summed; an id is counted once per value.
  assert.equal(measure('discount'), undefined);
  assert.equal(measure('average_discount').type, 'avg');
  assert.equal(measure('customers').type, 'count_distinct');
  assert.equal(measure('qty').type, 'sum');
  // A column named like an execute parameter gets another name.
  assert.ok(dim('limit_value') || measure('limit_value'), text);
  assert.equal(model.cubes[1].name, 'stores');
  assert.equal(model.cubes[1].measures.find((m: { name: string }) => m.name === 'floor_area').sql, '{CUBE}."Floor Area"');
  // Codes carry the cube's name when there are several tables.
  const codes: string[] = model.insights.map((i: { code: string }) => i.code);
  assert.ok(
    codes.every((c) => c.startsWith('purchases_')),
    codes.join(' '),
  );
  const kinds = new Set(model.insights.map((i: { kind: string }) => i.kind));
  assert.deepEqual([...kinds].sort(), ['breakdown', 'kpi', 'timeseries', 'top']);
  // Low-cardinality text is broken down and filtered on; ids and many-valued text are top lists.
  assert.ok(codes.includes('purchases_net_amount_by_region') && codes.includes('purchases_net_amount_by_product_line'));
  assert.ok(codes.includes('purchases_top_customer_id_by_net_amount'));
  assert.deepEqual(model.insights.find((i: { code: string }) => i.code === 'purchases_net_amount').filters, [
    'purchases.product_line',
    'purchases.region',
  ]);

  const check = await runCli(['model', 'check', '--model', out], env());
  assert.equal(check.code, 0, check.stderr);
  assert.doesNotMatch(check.stderr, /warning/);

  const wh = await DuckDbWarehouse.open(path.join(dir, 'warehouse.duckdb'));
  const t = await buildTestApp({
    clock: new ManualClock(new Date('2025-01-15T12:00:00Z')),
    env: { INSIGHTS_MODEL: out },
    deps: { warehouse: wh },
  });
  try {
    const auth = await t.login({ tenant: 'acme', user: 'o', role: 'owner' });
    for (const code of codes) {
      const res = await call(t, auth, 'GET', `/api/v1/insights/${code}/execute?date_from=2024-01-01&date_to=2024-12-31`);
      assert.equal(res.statusCode, 200, `${code}: ${res.body}`);
    }
    const total = await call(
      t,
      auth,
      'GET',
      '/api/v1/insights/purchases_net_amount_kpi/execute?date_from=2024-01-01&date_to=2024-12-31&region=South',
    );
    const south = purchasesCsv
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(','))
      .filter((c) => c[4] === 'South');
    assert.equal(total.data.data.rows[0].value, Math.round(south.reduce((s, c) => s + Number(c[5]), 0) * 100) / 100);
  } finally {
    await t.close();
    await wh.close();
  }
});

test('without --out the model goes to stdout, progress and notes to stderr', async () => {
  const r = await runCli(['model', 'init', '--table', 'stores'], env());
  assert.equal(r.code, 0, r.stderr);
  assert.equal(parse(r.stdout).cubes[0].sql_table, 'stores');
  assert.match(r.stderr, /Reading stores/);
});
