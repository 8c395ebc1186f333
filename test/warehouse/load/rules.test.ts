// The small rules of a load that the API and CLI tests reach only through whole loads: which
// column a table's tenant goes into, and on which line of a file a row starts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, test } from 'node:test';
import { modelFromText } from '../../../src/semantic/model.ts';
import { modelColumns, tenantColumns } from '../../../src/semantic/tenancy.ts';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import { groupTables } from '../../../src/warehouse/load/tables.ts';
import { lineOfRecord } from '../../../src/warehouse/load/ranges.ts';
import { explainReadError } from '../../../src/warehouse/load/reader.ts';
import { LoadError, planLoad, type DataFile } from '../../../src/warehouse/load/rules.ts';
import { loadTenantData } from '../../../src/warehouse/tenant-load.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-load-rules-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('the tenant column of a table is the tenant_column of the cube reading it, else tenant_id', () => {
  const model = modelFromText(`
cubes:
  - name: sales
    sql_table: main.sales
    tenant_column: store
    measures: [{ name: n, type: count }]
  - name: accounts
    sql_table: accounts
    tenant_column: Org
    measures: [{ name: n, type: count }]
  - name: big_sales
    sql: "SELECT store, amount FROM {sales} WHERE amount > 10"
    tenant_column: store
    measures: [{ name: n, type: count }]
`);
  const of = tenantColumns(model);
  assert.equal(of('sales'), 'store', 'a schema-qualified sql_table is the table of that name');
  assert.equal(of('accounts'), 'Org');
  assert.equal(of('notes'), 'tenant_id', 'no cube reads it');
  assert.equal(of('big_sales'), 'tenant_id', 'a derived cube reads cubes, not a table');
});

test('tables are listed with their own tenant column, matched without regard to case; others are not tenant tables', () => {
  const rows = [
    { table: 'sales', column: 'amount', type: 'DOUBLE' },
    { table: 'sales', column: 'STORE', type: 'VARCHAR' },
    { table: 'legacy', column: 'tenant_id', type: 'VARCHAR' },
    { table: 'warehouse_meta', column: 'tenant_id', type: 'VARCHAR' },
  ];
  const found = groupTables(rows, (t) => (t === 'sales' || t === 'legacy' ? 'store' : 'tenant_id'));
  assert.deepEqual(found.tables, [{ name: 'sales', columns: [{ name: 'amount', type: 'DOUBLE' }], tenantColumn: 'STORE' }]);
  assert.deepEqual([...found.all].sort(), ['legacy', 'sales', 'warehouse_meta']);
});

test('a file column named like the tenant column, in any case, or holding NUL, is refused naming it', () => {
  const file = { path: 'x.csv', format: 'csv' as const };
  for (const name of ['store', 'Store', 'STORE']) {
    assert.throws(
      () => planLoad(file, [{ name, type: 'VARCHAR' }], undefined, 'store'),
      (e: LoadError) => e.kind === 'columns' && e.where.column === name,
    );
  }
  assert.doesNotThrow(
    () => planLoad(file, [{ name: 'tenant_id', type: 'VARCHAR' }], undefined, 'store'),
    'tenant_id is an ordinary column where the tenant column is store',
  );
  assert.throws(
    () => planLoad(file, [{ name: 'a\u0000b', type: 'VARCHAR' }], undefined),
    (e: LoadError) => e.kind === 'columns' && /NUL/.test(e.message),
  );
  // PostgreSQL would cut it to 63 bytes silently, and the next load of the same file would not match.
  const long = 'Total revenue including taxes, shipping and handling, in euros (EUR)';
  assert.throws(
    () => planLoad(file, [{ name: long, type: 'DOUBLE' }], undefined),
    (e: LoadError) => e.kind === 'columns' && e.where.column === long && /longer than 63 bytes/.test(e.message),
  );
  assert.doesNotThrow(() => planLoad(file, [{ name: 'x'.repeat(63), type: 'DOUBLE' }], undefined));
});

test('the line a row starts on: quoted line breaks stay in their row, CRLF, blank lines, gzip; NDJSON counts non-blank lines', async () => {
  const write = (name: string, content: string | Buffer) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, content);
    return p;
  };
  const csv = write('a.csv', 'a,b\r\n1,"two\r\nlines"\r\n\r\n2,x\r\n3,"say ""hi"""\n4,y');
  assert.deepEqual(await Promise.all([1, 2, 3, 4, 5].map((n) => lineOfRecord({ path: csv, format: 'csv' }, n))), [2, 5, 6, 7, undefined]);
  const gz = write('a.csv.gz', zlib.gzipSync('a\nx\ny\n'));
  assert.equal(await lineOfRecord({ path: gz, format: 'csv' }, 2), 3);
  const nd = write('a.ndjson', '{"a":1}\n\n  \n{"a":"x\\ny"}\n{"a":3}\n');
  assert.deepEqual(await Promise.all([1, 2, 3].map((n) => lineOfRecord({ path: nd, format: 'ndjson' }, n))), [1, 4, 5]);
  assert.equal(await lineOfRecord({ path: nd, format: 'json' }, 1), undefined, 'a JSON array has no line per row');
});

