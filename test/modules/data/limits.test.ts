// Loads are bounded and fair (docs/data.md, "Limits and turns"): the data's size after
// decompression and its rows are capped before anything is loaded, one tenant's big load does not
// hold back another tenant's small one, and a client that goes away cancels its load.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import type { AddressInfo } from 'node:net';
import { LoadQueue } from '../../../src/modules/data/data.queue.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { testWarehouse } from '../../helpers/warehouse.ts';
import { clock, tables, upload, uploadModel } from './support.ts';

const ORDERS_HEADER = 'order_id,customer_id,ordered_at,country,channel,status,items,revenue,discount\n';
const orders = (n: number, from: number) =>
  ORDERS_HEADER + Array.from({ length: n }, (_, i) => `${from + i},1,2026-11-20 12:00:00,DE,web,completed,1,1.00,0\n`).join('');
const count = async (t: TestApp, tenant: string) =>
  Number((await t.warehouse.query(`SELECT count(*) AS n FROM orders WHERE tenant_id = $1`, [tenant]))[0].n);

let tmpDir: string;
// Uploads are written into the process's own temp dir under TMPDIR (src/lib/temp-dir.ts).
const uploadsLeft = () =>
  (fs.readdirSync(tmpDir, { recursive: true }) as string[]).filter((f) => path.basename(f).startsWith('insights-upload-')).length;
before(() => {
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-limits-test-'));
  process.env.TMPDIR = tmpDir;
});
after(() => fs.rmSync(tmpDir, { recursive: true, force: true }));

test('a gzip body is capped by its size after decompression: 413, nothing created, no temp file left', async () => {
  const warehouse = await testWarehouse(clock.now(), 300);
  const t = await buildTestApp({ clock, deps: { warehouse }, env: { INSIGHTS_MODEL: uploadModel(), INSIGHTS_DATA_MAX_BYTES: '100000' } });
  try {
    const owner = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
    const bomb = zlib.gzipSync('n\n' + '1\n'.repeat(500_000));
    assert.ok(bomb.length < 5_000, `a ${bomb.length}-byte body`);
    const res = await upload(t, owner, { table: 'bomb', body: bomb, headers: { 'content-encoding': 'gzip' } });
    // Before: the limit counted the 1.2 kB as sent and the 500 000 rows were loaded.
    assert.equal(res.statusCode, 413, res.body);
    assert.equal(res.data.code, 'DATA_DECOMPRESSED_TOO_LARGE');
    assert.deepEqual((await tables(t, owner)).bomb.columns, [], 'not created');
    assert.equal(uploadsLeft(), 0);
    const small = await upload(t, owner, { table: 'bomb', body: zlib.gzipSync('n\n1\n2\n'), headers: { 'content-encoding': 'gzip' } });
    assert.equal(small.statusCode, 200, small.body);
    assert.equal(small.data.rows_loaded, 2);
  } finally {
    await t.close();
    await warehouse.close();
  }
});

test('rows per load are capped (INSIGHTS_DATA_MAX_ROWS): 413 before loading; quoted line breaks are one row', async () => {
  const warehouse = await testWarehouse(clock.now(), 300);
  const t = await buildTestApp({ clock, deps: { warehouse }, env: { INSIGHTS_MODEL: uploadModel(), INSIGHTS_DATA_MAX_ROWS: '3' } });
  try {
    const owner = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
    const four = await upload(t, owner, { table: 'notes', body: 'id,text\n1,a\n2,b\n3,c\n4,d\n' });
    assert.equal(four.statusCode, 413, four.body);
    assert.equal(four.data.code, 'DATA_TOO_MANY_ROWS');
    assert.deepEqual((await tables(t, owner)).notes.columns, [], 'nothing was loaded');
    const ndjson = await upload(t, owner, { table: 'notes', type: 'application/x-ndjson', body: '{"id":1}\n{"id":2}\n{"id":3}\n{"id":4}' });
    assert.equal(ndjson.data.code, 'DATA_TOO_MANY_ROWS');
    const array = await upload(t, owner, {
      table: 'notes',
      type: 'application/json',
      body: '[\n  {"id": 1, "text": "{not a record}"},\n  {"id": 2},\n  {"id": 3},\n  {"id": 4}\n]',
    });
    assert.equal(array.data.code, 'DATA_TOO_MANY_ROWS');
    const pretty = await upload(t, owner, {
      table: 'notes',
      type: 'application/json',
      body: '[\n  {\n    "id": 1,\n    "text": "a"\n  },\n  {\n    "id": 2,\n    "text": "b"\n  }\n]',
    });
    assert.equal(pretty.statusCode, 200, pretty.body);
    const three = await upload(t, owner, { table: 'notes', body: 'id,text\r\n1,"two\r\nlines"\r\n2,"say ""hi""\nthere"\r\n3,c\r\n\r\n' });
    assert.equal(three.statusCode, 200, three.body);
    assert.equal(three.data.rows_loaded, 3);
  } finally {
    await t.close();
    await warehouse.close();
  }
});

