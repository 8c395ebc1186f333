// A model whose cube names a tenant column the loaded table does not have (`tenant_column: store`
// over a table loaded while no cube read it, so with tenant_id): `insights model check` exits 1
// naming table, column and cube, and execute, chat and a live widget answer 409 with the same words,
// never 500. A column the model's SQL names and the table lacks is a 409 naming the model's path.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.ts';
import { DuckDbWarehouse } from '../../src/warehouse/duckdb/duckdb.ts';
import type { Warehouse } from '../../src/warehouse/warehouse.ts';
import { buildTestApp, call, type TestApp } from '../helpers/app.ts';
import { runCli, tempDataDir } from '../helpers/process.ts';

const MODEL = `
cubes:
  - name: sales
    sql_table: sales
    tenant_column: store
    measures:
      - { name: amount, type: sum, sql: amount }
    dimensions:
      - { name: day, type: time, sql: day }
      - { name: region, type: string, sql: region }
  - name: visits
    sql_table: visits
    tenant_column: tenant_id
    measures:
      - { name: visits, type: sum, sql: visitz }
    dimensions:
      - { name: day, type: time, sql: day }
insights:
  - { code: amount, kind: timeseries, measures: [sales.amount], time_dimension: sales.day }
  - { code: amount_by_region, kind: breakdown, measures: [sales.amount], dimension: sales.region, time_dimension: sales.day }
  - { code: visits, kind: timeseries, measures: [visits.visits], time_dimension: visits.day }
`;
const WORDS = 'table sales has no column store, which cube sales declares as its tenant_column';

let dir: string;
let modelFile: string;
let t: TestApp;
let wh: Warehouse;
let auth: string;

before(async () => {
  dir = tempDataDir('insights-tenant-col-');
  modelFile = path.join(dir, 'model.yml');
  fs.writeFileSync(modelFile, MODEL);
  fs.writeFileSync(path.join(dir, 'sales.csv'), 'day,region,amount\n2026-03-02,North,10\n2026-03-03,South,5.5\n');
  fs.writeFileSync(path.join(dir, 'visits.csv'), 'day,visits\n2026-03-02,7\n');
  // Loaded before the model existed: the loader gave both tables tenant_id.
  for (const table of ['sales', 'visits']) {
    const r = await runCli(['data', 'load', '--table', table, '--file', path.join(dir, `${table}.csv`), '--tenant', 'demo'], {
      INSIGHTS_DATA_DIR: dir,
    });
    assert.equal(r.code, 0, r.stderr);
  }
});

after(async () => {
  await t?.close();
  await wh?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("model check: a table without its cube's tenant column is an error (exit 1) naming table, column and cube", async () => {
  const r = await runCli(['model', 'check', '--model', modelFile], { INSIGHTS_DATA_DIR: dir });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, new RegExp(`model\\.yml:5 +cubes\\[0\\]\\.tenant_column: ${WORDS}`));
  assert.match(r.stderr, /1 problem with the warehouse's tables/);
  // A misspelt column stays a warning, with its line.
  assert.match(r.stderr, /warning: .*model\.yml:15 +cubes\[1\]\.measures\[0\]\.sql: .*visitz/);
  assert.doesNotMatch(r.stdout, /valid/);
});

test('at query time: 409 with the same words from execute, chat and a live widget, never 500', async () => {
  wh = await DuckDbWarehouse.open(path.join(dir, 'warehouse.duckdb'));
  t = await buildTestApp({
    clock: new ManualClock(new Date('2026-03-31T12:00:00Z')),
    env: { INSIGHTS_MODEL: modelFile },
    deps: { warehouse: wh },
  });
  auth = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });

  for (const code of ['amount', 'amount_by_region']) {
    const r = await call(t, auth, 'GET', `/api/v1/insights/${code}/execute?date_from=2026-03-01&date_to=2026-03-31`);
    assert.equal(r.statusCode, 409, r.body);
    assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(r.data.code, 'DATA_MODEL_MISMATCH');
    assert.match(r.data.detail, new RegExp(WORDS));
  }

  const chat = await call(t, auth, 'POST', '/api/v1/ai/chat', { message: 'amount by month in March 2026' });
  assert.equal(chat.statusCode, 409, chat.body);
  assert.match(chat.data.detail, new RegExp(WORDS));

  const dash = await call(t, auth, 'POST', '/api/v1/dashboards', { name: 'Sales' });
  assert.equal(dash.statusCode, 201, dash.body);
  const widget = await call(t, auth, 'POST', `/api/v1/dashboards/${dash.data.id}/widgets`, {
    title: 'Amount',
    widget_type: 'chart',
    data_source: 'live_insight',
    insight_code: 'amount',
  });
  assert.equal(widget.statusCode, 201, widget.body);
  const refresh = await call(t, auth, 'POST', `/api/v1/dashboards/${dash.data.id}/widgets/${widget.data.id}/refresh`, {});
  assert.equal(refresh.statusCode, 409, refresh.body);
  assert.match(refresh.data.detail, new RegExp(WORDS));
});

test("a column the model names and the table lacks: 409 naming the model's path and the engine's reason", async () => {
  const r = await call(t, auth, 'GET', '/api/v1/insights/visits/execute?date_from=2026-03-01&date_to=2026-03-31');
  assert.equal(r.statusCode, 409, r.body);
  assert.equal(r.data.code, 'DATA_MODEL_MISMATCH');
  assert.match(r.data.detail, /^Insight visits: the model's cubes\[1\]\.measures\[0\]\.sql does not fit the warehouse: .*visitz/);
});
