// Row-level access through the HTTP API (docs/model.md "Row-level access"): the demo model with an
// access filter on orders.country, callers whose API tokens or JWTs carry different countries, on
// execute, widgets, chat and subscriptions. Nobody is ever answered with another country's rows.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SignJWT } from 'jose';
import { buildTestApp, call, JWT_SECRET, type TestApp } from '../../helpers/app.ts';
import { rowAccessModel } from '../../helpers/row-access.ts';

let t: TestApp;
let owner: string;
const jwt = (claims: Record<string, unknown>) =>
  new SignJWT({ tenant_id: 'demo', role: 'member', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(JWT_SECRET));

/** An API token with attributes, created over the API by the tenant's owner. */
async function tokenWith(tenantOwner: string, user: string, attributes?: Record<string, unknown>): Promise<string> {
  const res = await call(t, tenantOwner, 'POST', '/api/v1/auth/tokens', {
    name: user,
    user_id: user,
    role: 'member',
    ...(attributes ? { attributes } : {}),
  });
  assert.equal(res.statusCode, 201, res.body);
  return `Svc ${res.data.token}`;
}

before(async () => {
  t = await buildTestApp({ deps: { model: rowAccessModel() } });
  owner = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });
});
after(() => t.close());

const FROM = new Date(Date.now() - 700 * 86400_000).toISOString().slice(0, 10);
const countries = (rows: Record<string, unknown>[]) => [...new Set(rows.map((r) => r.country))].sort();

test('API tokens carry attributes: each caller sees its own countries only, the same URL answered per caller', async () => {
  const ann = await tokenWith(owner, 'ann', { country: 'DE' });
  const bob = await tokenWith(owner, 'bob', { country: ['FR', 'GB'] });
  const listed = await call(t, owner, 'GET', '/api/v1/auth/tokens');
  assert.deepEqual(listed.data.find((x: { user_id: string }) => x.user_id === 'bob').attributes, { country: ['FR', 'GB'] });
  const url = `/api/v1/insights/revenue_by_country/execute?date_from=${FROM}`;
  const a = await call(t, ann, 'GET', url);
  assert.equal(a.statusCode, 200, a.body);
  assert.deepEqual(countries(a.data.data.rows), ['DE']);
  const b = await call(t, bob, 'GET', url);
  assert.deepEqual(countries(b.data.data.rows), ['FR', 'GB'], "not ann's cached answer");
  const again = await call(t, ann, 'GET', url);
  assert.deepEqual(again.data.data.rows, a.data.data.rows);
  assert.equal(again.data.data.cached, true);
  // Through a join: order items are counted only for orders of the caller's country.
  const topAnn = await call(t, ann, 'GET', `/api/v1/insights/top_products/execute?date_from=${FROM}`);
  const topBob = await call(t, bob, 'GET', `/api/v1/insights/top_products/execute?date_from=${FROM}`);
  assert.equal(topAnn.statusCode, 200, topAnn.body);
  assert.notDeepEqual(topAnn.data.data.rows, topBob.data.data.rows);
});

test("a filter outside the caller's attribute is refused with a problem, inside it is answered", async () => {
  const ann = await tokenWith(owner, 'ann2', { country: 'DE' });
  const out = await call(t, ann, 'GET', '/api/v1/insights/revenue/execute?country=FR');
  assert.equal(out.statusCode, 403);
  assert.match(out.headers['content-type'] as string, /problem\+json/);
  assert.equal(out.data.code, 'FORBIDDEN');
  assert.equal(out.data.rows, undefined);
  assert.equal((await call(t, ann, 'GET', '/api/v1/insights/revenue/execute?country=DE')).statusCode, 200);
});

test('a caller without the attribute sees nothing: a problem, never every row (owner included)', async () => {
  for (const who of [owner, await tokenWith(owner, 'carl'), `Bearer ${await jwt({ sub: 'dora' })}`]) {
    const res = await call(t, who, 'GET', '/api/v1/insights/revenue_kpi/execute');
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(res.data.code, 'ACCESS_ATTRIBUTE_MISSING');
    assert.match(res.data.detail, /"country"/);
  }
});

test('JWT users carry an attributes claim; a malformed claim is refused', async () => {
  const eve = `Bearer ${await jwt({ sub: 'eve', attributes: { country: 'GB' } })}`;
  const res = await call(t, eve, 'GET', `/api/v1/insights/revenue_by_country/execute?date_from=${FROM}`);
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(countries(res.data.data.rows), ['GB']);
  for (const attributes of ['GB', { country: [] }, { country: { a: 1 } }, { 'bad name': 'x' }]) {
    const bad = await call(t, `Bearer ${await jwt({ sub: 'eve', attributes })}`, 'GET', '/api/v1/insights/revenue/execute');
    assert.equal(bad.statusCode, 401, JSON.stringify(attributes));
  }
});

