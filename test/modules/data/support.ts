// The data API's tests, run once per warehouse engine (api-duckdb.test.ts, api-postgres.test.ts):
// uploads over HTTP through the real app, checked through GET /api/v1/data/tables and the warehouse.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import type { Warehouse } from '../../../src/warehouse/warehouse.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

export const clock = new ManualClock(new Date('2026-11-21T15:00:00Z'));

/** The tables these tests upload into, beside the demo model's. */
export const UPLOAD_TABLES = ['sales', 'events', 'fresh', 'numbers', 'bomb', 'notes', 'ledger'];

/** The columns the test model reads from each upload table, with their dimension types. */
const UPLOAD_COLUMNS: Record<string, Record<string, string>> = {
  sales: { day: 'time', store: 'string', amount: 'number', paid: 'boolean' },
  events: { at: 'time', kind: 'string', n: 'number' },
  fresh: { x: 'number' },
  numbers: { n: 'number', label: 'string' },
  bomb: { n: 'number' },
  notes: { id: 'number', text: 'string' },
  ledger: { booked_at: 'time', region: 'string' },
};

/**
 * A model directory: the demo model plus a cube per upload table. Over the API a tenant loads
 * only into tables the model reads (docs/data.md), so the tests' tables are in the model.
 */
export function uploadModel(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-data-model-'));
  fs.copyFileSync(new URL('../../../models/demo.yml', import.meta.url), path.join(dir, 'demo.yml'));
  // The model decides each table's columns and types (docs/data.md "The schema belongs to the model").
  const cube = (t: string) =>
    `  - name: ${t}\n    sql_table: ${t}\n    tenant_column: tenant_id\n    measures:\n      - { name: rows, type: count }\n` +
    (t === 'ledger' ? `      - { name: total, type: sum, sql: amount }\n` : '') +
    `    dimensions:\n${Object.entries(UPLOAD_COLUMNS[t])
      .map(([name, type]) => `      - { name: ${name}_, sql: "{CUBE}.${name}", type: ${type} }\n`)
      .join('')}`;
  // ledger: a sum over amount and an insight by region, to see figures computed from two tenants' loads.
  const ledger = `insights:\n  - { code: ledger_by_region, kind: breakdown, measures: [ledger.total], dimension: ledger.region_, time_dimension: ledger.booked_at_ }\n`;
  fs.writeFileSync(path.join(dir, 'uploads.yml'), `cubes:\n${UPLOAD_TABLES.map(cube).join('')}${ledger}`);
  return dir;
}

export interface Upload {
  table: string;
  body: string | Buffer | Readable;
  type?: string;
  mode?: string;
  headers?: Record<string, string>;
}

