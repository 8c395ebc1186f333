// A model given by INSIGHTS_MODEL, through the HTTP API: the catalog and the execute parameters
// come from it, and an insight over a table not loaded yet is a 409 DATA_NOT_LOADED naming it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.ts';
import { DuckDbWarehouse } from '../../src/warehouse/duckdb/duckdb.ts';
import type { Warehouse } from '../../src/warehouse/warehouse.ts';
import { buildTestApp, call, type TestApp } from '../helpers/app.ts';
import { DATA, SHOP_MODEL } from './shop-model.ts';

let t: TestApp;
let wh: Warehouse;
let auth: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'model-api-'));

before(async () => {
  wh = await DuckDbWarehouse.open(':memory:');
  await wh.exec(DATA);
  const file = path.join(dir, 'shops.yml');
  fs.writeFileSync(
    file,
    SHOP_MODEL.replace(
      /^insights:/m,
      `  - name: refunds
    sql_table: refunds
    tenant_column: org
    measures: [{ name: refunds, type: count }]
    dimensions: [{ name: at, type: time, sql: at }]
insights:
  - { code: refunds, kind: timeseries, measures: [refunds.refunds], time_dimension: refunds.at }`,
    ),
  );
  t = await buildTestApp({
    clock: new ManualClock(new Date('2026-04-01T12:00:00Z')),
    env: { INSIGHTS_MODEL: file },
    deps: { warehouse: wh },
  });
  auth = await t.login({ tenant: 't1', user: 'u', role: 'member' });
});
after(async () => {
  await t?.close();
  await wh?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the catalog and the parameters are the model’s', async () => {
  const list = await call(t, auth, 'GET', '/api/v1/insights');
  assert.equal(list.statusCode, 200);
  assert.deepEqual(
    list.data.map((c: { code: string }) => c.code),
    ['refunds', 'by_region', 'units_per_ticket', 'amount_kpi', 'per_ticket_kpi', 'best_regions'],
  );
  const byRegion = list.data.find((c: { code: string }) => c.code === 'by_region');
  assert.deepEqual(byRegion.parameters, ['region', 'date_from', 'date_to', 'compare']);
  assert.deepEqual(byRegion.dimensions, [{ name: 'region', label: 'Region' }]);
  const r = await call(t, auth, 'GET', '/api/v1/insights/by_region/execute?region=South&date_from=2026-03-01&date_to=2026-03-31');
  assert.equal(r.statusCode, 200, r.body);
  assert.deepEqual(r.data.data.rows, [{ region: 'South', amount: 50.5, quantity: 4 }]);
  assert.deepEqual(r.data.data.filters, { region: 'South' });
  const bad = await call(t, auth, 'GET', '/api/v1/insights/by_region/execute?country=DE');
  assert.equal(bad.statusCode, 400);
  assert.ok(
    bad.data.errors.some((e: { path: string }) => e.path === '/query/country'),
    bad.body,
  );
  const notHere = await call(t, auth, 'GET', '/api/v1/insights/amount_kpi/execute?region=North');
  assert.equal(notHere.statusCode, 400);
  assert.ok(
    notHere.data.errors.some((e: { path: string }) => e.path === '/query/region'),
    notHere.body,
  );
});

test('an insight over a table that is not loaded yet: 409 DATA_NOT_LOADED naming it', async () => {
  const r = await call(t, auth, 'GET', '/api/v1/insights/refunds/execute');
  assert.equal(r.statusCode, 409, r.body);
  assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.equal(r.data.code, 'DATA_NOT_LOADED');
  assert.match(r.data.detail, /"refunds"/);
});