test("a refusal never names the server's temp path of the file", async () => {
  const file = { path: '/var/tmp/x/insights-tmp-42-abc/insights-upload-1f2e.csv', format: 'csv' as const };
  for (const message of [
    `IO Error: Could not read file "${file.path}": Input/output error`,
    `Invalid Input Error: cannot read the header of "/tmp/insights-tmp-7-q/insights-load-9.parquet" (another staging file)`,
  ]) {
    const err = await explainReadError(undefined as never, file, new Error(message));
    assert.ok(err instanceof LoadError);
    // Before: "Could not read file "/var/tmp/x/insights-tmp-42-abc/insights-upload-1f2e.csv"…" went into the 400's detail.
    assert.doesNotMatch(err.message, /tmp|insights-(upload|load)/, err.message);
    assert.match(err.message, /the file/);
  }
});

test("the model decides the columns an API load creates: a dimension's type, numbers in sums, text elsewhere, join keys alike", () => {
  const model = modelFromText(`
cubes:
  - name: sales
    sql_table: sales
    tenant_column: shop
    joins:
      - { name: items, relationship: many_to_one, sql: "{CUBE}.item_no = {items}.item_no" }
    measures:
      - { name: revenue, type: sum, sql: "{CUBE}.price * {CUBE}.qty", filters: [{ sql: "{CUBE}.status = 'paid'" }] }
      - { name: buyers, type: count_distinct, sql: "{CUBE}.buyer" }
    dimensions:
      - { name: sold_at, type: time, sql: sold_at }
      - { name: region, type: string, sql: '{CUBE}."Region"' }
      - { name: big, type: boolean, sql: "{CUBE}.price > 100" }
  - name: items
    sql_table: items
    tenant_column: shop
    dimensions:
      - { name: item_no, type: number, sql: item_no }
`);
  const of = modelColumns(model);
  assert.deepEqual(Object.fromEntries(of('sales')!.map((c) => [c.name, c.type])), {
    sold_at: 'TIMESTAMP',
    Region: 'VARCHAR',
    price: 'DOUBLE',
    qty: 'DOUBLE',
    status: 'VARCHAR',
    buyer: 'VARCHAR',
    item_no: 'DOUBLE',
  });
  assert.deepEqual(of('items'), [{ name: 'item_no', type: 'DOUBLE', folded: false }]);
  assert.equal(of('other'), undefined);
  // A load plans the model's columns, whatever the file's detected types; its other columns are not stored.
  const plan = planLoad(
    { path: 'x.csv', format: 'csv' },
    [
      { name: 'ITEM_NO', type: 'VARCHAR' },
      { name: 'ssn', type: 'VARCHAR' },
    ],
    undefined,
    'shop',
    of('items'),
  );
  assert.deepEqual(plan.columns, [{ name: 'item_no', type: 'DOUBLE' }]);
  assert.deepEqual(plan.readTypes, [{ name: 'ITEM_NO', type: 'DOUBLE' }]);
  assert.equal(plan.create, true);
});

test('first loads of one new table by several tenants at once all load, however they interleave (DuckDB)', async () => {
  // Before: the loser of the race to create the table answered 500 ("already exists" once the
  // winner had committed, or a catalog write-write conflict three times while it had not).
  const columns = [{ name: 'x', type: 'DOUBLE', folded: true }];
  for (let round = 0; round < 15; round++) {
    const file = path.join(dir, `race-${round}.duckdb`);
    const warehouse = await DuckDbWarehouse.open(file);
    try {
      const tenants = ['a', 'b', 'c'];
      const results = await Promise.allSettled(
        tenants.map((tenant, i) => {
          const csv = path.join(dir, `race-${round}-${tenant}.csv`);
          fs.writeFileSync(csv, `x\n${Array.from({ length: i + 1 }, (_, n) => n).join('\n')}\n`);
          return warehouse.load({
            table: 'fresh',
            file: { path: csv, format: 'csv' },
            tenantId: tenant,
            mode: 'append',
            modelColumns: columns,
          });
        }),
      );
      for (const r of results) assert.equal(r.status, 'fulfilled', `round ${round}: ${r.status === 'rejected' ? r.reason : ''}`);
      const rows = await warehouse.query('SELECT tenant_id, count(*)::INTEGER AS n FROM fresh GROUP BY 1 ORDER BY 1');
      assert.deepEqual(rows, [
        { tenant_id: 'a', n: 1 },
        { tenant_id: 'b', n: 2 },
        { tenant_id: 'c', n: 3 },
      ]);
    } finally {
      await warehouse.close();
    }
  }
});