test("another tenant's 1-row load does not wait for a big load that is running", async () => {
  const warehouse = await testWarehouse(clock.now(), 300);
  const t = await buildTestApp({ clock, env: { INSIGHTS_MODEL: uploadModel() }, deps: { warehouse } });
  try {
    const acme = await t.login({ tenant: 'acme', user: 'o', role: 'owner' });
    const demo = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
    const finished: string[] = [];
    let bigStarted!: () => void;
    const started = new Promise<void>((r) => (bigStarted = r));
    const load = warehouse.load.bind(warehouse);
    warehouse.load = (req) => {
      if (req.tenantId === 'acme') bigStarted();
      return load(req);
    };
    const big = upload(t, acme, { table: 'orders', body: orders(400_000, 91_000_000) }).then((r) => (finished.push('big'), r));
    await started;
    const small = await upload(t, demo, { table: 'orders', body: orders(1, 92_000_000) }).then((r) => (finished.push('small'), r));
    assert.equal(small.statusCode, 200, small.body);
    assert.equal((await big).statusCode, 200);
    // Before: every load waited in one queue, so the 1-row load answered after the big one.
    assert.deepEqual(finished, ['small', 'big']);
  } finally {
    await t.close();
    await warehouse.close();
  }
});

test('a client that goes away cancels its running load: nothing is kept', async () => {
  const warehouse = await testWarehouse(clock.now(), 300);
  const t = await buildTestApp({ clock, env: { INSIGHTS_MODEL: uploadModel() }, deps: { warehouse } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const owner = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
    const before = await count(t, 'demo');
    let running: Promise<unknown> | undefined;
    let loadStarted!: () => void;
    const started = new Promise<void>((r) => (loadStarted = r));
    const load = warehouse.load.bind(warehouse);
    warehouse.load = (req) => {
      running = load(req);
      loadStarted();
      return running as ReturnType<typeof load>;
    };
    const body = orders(600_000, 93_000_000);
    const { port } = t.app.server.address() as AddressInfo;
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/data/orders',
      headers: { authorization: owner, 'content-type': 'text/csv', 'content-length': Buffer.byteLength(body) },
    });
    req.on('error', () => {});
    req.end(body);
    await started;
    await new Promise((r) => setTimeout(r, 50));
    req.destroy();
    // Before: the load went on and committed 600 000 rows nobody would hear of.
    await assert.rejects(running!);
    assert.equal(await count(t, 'demo'), before);
    // The route removes the upload once the load has failed: after the rejection, not before it.
    for (let i = 0; i < 100 && uploadsLeft() > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(uploadsLeft(), 0);
  } finally {
    await t.close();
    await warehouse.close();
  }
});

test('the load queue: one load per tenant at a time, free slots go to tenants in turn, a waiter that is aborted leaves', async () => {
  const queue = new LoadQueue(1);
  const order: string[] = [];
  const gate = () => {
    let open!: () => void;
    return { wait: new Promise<void>((r) => (open = r)), open: () => open() };
  };
  const first = gate();
  const a1 = queue.run('a', async () => (order.push('a1'), first.wait));
  const a2 = queue.run('a', async () => void order.push('a2'));
  const a3 = queue.run('a', async () => void order.push('a3'));
  const b1 = queue.run('b', async () => void order.push('b1'));
  const abort = new AbortController();
  const c1 = queue.run('c', async () => void order.push('c1'), abort.signal);
  abort.abort(new Error('gone'));
  await assert.rejects(c1, /gone/);
  first.open();
  await Promise.all([a1, a2, a3, b1]);
  assert.deepEqual(order, ['a1', 'b1', 'a2', 'a3']);
  assert.equal(queue.queued, 0);
});
