// GET /api/v1/dashboards/{id}/widgets/{wid}/data (extension): a widget's data for anyone who may view
// the dashboard, under the filter bar's state, writing nothing; refresh stays the editors' action.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

const clock = new ManualClock(new Date('2026-11-21T15:00:00Z'));
let t: TestApp;
let owner: string;
let member: string;
let dash: { id: string };
let hidden: { id: string };
let live: { id: string };

before(async () => {
  t = await buildTestApp({ clock });
  owner = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });
  member = await t.login({ tenant: 'demo', user: 'viewer', role: 'member' });
  dash = (
    await call(t, owner, 'POST', '/api/v1/dashboards/', {
      name: 'Sales',
      is_shared: true,
      global_filter_presets: [
        { id: 'p-de', name: 'Germany 2025', filters: { country: 'DE', date_from: '2025-01-01', date_to: '2025-12-31' } },
      ],
      active_preset_id: 'p-de',
    })
  ).data;
  hidden = (await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Private' })).data;
  const w = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets`, {
    title: 'Revenue by country',
    widget_type: 'table',
    data_source: 'live_insight',
    insight_code: 'revenue_by_country',
  });
  assert.equal(w.statusCode, 201, w.body);
  live = w.data;
});
after(async () => t?.close());

const stored = async () =>
  (await call(t, owner, 'GET', `/api/v1/dashboards/${dash.id}/widgets`)).data.find((x: { id: string }) => x.id === live.id);

test('a member who may view the dashboard reads a live widget’s data; nothing is written; refresh stays refused', async () => {
  const r = await call(t, member, 'GET', `/api/v1/dashboards/${dash.id}/widgets/${live.id}/data`);
  assert.equal(r.statusCode, 200, r.body);
  // No query: the dashboard's default view (its active preset).
  assert.deepEqual(r.data.data.filters, { country: 'DE' });
  assert.deepEqual(r.data.data.period, { from: '2025-01-01', to: '2025-12-31' });
  assert.ok(r.data.data.rows.length > 0);
  const after = await stored();
  assert.equal(after.last_refreshed_at, null, 'reading data records no refresh');
  assert.equal(after.chart_hint, null);
  const refresh = await call(t, member, 'POST', `/api/v1/dashboards/${dash.id}/widgets/${live.id}/refresh`);
  assert.equal(refresh.statusCode, 403);
});

test('the filter bar’s state as a query replaces the preset; skips what the insight does not take; empty preset_id is none', async () => {
  const r = await call(
    t,
    member,
    'GET',
    `/api/v1/dashboards/${dash.id}/widgets/${live.id}/data?range=last_month&channel=web&channel=mobile&category=Books`,
  );
  assert.equal(r.statusCode, 200, r.body);
  assert.deepEqual(r.data.data.period, { from: '2026-10-01', to: '2026-10-31' });
  assert.deepEqual(r.data.data.filters.channel, ['web', 'mobile']);
  assert.equal(r.data.data.filters.country, undefined, 'the preset is replaced');
  const none = await call(t, member, 'GET', `/api/v1/dashboards/${dash.id}/widgets/${live.id}/data?preset_id=`);
  assert.equal(none.statusCode, 200, none.body);
  assert.deepEqual(none.data.data.filters, {});
  const bad = await call(t, member, 'GET', `/api/v1/dashboards/${dash.id}/widgets/${live.id}/data?range=someday`);
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.data.errors[0].path, '/query/range');
  const badPreset = await call(t, member, 'GET', `/api/v1/dashboards/${dash.id}/widgets/${live.id}/data?preset_id=nope`);
  assert.equal(badPreset.statusCode, 400);
  assert.equal(badPreset.data.errors[0].path, '/query/preset_id');
});

test('a dashboard the caller may not view, or a widget not on it, is 404; a snapshot returns its rows', async () => {
  assert.equal((await call(t, member, 'GET', `/api/v1/dashboards/${hidden.id}/widgets/${live.id}/data`)).statusCode, 404);
  assert.equal((await call(t, owner, 'GET', `/api/v1/dashboards/${hidden.id}/widgets/${live.id}/data`)).statusCode, 404);
  const snap = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets`, {
    title: 'Snap',
    widget_type: 'table',
    data_source: 'snapshot',
    snapshot_data: [{ country: 'DE', revenue: 5 }],
  });
  const r = await call(t, member, 'GET', `/api/v1/dashboards/${dash.id}/widgets/${snap.data.id}/data`);
  assert.equal(r.statusCode, 200, r.body);
  assert.deepEqual(r.data.data.rows, [{ country: 'DE', revenue: 5 }]);
});

test('the operation is declared in the OpenAPI document with its query', async () => {
  const doc = (await call(t, owner, 'GET', '/api/v1/openapi.json')).data;
  const op = doc.paths['/api/v1/dashboards/{id}/widgets/{wid}/data'].get;
  assert.equal(op.operationId, 'getWidgetData');
  const names = op.parameters.map((p: { name: string }) => p.name);
  for (const n of ['range', 'date_from', 'compare', 'country', 'channel', 'preset_id']) assert.ok(names.includes(n), n);
  for (const code of ['200', '400', '401', '404']) assert.ok(op.responses[code], code);
});
