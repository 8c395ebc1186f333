// `insights data load` through real processes on a data dir of its own: every file format, the
// two modes over two tenants, refused columns, and the data-dir lock of a running server.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import { EMBEDDED_ONLY, migratedDataDir, runCli, seedTinyWarehouse, startServer, tempDataDir } from '../../helpers/process.ts';

let dir: string;
let files: string;

before(() => {
  dir = tempDataDir('insights-data-cli-');
  files = tempDataDir('insights-data-files-');
});
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(files, { recursive: true, force: true });
});

const load = (args: string[], dataDir = dir) => runCli(['data', 'load', ...args], { INSIGHTS_DATA_DIR: dataDir });

function write(name: string, content: string | Buffer): string {
  const file = path.join(files, name);
  fs.writeFileSync(file, content);
  return file;
}

/** Reads the warehouse file once the command has exited (it is free again then). */
async function query(sql: string, dataDir = dir): Promise<Record<string, unknown>[]> {
  const wh = await DuckDbWarehouse.open(path.join(dataDir, 'warehouse.duckdb'));
  try {
    return await wh.query(sql);
  } finally {
    await wh.close();
  }
}

const CSV = 'day,plan,mrr\n2026-01-01,basic,10.5\n2026-01-02,pro,99\n2026-02-01,basic,10.5\n';

