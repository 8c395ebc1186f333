// A live widget that holds a semantic query instead of an insight code: checked on write, run on
// refresh with the dashboard's filter bar where it fits, and drawn in the dashboard's PDF.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

const clock = new ManualClock(new Date('2026-11-21T09:30:00Z'));
let t: TestApp;
let owner: string;
let dash: string;
const QUERY = {
  measures: ['orders.orders', 'orders.average_order_value'],
  dimensions: ['orders.channel'],
  time: { dimension: 'orders.ordered_at', date_from: '2026-10-01', date_to: '2026-10-31' },
};
const widget = (extra: Record<string, unknown> = {}) => ({
  title: 'Orders by channel',
  widget_type: 'chart',
  data_source: 'live_insight',
  query: QUERY,
  ...extra,
});

before(async () => {
  t = await buildTestApp({ clock });
  owner = await t.login({ tenant: 'demo', user: 'olga', role: 'owner' });
  dash = (await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Board' })).data.id;
});
after(() => t.close());

test('a query widget is stored, shown and refreshed with the answer POST /api/v1/query gives', async () => {
  const created = await call(t, owner, 'POST', `/api/v1/dashboards/${dash}/widgets`, widget());
  assert.equal(created.statusCode, 201, created.body);
  assert.deepEqual(created.data.query, QUERY);
  assert.equal(created.data.insight_code, null);
  const detail = await call(t, owner, 'GET', `/api/v1/dashboards/${dash}`);
  assert.deepEqual(detail.data.widgets[0].query, QUERY);

  const refreshed = await call(t, owner, 'POST', `/api/v1/dashboards/${dash}/widgets/${created.data.id}/refresh`, {});
  assert.equal(refreshed.statusCode, 200, refreshed.body);
  const direct = await call(t, owner, 'POST', '/api/v1/query', QUERY);
  assert.deepEqual(refreshed.data.data.rows, direct.data.data.rows);
  assert.deepEqual(refreshed.data.data.columns, direct.data.data.columns);
  assert.deepEqual(refreshed.data.data.period, { from: '2026-10-01', to: '2026-10-31' });
  assert.equal(refreshed.data.data.chart_hint.x_axis, 'orders.channel');
  assert.deepEqual(refreshed.data.data.chart_hint.y_axis, ['orders.orders', 'orders.average_order_value']);
  assert.deepEqual(refreshed.data.data.query.measures, QUERY.measures);
});

test("the dashboard's filter bar applies where the query can take it, and the body wins over the query's own period", async () => {
  const w = (await call(t, owner, 'POST', `/api/v1/dashboards/${dash}/widgets`, widget())).data;
  const data = await call(t, owner, 'POST', `/api/v1/dashboards/${dash}/widgets/${w.id}/refresh`, {
    filters: { country: 'DE', date_from: '2026-09-01', date_to: '2026-09-30' },
  });
  assert.equal(data.statusCode, 200, data.body);
  const direct = await call(t, owner, 'POST', '/api/v1/query', {
    ...QUERY,
    time: { dimension: 'orders.ordered_at', date_from: '2026-09-01', date_to: '2026-09-30' },
    filters: [{ member: 'orders.country', operator: 'equals', values: ['DE'] }],
  });
  assert.deepEqual(data.data.data.rows, direct.data.data.rows);
  assert.deepEqual(data.data.data.filters, { 'orders.country': 'DE' });

  // A filter the query cannot reach (sessions reach no product category) is refused by name in a refresh body,
  // and skipped when it is the whole dashboard's state (the PDF of a filtered dashboard).
  const sessions = (
    await call(t, owner, 'POST', `/api/v1/dashboards/${dash}/widgets`, {
      ...widget(),
      title: 'Sessions',
      query: { measures: ['web_sessions.sessions'], time: { dimension: 'web_sessions.day', granularity: 'week' } },
    })
  ).data;
  const refused = await call(t, owner, 'POST', `/api/v1/dashboards/${dash}/widgets/${sessions.id}/refresh`, {
    filters: { category: 'Books' },
  });
  assert.equal(refused.statusCode, 400, refused.body);
  assert.equal(refused.data.errors[0].path, '/body/filters/category');
  const pdf = await t.app.inject({
    method: 'GET',
    url: `/api/v1/dashboards/${dash}/pdf?category=Books`,
    headers: { authorization: owner },
  });
  assert.equal(pdf.statusCode, 200, pdf.body);
  assert.equal(pdf.headers['content-type'], 'application/pdf');
});

test('a query widget that ignores a filter of the bar (or its dates) is not narrowed by it, as an insight widget', async () => {
  const w = (
    await call(
      t,
      owner,
      'POST',
      `/api/v1/dashboards/${dash}/widgets`,
      widget({ title: 'All countries', ignored_filters: ['country', 'date'] }),
    )
  ).data;
  const bar = { preset_id: null, dashboard_filters: true, filters: { country: 'DE', channel: 'web', date_from: '2026-09-01' } };
  const data = await call(t, owner, 'POST', `/api/v1/dashboards/${dash}/widgets/${w.id}/refresh`, bar);
  assert.equal(data.statusCode, 200, data.body);
  const direct = await call(t, owner, 'POST', '/api/v1/query', {
    ...QUERY,
    filters: [{ member: 'orders.channel', operator: 'equals', values: ['web'] }],
  });
  assert.deepEqual(data.data.data.filters, { 'orders.channel': 'web' });
  assert.deepEqual(data.data.data.period, { from: '2026-10-01', to: '2026-10-31' });
  assert.deepEqual(data.data.data.rows, direct.data.data.rows);
});

test('a query widget is checked on write: its members, one source only, live only', async () => {
  const url = `/api/v1/dashboards/${dash}/widgets`;
  const bad = await call(t, owner, 'POST', url, widget({ query: { measures: ['orders.nope'] } }));
  assert.equal(bad.statusCode, 400, bad.body);
  assert.equal(bad.data.errors[0].path, '/body/query/measures/0');
  const both = await call(t, owner, 'POST', url, widget({ insight_code: 'revenue' }));
  assert.equal(both.statusCode, 400, both.body);
  assert.equal(both.data.errors[0].path, '/body/query');
  const snapshot = await call(t, owner, 'POST', url, widget({ data_source: 'snapshot', snapshot_data: [{ a: 1 }] }));
  assert.equal(snapshot.statusCode, 400, snapshot.body);
  assert.equal(snapshot.data.errors[0].path, '/body/query');
  const own = await call(t, owner, 'POST', url, widget({ widget_filters: { country: 'DE' } }));
  assert.equal(own.statusCode, 400, own.body);
  assert.equal(own.data.errors[0].path, '/body/widget_filters/country');
  // PATCH to another query is checked the same way; a relative period is the widget's own.
  const w = (await call(t, owner, 'POST', url, widget({ widget_filters: { range: 'last_month' } }))).data;
  const patched = await call(t, owner, 'PATCH', `${url}/${w.id}`, { query: { ...QUERY, dimensions: ['products.category'] } });
  assert.equal(patched.statusCode, 400, patched.body);
  assert.equal(patched.data.errors[0].path, '/body/query/dimensions/0');
  const data = await call(t, owner, 'POST', `${url}/${w.id}/refresh`, {});
  assert.deepEqual(data.data.data.period, { from: '2026-10-01', to: '2026-10-31' });
});