test("a load reads its file once: time ranges only for the columns a rollup asks for, the range check in the load's own pass", async () => {
  const { RollupStore } = await import('../../../src/warehouse/rollups/rollups.ts');
  const { demoModel } = await import('../../../src/semantic/model.ts');
  const wh = await DuckDbWarehouse.open(':memory:');
  try {
    // Only an append into a rollup's fact table with partitions rebuilds just what it touched.
    const store = new RollupStore(wh, demoModel().rollups);
    assert.deepEqual(store.timeRangesOf('orders', 'append'), ['ordered_at']);
    assert.deepEqual(store.timeRangesOf('orders', 'replace'), []);
    assert.deepEqual(store.timeRangesOf('web_sessions', 'append'), []);

    const csv = path.join(dir, 'times.csv');
    fs.writeFileSync(csv, 'day,at,n\n2024-03-05,2024-03-05 10:00:00,1\n2024-04-01,2024-01-02 08:00:00,2\n');
    const file = () => ({ path: csv, format: 'csv' as const });
    const base = { table: 'times', tenantId: 't1', mode: 'append' as const };
    const plain = await wh.load({ ...base, file: file() });
    assert.deepEqual(plain.timeRanges, {}, 'no rollup asked: no range read');
    const asked = await wh.load({ ...base, file: file(), timeRangesOf: ['at', 'missing'] });
    assert.deepEqual(asked.timeRanges, { at: { min: '2024-01-02 08:00:00', max: '2024-03-05 10:00:00' } });

    // The range is checked in the INSERT itself: a value outside stops it, naming its line; nothing is kept.
    fs.writeFileSync(csv, 'day,at,n\n2024-03-05,2024-03-05 10:00:00,1\n2024-03-06,9999-12-31 23:00:00,2\n');
    await assert.rejects(
      wh.load({ ...base, file: file() }),
      (err: LoadError) =>
        err instanceof LoadError &&
        err.message === 'Line 3, column at: 9999-12-31 23:00:00 is outside the supported range of times (1900-01-01 to 2200-12-31).',
    );
    assert.equal((await wh.query('SELECT count(*) AS n FROM times'))[0].n, 4);
  } finally {
    await wh.close();
  }
});

test('an API load into the table of a cube that reads none of its columns (a count) keeps the tenant column alone', async () => {
  const wh = await DuckDbWarehouse.open(':memory:');
  try {
    const ndjson = path.join(dir, 'events.ndjson');
    fs.writeFileSync(ndjson, '{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n');
    const loaded = await wh.load({
      table: 'counted',
      tenantId: 't1',
      mode: 'append',
      modelColumns: [],
      file: { path: ndjson, format: 'ndjson' },
    });
    assert.equal(loaded.rowsLoaded, 2);
    assert.deepEqual(await wh.query('SELECT tenant_id, count(*) AS n FROM counted GROUP BY 1'), [{ tenant_id: 't1', n: 2 }]);
  } finally {
    await wh.close();
  }
});

test("a CSV's text dates are parsed by the reader with their column's format, as strictly as in SQL; a field of spaces alone is still NULL", async () => {
  const wh = await DuckDbWarehouse.open(':memory:');
  try {
    const csv = path.join(dir, 'reader-dates.csv');
    const file = (): DataFile => ({ path: csv, format: 'csv' });
    const load = (table: string) => loadTenantData(wh, undefined, { table, tenantId: 't1', mode: 'append', file: file() });
    // Past the 20,480 rows dates are detected on: a field of spaces, and an ISO time in another form.
    const rows = Array.from({ length: 21_000 }, (_, i) => `${i},2024-03-05 14:30:00,5.3.2024`);
    rows[20_600] = '20600,   ,6.3.2024';
    fs.writeFileSync(csv, `n,at,day\n${rows.join('\n')}\n`);
    const loaded = await load('spaced');
    assert.equal(loaded.result.rowsLoaded, 21_000);
    assert.deepEqual(
      await wh.query(`SELECT count(*) FILTER (WHERE "at" IS NULL) AS blank, CAST(max("day") AS VARCHAR) AS last FROM spaced`),
      [{ blank: 1, last: '2024-03-06' }],
    );
    rows[20_600] = '20600,2024-03-05T14:30:00,6.3.2024';
    fs.writeFileSync(csv, `n,at,day\n${rows.join('\n')}\n`);
    await assert.rejects(
      load('other_form'),
      (err: LoadError) =>
        err instanceof LoadError &&
        err.message ===
          'Line 20602, column at: "2024-03-05T14:30:00" is not a valid TIMESTAMP (its dates read as YYYY-M-D HH:mm:ss; name the format with --date-format or date_format).',
    );
  } finally {
    await wh.close();
  }
});