test("widgets refresh as the caller; chat answers only within the caller's countries", async () => {
  const dash = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Countries', is_shared: true });
  const w = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.data.id}/widgets`, {
    title: 'By country',
    widget_type: 'chart',
    data_source: 'live_insight',
    insight_code: 'revenue_by_country',
  });
  assert.equal(w.statusCode, 201, w.body);
  const ann = await tokenWith(owner, 'ann3', { country: 'DE' });
  const refreshed = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.data.id}/widgets/${w.data.id}/refresh`, {});
  assert.equal(refreshed.statusCode, 403, 'the owner carries no country');
  const adminDe = await call(t, owner, 'POST', '/api/v1/auth/tokens', {
    name: 'a',
    user_id: 'admin-de',
    role: 'admin',
    attributes: { country: 'DE' },
  });
  const asAdmin = await call(t, `Svc ${adminDe.data.token}`, 'POST', `/api/v1/dashboards/${dash.data.id}/widgets/${w.data.id}/refresh`, {});
  assert.equal(asAdmin.statusCode, 200, asAdmin.body);
  assert.deepEqual(countries(asAdmin.data.data.rows), ['DE']);

  const de = await call(t, ann, 'POST', '/api/v1/ai/chat', { message: 'revenue by country last year' });
  assert.equal(de.statusCode, 200, de.body);
  assert.deepEqual(countries(de.data.data.rows), ['DE']);
  const fr = await call(t, ann, 'POST', '/api/v1/ai/chat', { message: 'revenue in France last month' });
  assert.equal(fr.statusCode, 403, fr.body);
  assert.equal(fr.data.data, undefined);
});

test("subscriptions remember their subscriber's attributes; their reports are computed as the subscriber", async () => {
  const { InsightSubscriptionsRepository } = await import('../../../src/modules/subscriptions/insight-subscriptions.repository.ts');
  const { insightsPort } = await import('../../../src/modules/reports/report-sources.ts');
  const adminDe = await call(t, owner, 'POST', '/api/v1/auth/tokens', {
    name: 's',
    user_id: 'sub-de',
    role: 'admin',
    attributes: { country: 'DE' },
  });
  const auth = `Svc ${adminDe.data.token}`;
  const channel = await call(t, auth, 'POST', '/api/v1/notifications/channels', {
    channel_type: 'email',
    config: { email: 'de@demo.example' },
  });
  assert.equal(channel.statusCode, 201, channel.body);
  const sub = await call(t, auth, 'POST', '/api/v1/notifications/subscriptions', {
    insight_code: 'revenue_by_country',
    channel_id: channel.data.id,
    schedule: 'daily',
    granularity: 'day',
  });
  assert.equal(sub.statusCode, 201, sub.body);
  const record = (await new InsightSubscriptionsRepository(t.db).find('demo', sub.data.id))!;
  assert.deepEqual(record.subscriber_attributes, { country: ['DE'] });
  const result = (await insightsPort(t.app.services.insights).run(record)) as { rows: Record<string, unknown>[] };
  assert.deepEqual(countries(result.rows), ['DE']);
  // Without the attributes (a subscription made before them, or by a caller without any): refused, not everything.
  await assert.rejects(insightsPort(t.app.services.insights).run({ ...record, subscriber_attributes: null }), /country/);
});

test("MCP tools answer as the caller: run_insight keeps to the caller's countries, another country is a tool error", async () => {
  const ann = await tokenWith(owner, 'ann-mcp', { country: 'DE' });
  const tool = async (args: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/mcp',
      headers: { authorization: ann, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'run_insight', arguments: args } }),
    });
    assert.equal(res.statusCode, 200, res.body);
    return JSON.parse(res.body).result;
  };
  const mine = await tool({ insight_code: 'revenue_by_country' });
  assert.ok(!mine.isError, JSON.stringify(mine));
  assert.deepEqual(countries(mine.structuredContent.rows), ['DE']);
  const other = await tool({ insight_code: 'revenue', filters: { country: ['FR'] } });
  assert.equal(other.isError, true);
  assert.ok(!JSON.stringify(other).includes('"rows"'));
});

