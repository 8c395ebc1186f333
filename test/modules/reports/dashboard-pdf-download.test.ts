// GET /api/v1/dashboards/{id}/pdf: the PDF that dashboard reports attach, downloaded by a viewer,
// optionally under one filter state; declared in OpenAPI as application/pdf with its errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let owner: string;
let member: string;
let dash: { id: string };

before(async () => {
  t = await buildTestApp();
  owner = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });
  member = await t.login({ tenant: 'demo', user: 'bo', role: 'member' });
  dash = (await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Sales Q4' })).data;
  for (const w of [
    { title: 'Revenue', widget_type: 'chart', insight_code: 'revenue', granularity: 'week' },
    { title: 'By country', widget_type: 'chart', insight_code: 'revenue_by_country', ignored_filters: ['country'] },
    { title: 'KPI', widget_type: 'kpi', insight_code: 'revenue_kpi' },
  ]) {
    const r = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets`, { ...w, data_source: 'live_insight' });
    assert.equal(r.statusCode, 201, r.body);
  }
});
after(async () => t?.close());

const get = (auth: string | undefined, url: string) => t.app.inject({ method: 'GET', url, headers: auth ? { authorization: auth } : {} });

test('a viewer downloads the dashboard as a PDF, as it is or under one filter state', async () => {
  const res = await get(owner, `/api/v1/dashboards/${dash.id}/pdf`);
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  assert.equal(res.headers['content-type'], 'application/pdf');
  assert.match(String(res.headers['content-disposition']), /attachment; filename="sales-q4\.pdf"/);
  assert.equal(res.rawPayload.subarray(0, 5).toString(), '%PDF-');
  const filtered = await get(owner, `/api/v1/dashboards/${dash.id}/pdf?range=last_month&country=DE&country=FR&compare=previous_period`);
  assert.equal(filtered.statusCode, 200, filtered.body.slice(0, 300));
  assert.equal(filtered.rawPayload.subarray(0, 5).toString(), '%PDF-');
});

test('errors: not viewable or absent 404, a bad query 400 naming the field, no token 401', async () => {
  assert.equal((await get(member, `/api/v1/dashboards/${dash.id}/pdf`)).statusCode, 404);
  assert.equal((await get(owner, `/api/v1/dashboards/0190b3f0-0000-7000-8000-000000000000/pdf`)).statusCode, 404);
  const bad = await get(owner, `/api/v1/dashboards/${dash.id}/pdf?range=fortnight`);
  assert.equal(bad.statusCode, 400);
  assert.match(bad.headers['content-type'] as string, /problem\+json/);
  assert.match(bad.body, /range/);
  assert.equal((await get(owner, `/api/v1/dashboards/${dash.id}/pdf?colour=red`)).statusCode, 400);
  assert.equal((await get(undefined, `/api/v1/dashboards/${dash.id}/pdf`)).statusCode, 401);
});

test('OpenAPI declares the PDF and its error statuses', async () => {
  const doc = (await call(t, undefined, 'GET', '/api/v1/openapi.json')).data;
  const op = doc.paths['/api/v1/dashboards/{id}/pdf'].get;
  assert.equal(op.operationId, 'downloadDashboardPdf');
  assert.deepEqual(Object.keys(op.responses['200'].content), ['application/pdf']);
  for (const s of ['400', '401', '404', '429']) assert.ok(op.responses[s], `declares ${s}`);
  assert.ok(op.responses['404'].content['application/problem+json']);
});