test('a CSV creates the table with the file’s columns, detected types and tenant_id; the summary gives rows, size and time', {
  skip: EMBEDDED_ONLY,
}, async () => {
  const res = await load(['--table', 'subscriptions', '--file', write('subs.csv', CSV), '--tenant', 'demo']);
  assert.equal(res.code, 0, res.stderr);
  assert.match(
    res.stdout,
    /^Loaded 3 rows \(\d+ B\) into subscriptions for tenant demo \(append, table created\) in the duckdb warehouse in \d+\.\d s\.$/m,
  );
  assert.match(res.stderr, /Reading .*subs\.csv/, 'a line per step when not on a terminal');
  const cols = await query(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'subscriptions' ORDER BY ordinal_position`,
  );
  assert.deepEqual(
    cols.map((c) => `${c.column_name} ${c.data_type}`),
    ['day DATE', 'plan VARCHAR', 'mrr DOUBLE', 'tenant_id VARCHAR'],
  );
  assert.deepEqual(await query(`SELECT tenant_id, count(*) AS n, sum(mrr) AS mrr FROM subscriptions GROUP BY 1`), [
    { tenant_id: 'demo', n: 3, mrr: 120 },
  ]);
});

test('append and replace over two tenants: replace removes only its own tenant’s rows', { skip: EMBEDDED_ONLY }, async () => {
  assert.equal((await load(['--table', 'subscriptions', '--file', write('acme.csv', CSV), '--tenant', 'acme'])).code, 0);
  const more = await load([
    '--table',
    'subscriptions',
    '--file',
    write('more.csv', 'plan,day,mrr\npro,2026-03-01,50\n'),
    '--tenant',
    'demo',
    '--mode',
    'append',
  ]);
  assert.equal(more.code, 0, more.stderr);
  const replaced = await load([
    '--table',
    'subscriptions',
    '--file',
    write('new.csv', 'day,plan,mrr\n2026-04-01,pro,1\n'),
    '--tenant',
    'demo',
    '--mode',
    'replace',
  ]);
  assert.equal(replaced.code, 0, replaced.stderr);
  assert.match(replaced.stdout, /Loaded 1 rows .* \(replace\)/);
  assert.deepEqual(await query(`SELECT tenant_id, count(*) AS n, sum(mrr) AS mrr FROM subscriptions GROUP BY 1 ORDER BY 1`), [
    { tenant_id: 'acme', n: 3, mrr: 120 },
    { tenant_id: 'demo', n: 1, mrr: 1 },
  ]);
});

test('TSV, gzip, NDJSON and Parquet files load with their own readers', { skip: EMBEDDED_ONLY }, async () => {
  const tsv = await load([
    '--table',
    'visits',
    '--file',
    write('v.tsv', 'day\tpage\tn\n2026-01-01\t/home\t3\n2026-01-02\t/buy\t1\n'),
    '--tenant',
    'demo',
  ]);
  assert.equal(tsv.code, 0, tsv.stderr);
  const gz = await load([
    '--table',
    'visits',
    '--file',
    write('v.csv.gz', zlib.gzipSync('page,day,n\n/home,2026-01-03,5\n')),
    '--tenant',
    'demo',
  ]);
  assert.equal(gz.code, 0, gz.stderr);
  const nd = await load([
    '--table',
    'visits',
    '--file',
    write('v.ndjson', '{"day":"2026-01-04","page":"/x","n":2}\n{"day":"2026-01-05","page":"/y","n":4}\n'),
    '--tenant',
    'acme',
  ]);
  assert.equal(nd.code, 0, nd.stderr);
  const ndgz = await load([
    '--table',
    'visits',
    '--file',
    write('v.jsonl.gz', zlib.gzipSync('{"day":"2026-01-06","page":"/z","n":1}\n')),
    '--tenant',
    'acme',
  ]);
  assert.equal(ndgz.code, 0, ndgz.stderr);

  // A Parquet file written by DuckDB itself, with its own column types.
  const parquet = path.join(files, 'v.parquet');
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  await conn.run(
    `COPY (SELECT DATE '2026-02-01' + i::INTEGER AS day, '/p' || i AS page, i::INTEGER AS n FROM range(1000) t(i)) TO '${parquet}' (FORMAT parquet)`,
  );
  conn.closeSync();
  instance.closeSync();
  const pq = await load(['--table', 'visits', '--file', parquet, '--tenant', 'demo']);
  assert.equal(pq.code, 0, pq.stderr);
  assert.match(pq.stdout, /Loaded 1,000 rows/);
  assert.deepEqual(await query(`SELECT tenant_id, count(*) AS n, sum(n) AS total FROM visits GROUP BY 1 ORDER BY 1`), [
    { tenant_id: 'acme', n: 3, total: 7 },
    { tenant_id: 'demo', n: 1003, total: 9 + 499500 },
  ]);
  // A Parquet file of the wrong column type is refused by name.
  const wrong = path.join(files, 'wrong.parquet');
  const i2 = await DuckDBInstance.create(':memory:');
  const c2 = await i2.connect();
  await c2.run(`COPY (SELECT 'soon' AS day, '/p' AS page, 1 AS n) TO '${wrong}' (FORMAT parquet)`);
  c2.closeSync();
  i2.closeSync();
  const refused = await load(['--table', 'visits', '--file', wrong, '--tenant', 'demo']);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /Column day is VARCHAR in the file but DATE in table visits/);
});

test('a file whose columns differ from the table is refused naming the column, and nothing is loaded', {
  skip: EMBEDDED_ONLY,
}, async () => {
  const before = await query(`SELECT count(*) AS n FROM subscriptions`);
  const missing = await load(['--table', 'subscriptions', '--file', write('m.csv', 'day,mrr\n2026-05-01,3\n'), '--tenant', 'demo']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /missing column plan/);
  assert.doesNotMatch(missing.stderr, /\n\s+at /, 'no stack trace');
  const extra = await load([
    '--table',
    'subscriptions',
    '--file',
    write('e.csv', 'day,plan,mrr,seats\n2026-05-01,pro,3,2\n'),
    '--tenant',
    'demo',
  ]);
  assert.match(extra.stderr, /extra column seats/);
  const typed = await load([
    '--table',
    'subscriptions',
    '--file',
    write('t.csv', 'day,plan,mrr\n2026-05-01,pro,3\n2026-05-02,pro,a lot\n'),
    '--tenant',
    'demo',
    '--mode',
    'replace',
  ]);
  assert.equal(typed.code, 1);
  assert.match(typed.stderr, /Line 3, column mrr: "a lot" is not a valid DOUBLE/);
  assert.deepEqual(await query(`SELECT count(*) AS n FROM subscriptions`), before);
});

test('bad arguments are usage errors', { skip: EMBEDDED_ONLY }, async () => {
  const reserved = await load(['--table', 'warehouse_meta', '--file', write('r.csv', CSV), '--tenant', 'demo']);
  assert.equal(reserved.code, 2);
  assert.match(reserved.stderr, /--table "warehouse_meta" is reserved/);
  assert.equal((await load(['--table', 'x', '--file', write('r.csv', CSV), '--tenant', 'demo', '--mode', 'merge'])).code, 2);
  const xlsx = await load(['--table', 'x', '--file', write('r.xlsx', 'x'), '--tenant', 'demo']);
  assert.equal(xlsx.code, 2);
  assert.match(xlsx.stderr, /Cannot tell the format/);
  assert.match((await load(['--table', 'x', '--file', path.join(files, 'nope.csv'), '--tenant', 'demo'])).stderr, /does not exist/);
});

test('while the server runs, the embedded warehouse is refused with a clear message; once stopped, the load works', {
  skip: EMBEDDED_ONLY,
}, async () => {
  const served = await migratedDataDir('insights-data-served-');
  await seedTinyWarehouse(served);
  const server = await startServer(served);
  try {
    const res = await load(['--table', 'subscriptions', '--file', write('s.csv', CSV), '--tenant', 'demo'], served);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /in use by another process \(pid \d+\)\. Stop the running server first/);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  const res = await load(['--table', 'subscriptions', '--file', write('s.csv', CSV), '--tenant', 'demo'], served);
  assert.equal(res.code, 0, res.stderr);
  fs.rmSync(served, { recursive: true, force: true });
});