test("snapshot widgets: stored rows are limited to the viewer's countries on every path, or withheld when they cannot be", async () => {
  const adminAll = await call(t, owner, 'POST', '/api/v1/auth/tokens', {
    name: 'all',
    user_id: 'admin-all',
    role: 'admin',
    attributes: { country: ['DE', 'FR', 'US'] },
  });
  const admin = `Svc ${adminAll.data.token}`;
  const ann = await tokenWith(owner, 'ann-snap', { country: 'DE' });
  const dash = await call(t, admin, 'POST', '/api/v1/dashboards/', { name: 'Snapshots', is_shared: true });
  const byCountry = await call(t, admin, 'POST', `/api/v1/dashboards/${dash.data.id}/widgets`, {
    title: 'Saved by country',
    widget_type: 'table',
    data_source: 'snapshot',
    insight_code: 'revenue_by_country',
    snapshot_data: [
      { country: 'DE', revenue: 10 },
      { country: 'FR', revenue: 20 },
      { country: 'US', revenue: 30 },
    ],
  });
  assert.equal(byCountry.statusCode, 201, byCountry.body);
  const total = await call(t, admin, 'POST', `/api/v1/dashboards/${dash.data.id}/widgets`, {
    title: 'Saved total',
    widget_type: 'kpi',
    data_source: 'snapshot',
    insight_code: 'revenue_kpi',
    snapshot_data: [{ revenue: 60 }],
  });
  assert.equal(total.statusCode, 201, total.body);
  // Made through MCP add_widget by the admin, whose attributes cover every country.
  const added = await t.app.inject({
    method: 'POST',
    url: '/api/v1/mcp',
    headers: { authorization: admin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'add_widget', arguments: { dashboard_id: dash.data.id, query: { insight_code: 'revenue_by_country' } } },
    }),
  });
  assert.equal(added.statusCode, 200, added.body);
  assert.ok(!JSON.parse(added.body).result.isError, added.body);
  assert.ok(countries(JSON.parse(added.body).result.structuredContent.result.rows).length > 1, 'the admin saved several countries');

  // GET /dashboards/{id} and the widget list: the rows the viewer may see, null where withheld.
  for (const url of [`/api/v1/dashboards/${dash.data.id}`, `/api/v1/dashboards/${dash.data.id}/widgets`]) {
    const res = await call(t, ann, 'GET', url);
    assert.equal(res.statusCode, 200, res.body);
    const widgets = (res.data.widgets ?? res.data) as { title: string; snapshot_data: Record<string, unknown>[] | null }[];
    assert.deepEqual(widgets.find((w) => w.title === 'Saved by country')?.snapshot_data, [{ country: 'DE', revenue: 10 }], url);
    assert.equal(widgets.find((w) => w.title === 'Saved total')?.snapshot_data, null, url);
    for (const w of widgets) if (w.snapshot_data) assert.deepEqual(countries(w.snapshot_data), ['DE'], `${url} ${w.title}`);
    const asAdmin = await call(t, admin, 'GET', url);
    const all = (asAdmin.data.widgets ?? asAdmin.data) as { title: string; snapshot_data: unknown[] }[];
    assert.equal(all.find((w) => w.title === 'Saved by country')?.snapshot_data.length, 3);
  }
  // The widget data route.
  const data = await call(t, ann, 'GET', `/api/v1/dashboards/${dash.data.id}/widgets/${byCountry.data.id}/data`);
  assert.equal(data.statusCode, 200, data.body);
  assert.deepEqual(data.data.data.rows, [{ country: 'DE', revenue: 10 }]);
  const withheld = await call(t, ann, 'GET', `/api/v1/dashboards/${dash.data.id}/widgets/${total.data.id}/data`);
  assert.equal(withheld.statusCode, 403, withheld.body);
  assert.match(withheld.data.detail, /no "country" column/);
  assert.ok(!withheld.body.includes('60'));
  const noAttribute = await call(t, owner, 'GET', `/api/v1/dashboards/${dash.data.id}/widgets/${byCountry.data.id}/data`);
  assert.equal(noAttribute.statusCode, 403);
  assert.equal(noAttribute.data.code, 'ACCESS_ATTRIBUTE_MISSING');
  // MCP get_dashboard.
  const got = await t.app.inject({
    method: 'POST',
    url: '/api/v1/mcp',
    headers: { authorization: ann, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_dashboard', arguments: { dashboard_id: dash.data.id } },
    }),
  });
  assert.equal(got.statusCode, 200, got.body);
  const widgets = JSON.parse(got.body).result.structuredContent.widgets as { title: string; rows?: Record<string, unknown>[] }[];
  for (const w of widgets) if (w.rows) assert.deepEqual(countries(w.rows), w.rows.length ? ['DE'] : [], w.title);
  assert.ok(!/"(FR|US)"/.test(got.body), 'no other country anywhere in the tool output');
  // The dashboard PDF computes each widget as its viewer.
  const { DashboardPdfService } = await import('../../../src/modules/reports/dashboard-pdf.ts');
  const seen: unknown[] = [];
  const services = t.app.services;
  const spy = {
    execute: async (...args: Parameters<typeof services.widgets.execute>) => {
      const r = await services.widgets.execute(...args);
      seen.push(...r.rows);
      return r;
    },
  };
  const annAuth = await services.tokens.authenticate(ann.slice('Svc '.length));
  await new DashboardPdfService(services.dashboards, spy, t.clock).render(annAuth!, dash.data.id);
  assert.ok(seen.length > 0);
  assert.deepEqual(countries(seen as Record<string, unknown>[]), ['DE']);
});