export async function upload(t: TestApp, auth: string | undefined, u: Upload) {
  const headers: Record<string, string> = { 'content-type': u.type ?? 'text/csv', ...u.headers };
  if (auth) headers.authorization = auth;
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/data/${u.table}${u.mode ? `?mode=${u.mode}` : ''}`,
    headers,
    payload: u.body,
  });
  return Object.assign(res, { data: res.body ? JSON.parse(res.body) : undefined });
}

export async function tables(t: TestApp, auth: string): Promise<Record<string, any>> {
  const res = await call(t, auth, 'GET', '/api/v1/data/tables');
  assert.equal(res.statusCode, 200, res.body);
  return Object.fromEntries(res.data.tables.map((x: { name: string }) => [x.name, x]));
}

// Uploads are written into the process's own temp dir under TMPDIR (src/lib/temp-dir.ts).
const uploadsLeft = () =>
  (fs.readdirSync(os.tmpdir(), { recursive: true }) as string[]).filter((f) => path.basename(f).startsWith('insights-upload-')).length;

const SALES = 'day,store,amount,paid\n2026-01-05,north,12.5,true\n2026-01-07,south,30,false\n2026-02-01,north,7.25,true\n';

export function dataApiTests(makeWarehouse: (now: Date) => Promise<Warehouse>, env: Record<string, string> = {}): void {
  let t: TestApp;
  let warehouse: Warehouse;
  let demoOwner: string;
  let demoAdmin: string;
  let demoMember: string;
  let acmeOwner: string;
  let tmpDir: string | undefined;

  before(async () => {
    warehouse = await makeWarehouse(clock.now());
    t = await buildTestApp({ clock, env: { INSIGHTS_MODEL: uploadModel(), ...env }, deps: { warehouse } });
    demoOwner = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
    demoAdmin = await t.login({ tenant: 'demo', user: 'a', role: 'admin' });
    demoMember = await t.login({ tenant: 'demo', user: 'm', role: 'member' });
    acmeOwner = await t.login({ tenant: 'acme', user: 'o', role: 'owner' });
    // Uploads are counted in a temp dir of this file's own: other test files (and other runs of
    // the suite) upload at the same time into the shared one.
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-data-test-'));
    process.env.TMPDIR = tmpDir;
  });
  after(async () => {
    await t?.close();
    await warehouse?.close();
    if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  });

  test("a CSV upload creates the table with the model's columns and types and the tenant column; tables lists counts and time ranges", async () => {
    const before = uploadsLeft();
    const res = await upload(t, demoOwner, { table: 'sales', body: SALES });
    assert.equal(res.statusCode, 200, res.body);
    // day is a time dimension of the model: a TIMESTAMP, though this file holds dates only.
    const columns = [
      { name: 'day', type: 'TIMESTAMP' },
      { name: 'store', type: 'VARCHAR' },
      { name: 'amount', type: 'DOUBLE' },
      { name: 'paid', type: 'BOOLEAN' },
    ];
    assert.deepEqual(res.data, { table: 'sales', mode: 'append', rows_loaded: 3, columns });
    const listed = (await tables(t, demoMember)).sales;
    assert.equal(listed.row_count, 3);
    assert.deepEqual(listed.columns, [
      { name: 'day', type: 'TIMESTAMP' },
      { name: 'store', type: 'VARCHAR' },
      { name: 'amount', type: 'DOUBLE' },
      { name: 'paid', type: 'BOOLEAN' },
    ]);
    assert.deepEqual(listed.time_ranges, [{ column: 'day', min: '2026-01-05 00:00:00', max: '2026-02-01 00:00:00' }]);
    const rows = await warehouse.query(`SELECT store, amount, tenant_id FROM sales ORDER BY day`);
    assert.deepEqual(
      rows.map((r) => [r.store, Number(r.amount), r.tenant_id]),
      [
        ['north', 12.5, 'demo'],
        ['south', 30, 'demo'],
        ['north', 7.25, 'demo'],
      ],
    );
    // Another tenant sees the table, with none of demo's rows.
    assert.deepEqual((await tables(t, acmeOwner)).sales.time_ranges, [{ column: 'day', min: null, max: null }]);
    assert.equal((await tables(t, acmeOwner)).sales.row_count, 0);
    assert.equal(uploadsLeft(), before, 'the temp file is removed');
  });

  test('append and replace are per tenant: replace never touches another tenant’s rows', async () => {
    assert.equal((await upload(t, acmeOwner, { table: 'sales', body: SALES })).statusCode, 200);
    const more = 'store,amount,day,paid\neast,1,2026-03-01,true\n'; // columns in another order
    assert.equal((await upload(t, demoAdmin, { table: 'sales', body: more, mode: 'append' })).data.rows_loaded, 1);
    assert.equal((await tables(t, demoOwner)).sales.row_count, 4);
    const res = await upload(t, demoOwner, { table: 'sales', body: 'day,store,amount,paid\n2026-04-01,west,99,true\n', mode: 'replace' });
    // The response names the table's types (amount stays DOUBLE though this file holds an integer).
    assert.deepEqual(res.data, {
      table: 'sales',
      mode: 'replace',
      rows_loaded: 1,
      columns: [
        { name: 'day', type: 'TIMESTAMP' },
        { name: 'store', type: 'VARCHAR' },
        { name: 'amount', type: 'DOUBLE' },
        { name: 'paid', type: 'BOOLEAN' },
      ],
    });
    assert.equal((await tables(t, demoOwner)).sales.row_count, 1);
    assert.deepEqual((await tables(t, demoOwner)).sales.time_ranges, [
      { column: 'day', min: '2026-04-01 00:00:00', max: '2026-04-01 00:00:00' },
    ]);
    assert.equal((await tables(t, acmeOwner)).sales.row_count, 3, 'acme keeps its rows');
  });

  test('NDJSON uploads, gzip-encoded bodies and TSV', async () => {
    const ndjson = '{"at":"2026-05-01 10:00:00","kind":"visit","n":1}\n{"at":"2026-05-02 11:30:00","kind":"buy","n":2.5}\n';
    const res = await upload(t, demoOwner, { table: 'events', body: ndjson, type: 'application/x-ndjson' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.rows_loaded, 2);
    const events = (await tables(t, demoOwner)).events;
    assert.deepEqual(events.columns, [
      { name: 'at', type: 'TIMESTAMP' },
      { name: 'kind', type: 'VARCHAR' },
      { name: 'n', type: 'DOUBLE' },
    ]);
    assert.deepEqual(events.time_ranges, [{ column: 'at', min: '2026-05-01 10:00:00', max: '2026-05-02 11:30:00' }]);
    const gz = await upload(t, demoOwner, {
      table: 'events',
      body: zlib.gzipSync('{"kind":"visit","n":3,"at":"2026-05-03 09:00:00"}\n'),
      type: 'application/x-ndjson',
      headers: { 'content-encoding': 'gzip' },
    });
    assert.equal(gz.statusCode, 200, gz.body);
    assert.equal((await tables(t, demoOwner)).events.row_count, 3);
    const tsv = await upload(t, acmeOwner, {
      table: 'events',
      body: 'at\tkind\tn\n2026-05-04 08:00:00\tvisit\t4\n',
      type: 'text/tab-separated-values',
    });
    assert.equal(tsv.statusCode, 200, tsv.body);
    assert.equal((await tables(t, acmeOwner)).events.row_count, 1);
  });

  test('a bad row is a 400 naming its line and column, and nothing of the upload is kept', async () => {
    const before = (await tables(t, demoOwner)).sales.row_count;
    const bad = 'day,store,amount,paid\n2026-06-01,north,5,true\n2026-06-02,south,lots,true\n2026-06-03,east,6,false\n';
    const res = await upload(t, demoOwner, { table: 'sales', body: bad, mode: 'replace' });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(res.data.code, 'DATA_ROW_INVALID');
    assert.match(res.data.detail, /^Line 3, column amount: "lots" is not a valid DOUBLE\./);
    assert.deepEqual(
      res.data.errors.map((e: { path: string }) => e.path),
      ['/body/3/amount'],
    );
    assert.equal((await tables(t, demoOwner)).sales.row_count, before, 'the replace was rolled back');

    const ragged = await upload(t, demoOwner, {
      table: 'sales',
      body: 'day,store,amount,paid\n2026-06-01,north,5,true\n2026-06-02,south,5,true,extra\n',
    });
    assert.equal(ragged.statusCode, 400, ragged.body);
    assert.match(ragged.data.detail, /^Line 3: expected 4 fields, found 5\./);

    const json = await upload(t, demoOwner, {
      table: 'events',
      type: 'application/x-ndjson',
      body: '{"at":"2026-05-01 10:00:00","kind":"visit","n":1}\n{"at":"2026-05-01 10:00:00","kind":"visit","n":"many"}\n',
    });
    assert.equal(json.statusCode, 400, json.body);
    assert.equal(json.data.code, 'DATA_ROW_INVALID');
    assert.match(json.data.detail, /^Line 2, column n: "many" is not a valid DOUBLE\./);
    const broken = await upload(t, demoOwner, {
      table: 'events',
      type: 'application/x-ndjson',
      body: '{"at":"2026-05-01 10:00:00","kind":"visit","n":1}\n{"at": soon}\n{"at":"2026-05-01 10:00:00","kind":"visit","n":1}\n',
    });
    assert.equal(broken.statusCode, 400, broken.body);
    assert.match(broken.data.detail, /^Line 2: not valid JSON/);
    assert.equal((await tables(t, demoOwner)).events.row_count, 3);
  });

  test('a missing or mistyped column is refused, naming it; a column the model does not read is not stored', async () => {
    const missing = await upload(t, demoOwner, { table: 'sales', body: 'day,store,paid\n2026-06-01,north,true\n' });
    assert.equal(missing.statusCode, 400, missing.body);
    assert.equal(missing.data.code, 'DATA_COLUMNS_MISMATCH');
    assert.match(missing.data.detail, /no column amount, which the model reads/);
    assert.deepEqual(
      missing.data.errors.map((e: { path: string }) => e.path),
      ['/body/amount'],
    );
    // A column the model does not read is not stored: the shared table keeps the model's columns.
    const extra = await upload(t, demoOwner, { table: 'sales', body: 'day,store,amount,paid,colour\n2026-06-01,north,1,true,red\n' });
    assert.equal(extra.statusCode, 200, extra.body);
    assert.deepEqual(
      extra.data.columns.map((c: { name: string }) => c.name),
      ['day', 'store', 'amount', 'paid'],
    );
    assert.equal(
      (await tables(t, acmeOwner)).sales.columns.some((c: { name: string }) => c.name === 'colour'),
      false,
    );
    const tenant = await upload(t, demoOwner, { table: 'fresh', body: 'tenant_id,x\nacme,1\n' });
    assert.equal(tenant.data.code, 'DATA_COLUMNS_MISMATCH');
    assert.match(tenant.data.detail, /tenant_id/);
    const mistyped = await upload(t, demoOwner, { table: 'sales', body: 'day,store,amount,paid\nsoon,north,1,true\n' });
    assert.equal(mistyped.statusCode, 400);
    assert.match(mistyped.data.detail, /^Line 2, column day: "soon" is not a valid TIMESTAMP/);
  });

  test("the model decides a new table's columns and types: a first tenant's odd file changes nothing for the next", async () => {
    // acme loads first: dates without times, whole numbers, a number where the model reads text, and
    // a column the model does not read. Before: the table took exactly these (DATE, BIGINT, BIGINT,
    // employee_ssn), demo's normal file was refused and every tenant saw employee_ssn.
    const odd = await upload(t, acmeOwner, {
      table: 'ledger',
      body: 'booked_at,amount,region,employee_ssn\n2026-01-05,7,1,123-45-6789\n',
    });
    assert.equal(odd.statusCode, 200, odd.body);
    const normal = await upload(t, demoOwner, {
      table: 'ledger',
      body: 'region,amount,booked_at\nnorth,12.5,2026-01-05 10:30:00\nsouth,7.25,2026-01-06 11:00:00\nnorth,0.5,2026-01-07 09:15:00\n',
    });
    assert.equal(normal.statusCode, 200, normal.body);
    assert.deepEqual(normal.data.columns, [
      { name: 'booked_at', type: 'TIMESTAMP' },
      { name: 'region', type: 'VARCHAR' },
      { name: 'amount', type: 'DOUBLE' },
    ]);
    const listed = (await tables(t, demoOwner)).ledger;
    assert.deepEqual(listed.columns, normal.data.columns, 'nothing of acme: no employee_ssn');
    assert.equal(listed.row_count, 3);
    assert.deepEqual(listed.time_ranges, [{ column: 'booked_at', min: '2026-01-05 10:30:00', max: '2026-01-07 09:15:00' }]);
    // Figures over both loads are each tenant's own, from the model's types.
    const byRegion = async (auth: string) => {
      const res = await call(t, auth, 'GET', '/api/v1/insights/ledger_by_region/execute?date_from=2026-01-01&date_to=2026-01-31');
      assert.equal(res.statusCode, 200, res.body);
      return res.data.data.rows;
    };
    assert.deepEqual(await byRegion(demoOwner), [
      { region_: 'north', total: 13 },
      { region_: 'south', total: 7.25 },
    ]);
    assert.deepEqual(await byRegion(acmeOwner), [{ region_: '1', total: 7 }]);
    // A value that does not fit the model's type is a bad row naming its line and column.
    const bad = await upload(t, demoOwner, {
      table: 'ledger',
      body: 'booked_at,amount,region\n2026-01-08 10:00:00,1,east\n2026-01-09,lots,west\n',
    });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.match(bad.data.detail, /^Line 3, column amount: "lots" is not a valid DOUBLE\./);
    assert.equal((await tables(t, demoOwner)).ledger.row_count, 3);
  });

  test('two tenants whose first loads of a new table run at once both load: neither gets an error for the other', async () => {
    // Before (PostgreSQL): both found no table, both ran CREATE TABLE, and the second answered 500.
    const [a, b] = await Promise.all([
      upload(t, demoOwner, { table: 'fresh', body: 'x\n1\n2\n' }),
      upload(t, acmeOwner, { table: 'fresh', body: 'x\n3\n' }),
    ]);
    assert.equal(a.statusCode, 200, a.body);
    assert.equal(b.statusCode, 200, b.body);
    assert.equal((await tables(t, demoOwner)).fresh.row_count, 2);
    assert.equal((await tables(t, acmeOwner)).fresh.row_count, 1);
  });

  test('roles, table names, media types and the body limit', async () => {
    const member = await upload(t, demoMember, { table: 'sales', body: SALES });
    assert.equal(member.statusCode, 403);
    assert.equal(member.data.code, 'FORBIDDEN');
    assert.equal((await upload(t, undefined, { table: 'sales', body: SALES })).statusCode, 401);
    for (const name of ['warehouse_meta', 'warehouse_tenant_versions', 'select', 'Bad-Name']) {
      const res = await upload(t, demoOwner, { table: name, body: SALES });
      assert.equal(res.statusCode, 400, name);
      assert.deepEqual(
        res.data.errors.map((e: { path: string }) => e.path),
        ['/params/table'],
        name,
      );
    }
    const xml = await upload(t, demoOwner, { table: 'sales', body: '<a/>', type: 'application/xml' });
    assert.equal(xml.statusCode, 415, xml.body);
    const mode = await upload(t, demoOwner, { table: 'sales', body: SALES, mode: 'merge' });
    assert.equal(mode.statusCode, 400);
    assert.deepEqual(
      mode.data.errors.map((e: { path: string }) => e.path),
      ['/query/mode'],
    );
    const empty = await upload(t, demoOwner, { table: 'sales', body: '' });
    assert.equal(empty.statusCode, 400, empty.body);
    assert.match(empty.data.detail, /empty/);
  });

  test("over the API only the model's tables: others are a 404 naming the allowed ones, and another tenant's tables are never listed", async () => {
    const res = await upload(t, demoOwner, { table: 'acquisition_target_payroll', body: 'employee_ssn,salary\n1,2\n' });
    assert.equal(res.statusCode, 404, res.body);
    assert.equal(res.data.code, 'DATA_TABLE_NOT_IN_MODEL');
    assert.match(res.data.detail, /acquisition_target_payroll/);
    assert.match(res.data.detail, /orders/);
    assert.deepEqual(
      res.data.errors.map((e: { path: string }) => e.path),
      ['/params/table'],
    );
    // A table the operator (or an older version) made outside the model stays out of every listing.
    await warehouse.exec(
      `CREATE TABLE IF NOT EXISTS operator_only (employee_ssn VARCHAR, ${warehouse.dialect === 'clickhouse' ? 'tenant_id String) ENGINE = MergeTree ORDER BY tenant_id' : 'tenant_id VARCHAR)'}`,
    );
    const listed = await tables(t, acmeOwner);
    assert.equal(listed.operator_only, undefined);
    assert.equal(listed.acquisition_target_payroll, undefined);
    assert.deepEqual(
      Object.keys(listed).sort(),
      [...new Set([...UPLOAD_TABLES, 'orders', 'order_items', 'products', 'customers', 'web_sessions'])].sort(),
    );
    assert.deepEqual(listed.bomb, { name: 'bomb', row_count: 0, columns: [], time_ranges: [] }, 'a model table not loaded yet');
  });

  test('past INSIGHTS_DATA_MAX_BYTES the upload is a 413, whether Content-Length says so or the stream runs over', async () => {
    const left = uploadsLeft();
    const big = 'day,store,amount,paid\n' + '2026-07-01,north,1,true\n'.repeat(100); // ~2.4 KB; the limit is 2000 in these tests
    const declared = await upload(t, demoOwner, { table: 'sales', body: big });
    assert.equal(declared.statusCode, 413, declared.body);
    assert.equal(declared.data.code, 'PAYLOAD_TOO_LARGE');
    const streamed = await upload(t, demoOwner, {
      table: 'sales',
      body: Readable.from([Buffer.from(big.slice(0, 1500)), Buffer.from(big.slice(1500))]),
    });
    assert.equal(streamed.statusCode, 413, streamed.body);
    assert.equal(uploadsLeft(), left, 'no partial file is left');
  });

  test('OpenAPI documents the data routes with their media types and problem responses', async () => {
    const doc = (await call(t, undefined, 'GET', '/api/v1/openapi.json')).data;
    const post = doc.paths['/api/v1/data/{table}'].post;
    assert.deepEqual(Object.keys(post.requestBody.content).sort(), [
      'application/json',
      'application/x-ndjson',
      'text/csv',
      'text/tab-separated-values',
    ]);
    for (const s of ['400', '401', '403', '413', '415']) assert.ok(post.responses[s].content['application/problem+json'], s);
    assert.ok(post.responses['200'].content['application/json'].schema.properties.rows_loaded);
    assert.deepEqual(post.parameters.find((p: { name: string }) => p.name === 'mode').schema.enum, ['append', 'replace']);
    assert.ok(doc.paths['/api/v1/data/tables'].get.responses['200']);
  });

  test("a load makes the tenant's cached results unreachable; other tenants keep theirs", async () => {
    const kpi = async (auth: string) => (await call(t, auth, 'GET', '/api/v1/insights/revenue_kpi/execute')).data.data;
    const first = await kpi(demoOwner);
    assert.equal((await kpi(demoOwner)).cached, true);
    await kpi(acmeOwner);
    assert.equal((await kpi(acmeOwner)).cached, true);

    const order =
      'order_id,customer_id,ordered_at,country,channel,status,items,revenue,discount\n' +
      `99000001,1,${first.rows[0].period_to} 12:00:00,DE,web,completed,1,1234.56,0\n`;
    const res = await upload(t, demoOwner, { table: 'orders', body: order });
    assert.equal(res.statusCode, 200, res.body);

    const after = await kpi(demoOwner);
    assert.equal(after.cached, false);
    assert.equal(Math.round((after.rows[0].value - first.rows[0].value) * 100) / 100, 1234.56);
    assert.equal((await kpi(acmeOwner)).cached, true, "acme's cached result stays");
  });
}

/**
 * A client that goes away while its load runs cancels it on the engine of `makeWarehouse`:
 * nothing is kept, no upload is left, and the tenant's next load runs at once.
 */
export function cancelledLoadTest(engine: string, makeWarehouse: (now: Date) => Promise<Warehouse>): void {
  test(`a client that goes away cancels its running load on ${engine}: nothing is kept, the tenant's turn is free`, async () => {
    const warehouse = await makeWarehouse(clock.now());
    const t = await buildTestApp({ clock, env: { INSIGHTS_MODEL: uploadModel() }, deps: { warehouse } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const owner = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
      const demoRows = async () => (await tables(t, owner)).events.row_count;
      let running: Promise<unknown> | undefined;
      let loadStarted!: () => void;
      const started = new Promise<void>((r) => (loadStarted = r));
      const load = warehouse.load.bind(warehouse);
      warehouse.load = (req) => {
        running = load(req);
        loadStarted();
        return running as ReturnType<typeof load>;
      };
      const body = `at,kind,n\n${'2026-01-05 10:00:00,visit,1\n'.repeat(400_000)}`;
      const { port } = t.app.server.address() as AddressInfo;
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/data/events',
        headers: { authorization: owner, 'content-type': 'text/csv', 'content-length': Buffer.byteLength(body) },
      });
      req.on('error', () => {});
      req.end(body);
      await started;
      await new Promise((r) => setTimeout(r, 30));
      req.destroy();
      // Without a cancel the load would go on and commit 400 000 rows nobody hears of.
      await assert.rejects(running!);
      warehouse.load = load;
      assert.equal(await demoRows(), 0);
      const small = await upload(t, owner, { table: 'events', body: 'at,kind,n\n2026-01-05 10:00:00,visit,1\n' });
      assert.equal(small.statusCode, 200, small.body);
      assert.equal(await demoRows(), 1);
    } finally {
      await t.close();
      await warehouse.close();
    }
  });
}
