// Dashboards are read from memory until the table changes (DashboardsRepository, src/db/change-cache.ts):
// a repeated list or read costs no query, and every change — through the API, a widget added or
// removed (widget_ids), an edit by hand in SQL, and on PostgreSQL one made by another instance — is
// seen by the very next read.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config/index.ts';
import type { Db } from '../../../src/db/index.ts';
import { PostgresDb } from '../../../src/db/postgres.ts';
import { SecretBox } from '../../../src/lib/secrets.ts';
import { buildTestApp, call, JWT_SECRET, type TestApp } from '../../helpers/app.ts';
import { freshDb, usingPostgres } from '../../helpers/db.ts';
import { testWarehouse } from '../../helpers/warehouse.ts';

/** Counts the reads of the dashboards table the app sends to its database. */
function countingReads(db: Db): { count: () => number } {
  let n = 0;
  const query = db.query.bind(db);
  db.query = ((sql: string, params?: unknown[]) => {
    if (/FROM dashboards\s+WHERE/.test(sql) && !sql.includes('FOR UPDATE')) n++;
    return query(sql, params);
  }) as Db['query'];
  return { count: () => n };
}

/** PGlite announces a change before the statement returns; PostgreSQL a network hop after the commit: retried for up to 2 s. */
async function seen<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await read();
  const until = Date.now() + 2000;
  while (usingPostgres && !ok(v) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 5));
    v = await read();
  }
  return v;
}

describe('dashboards from memory', () => {
  let t: TestApp;
  let reads: { count: () => number };
  let auth: string;
  let id: string;
  before(async () => {
    t = await buildTestApp();
    reads = countingReads(t.db);
    auth = await t.login({ tenant: 'acme', user: 'ann', role: 'admin' });
    // On PostgreSQL the insert's own announcement arrives a network hop after its commit (later on a
    // loaded machine) and empties the cache once more: wait until a listener of our own has heard
    // it, rather than for a fixed time (300 ms was not enough under two test suites at once).
    let heard = () => {};
    const announced = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const ours = await t.db.listen('insights_dashboards', () => heard());
    id = (await call(t, auth, 'POST', '/api/v1/dashboards/', { name: 'Sales' })).data.id;
    if (usingPostgres) {
      await Promise.race([announced, new Promise((r) => setTimeout(r, 5000))]);
      await new Promise((r) => setTimeout(r, 100));
    }
    await ours.close();
  });
  after(() => t.close());

  test('a repeated list and read cost one query each', async () => {
    const before = reads.count();
    for (let i = 0; i < 4; i++) {
      assert.equal((await call(t, auth, 'GET', '/api/v1/dashboards/')).statusCode, 200);
      assert.equal((await call(t, auth, 'GET', `/api/v1/dashboards/${id}`)).data.name, 'Sales');
    }
    assert.equal(reads.count() - before, 2);
  });

  test('a change through the API is seen by the next read and list', async () => {
    await call(t, auth, 'GET', `/api/v1/dashboards/${id}`);
    assert.equal((await call(t, auth, 'PATCH', `/api/v1/dashboards/${id}`, { name: 'Sales 2' })).statusCode, 200);
    assert.equal((await call(t, auth, 'GET', `/api/v1/dashboards/${id}`)).data.name, 'Sales 2');
    const listed = await call(t, auth, 'GET', '/api/v1/dashboards/');
    assert.equal(listed.data.find((d: { id: string }) => d.id === id).name, 'Sales 2');
  });

  test('a widget added or removed is seen at once', async () => {
    assert.deepEqual((await call(t, auth, 'GET', `/api/v1/dashboards/${id}`)).data.widgets, []);
    const w = await call(t, auth, 'POST', `/api/v1/dashboards/${id}/widgets`, {
      title: 'r',
      widget_type: 'chart',
      data_source: 'live_insight',
      insight_code: 'revenue',
    });
    assert.equal(w.statusCode, 201, w.body);
    const withWidget = await call(t, auth, 'GET', `/api/v1/dashboards/${id}`);
    assert.deepEqual(
      withWidget.data.widgets.map((x: { id: string }) => x.id),
      [w.data.id],
    );
    assert.equal((await call(t, auth, 'DELETE', `/api/v1/dashboards/${id}/widgets/${w.data.id}`)).statusCode, 204);
    assert.deepEqual((await call(t, auth, 'GET', `/api/v1/dashboards/${id}`)).data.widgets, []);
  });

  test('a change by hand in SQL, and a delete, are seen by the next read', async () => {
    await call(t, auth, 'GET', `/api/v1/dashboards/${id}`);
    await t.db.query(`UPDATE dashboards SET name = 'By hand' WHERE id = $1`, [id]);
    const read = await seen(
      () => call(t, auth, 'GET', `/api/v1/dashboards/${id}`),
      (r) => r.data.name === 'By hand',
    );
    assert.equal(read.data.name, 'By hand');
    assert.equal((await call(t, auth, 'DELETE', `/api/v1/dashboards/${id}`)).statusCode, 204);
    assert.equal((await call(t, auth, 'GET', `/api/v1/dashboards/${id}`)).statusCode, 404);
    assert.equal((await call(t, auth, 'GET', '/api/v1/dashboards/')).data.length, 0);
  });

  test('what a caller gets is a copy: changing it changes nothing remembered', async () => {
    const d = await call(t, auth, 'POST', '/api/v1/dashboards/', { name: 'Copy' });
    const first = await t.app.services.dashboards.getForSystem('acme', d.data.id);
    (first as { name: string }).name = 'mutated';
    assert.equal((await t.app.services.dashboards.getForSystem('acme', d.data.id)).name, 'Copy');
  });
});

describe('two instances on one PostgreSQL', { skip: !usingPostgres && 'needs DATABASE_URL' }, () => {
  test('a change on one instance is seen by the other', async () => {
    const { db, schema, close } = await freshDb();
    const other = new PostgresDb(process.env.DATABASE_URL!, { schema, max: 2 });
    const config = loadConfig({ INSIGHTS_DATA_DIR: '/nonexistent-test-data-dir', INSIGHTS_JWT_SECRET: JWT_SECRET });
    const warehouse = await testWarehouse(new Date());
    const deps = { config, clock: { now: () => new Date() }, secrets: new SecretBox(crypto.randomBytes(32)), logger: false, warehouse };
    const a = await buildApp({ ...deps, db });
    const b = await buildApp({ ...deps, db: other });
    try {
      const { token } = await a.services.tokens.create({ tenantId: 'acme', name: 'x', userId: 'eve', role: 'admin' });
      const as = (app: typeof a, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
        app.inject({ method, url, headers: { authorization: `Svc ${token}` }, ...(body ? { payload: body as object } : {}) });
      const d = (await as(a, 'POST', '/api/v1/dashboards/', { name: 'Shared' })).json();
      assert.equal((await as(b, 'GET', `/api/v1/dashboards/${d.id}`)).json().name, 'Shared');
      assert.equal((await as(a, 'PATCH', `/api/v1/dashboards/${d.id}`, { name: 'Renamed' })).statusCode, 200);
      const read = await seen(
        () => as(b, 'GET', `/api/v1/dashboards/${d.id}`),
        (r) => r.json().name === 'Renamed',
      );
      assert.equal(read.json().name, 'Renamed');
    } finally {
      await a.close();
      await b.close();
      await other.close();
      await warehouse.close();
      await close();
    }
  });
});
