// The small rules of a load that the API and CLI tests reach only through whole loads: which
// column a table's tenant goes into, and on which line of a file a row starts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, test } from 'node:test';
import { modelFromText } from '../../src/semantic/model.ts';
import { tenantColumns } from '../../src/semantic/tenancy.ts';
import { groupTables } from '../../src/warehouse/load-duckdb.ts';
import { lineOfRecord } from '../../src/warehouse/load-ranges.ts';
import { type LoadError, planLoad } from '../../src/warehouse/load.ts';

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
