import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { WidgetsRepository } from '../../../src/modules/dashboards/widgets.repository.ts';
import { WidgetsService } from '../../../src/modules/dashboards/widgets.service.ts';
import { invalidField } from '../../../src/lib/errors.ts';

const WIDGET_FIELDS = [
  'chart_hint',
  'chart_hint_override',
  'created_at',
  'dashboard_id',
  'data_source',
  'display_size',
  'granularity',
  'id',
  'ignored_filters',
  'insight_code',
  'last_refreshed_at',
  'query',
  'snapshot_chart_hint',
  // The answer's columns a snapshot was saved with (an extension of the seed's widget; null when none).
  'snapshot_columns',
  'snapshot_data',
  'snapshot_question',
  'title',
  'widget_filters',
  'widget_type',
];
const keys = (o: object) => Object.keys(o).sort();
const live = { title: 'Revenue', widget_type: 'chart', data_source: 'live_insight', insight_code: 'revenue' };
const snap = {
  title: 'Top',
  widget_type: 'table',
  data_source: 'snapshot',
  snapshot_data: [{ product: 'A', revenue: 10.5, ok: true, note: null }],
};

describe('widgets', () => {
  let t: TestApp;
  let owner: string;
  let admin: string;
  let member: string;
  let dash: string;
  const widgetsUrl = (d = dash) => `/api/v1/dashboards/${d}/widgets`;
  before(async () => {
    t = await buildTestApp();
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    admin = await t.login({ tenant: 'acme', user: 'adam', role: 'admin' });
    member = await t.login({ tenant: 'acme', user: 'mo', role: 'member' });
    dash = (await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Board', is_shared: true })).data.id;
  });
  after(() => t.close());

  test('create a live widget: 201 with every field and defaults', async () => {
    const res = await call(t, owner, 'POST', widgetsUrl(), { ...live, granularity: 'month', widget_filters: { country: 'DE' } });
    assert.equal(res.statusCode, 201);
    assert.deepEqual(keys(res.data), WIDGET_FIELDS);
    assert.deepEqual(
      { ...res.data, id: undefined },
      {
        id: undefined,
        dashboard_id: dash,
        title: 'Revenue',
        widget_type: 'chart',
        display_size: 'medium',
        data_source: 'live_insight',
        insight_code: 'revenue',
        query: null,
        granularity: 'month',
        widget_filters: { country: 'DE' },
        ignored_filters: null,
        snapshot_data: null,
        snapshot_chart_hint: null,
        snapshot_columns: null,
        snapshot_question: null,
        chart_hint: null,
        chart_hint_override: null,
        created_at: t.clock.now().toISOString(),
        last_refreshed_at: null,
      },
    );
  });

  test('create a snapshot widget: rows, hints and question kept; chart_hint defaults to the snapshot hint', async () => {
    const hint = { type: 'bar', x_axis: 'product', y_axis: ['revenue'], series: 'ok', title: 'Top products' };
    const res = await call(t, owner, 'POST', widgetsUrl(), {
      ...snap,
      display_size: 'full',
      snapshot_chart_hint: hint,
      snapshot_question: 'top products?',
      chart_hint_override: { chart_type: 'pie' },
    });
    assert.equal(res.statusCode, 201);
    assert.equal(res.data.display_size, 'full');
    assert.deepEqual(res.data.snapshot_data, snap.snapshot_data);
    assert.deepEqual(res.data.snapshot_chart_hint, hint);
    assert.deepEqual(res.data.chart_hint, hint);
    assert.equal(res.data.snapshot_question, 'top products?');
    assert.deepEqual(res.data.chart_hint_override, { chart_type: 'pie' });
    const explicit = await call(t, owner, 'POST', widgetsUrl(), {
      ...snap,
      snapshot_chart_hint: hint,
      chart_hint: { type: 'kpi', x_axis: 'x' },
    });
    assert.deepEqual(explicit.data.chart_hint, { type: 'kpi', x_axis: 'x' });
  });

  test('create validation: source rules and enums, each a 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...live, insight_code: undefined }, '/body/insight_code'],
      [{ ...live, insight_code: null }, '/body/insight_code'],
      [{ ...live, snapshot_data: [] }, '/body/snapshot_data'],
      [{ ...snap, snapshot_data: undefined }, '/body/snapshot_data'],
      [{ ...snap, widget_type: 'gauge' }, '/body/widget_type'],
      [{ ...snap, data_source: 'csv' }, '/body/data_source'],
      [{ ...snap, display_size: 'huge' }, '/body/display_size'],
      [{ ...live, granularity: 'hour' }, '/body/granularity'],
      [{ ...snap, title: '' }, '/body/title'],
      [{ ...snap, title: undefined }, '/body/title'],
      [{ ...snap, snapshot_data: [{ nested: { a: 1 } }] }, '/body/snapshot_data/0/nested'],
      [{ ...snap, snapshot_data: [[1, 2]] }, '/body/snapshot_data/0'],
      [{ ...snap, snapshot_chart_hint: { type: 'donut', x_axis: 'a' } }, '/body/snapshot_chart_hint/type'],
      [{ ...snap, chart_hint: { type: 'bar' } }, '/body/chart_hint/x_axis'],
      [{ ...snap, chart_hint: { type: 'bar', x_axis: 'a', colour: 'red' } }, '/body/chart_hint/colour'],
      [{ ...snap, chart_hint_override: { chart_type: 'radar' } }, '/body/chart_hint_override/chart_type'],
      [{ ...snap, widget_filters: 'country=DE' }, '/body/widget_filters'],
      [{ ...snap, position: 3 }, '/body/position'],
    ];
    for (const [body, path] of cases) {
      const res = await call(t, owner, 'POST', widgetsUrl(), body);
      assert.equal(res.statusCode, 400, `${path}: ${res.body}`);
      assert.ok(
        res.data.errors.some((e: any) => e.path === path),
        `${path}: ${JSON.stringify(res.data.errors)}`,
      );
    }
  });

  test('list: the widgets in widget_ids order; patch returns the full widget; delete keeps widget_ids in step', async () => {
    const d = (await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Lifecycle' })).data.id;
    const a = (await call(t, owner, 'POST', widgetsUrl(d), { ...snap, title: 'A' })).data;
    const b = (await call(t, owner, 'POST', widgetsUrl(d), { ...live, title: 'B' })).data;
    const c = (await call(t, owner, 'POST', widgetsUrl(d), { ...snap, title: 'C' })).data;
    let list = await call(t, owner, 'GET', widgetsUrl(d));
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list.data.map((w: any) => w.id),
      [a.id, b.id, c.id],
    );
    assert.deepEqual(keys(list.data[0]), WIDGET_FIELDS);
    await call(t, owner, 'PATCH', `/api/v1/dashboards/${d}`, { widget_ids: [c.id, a.id, b.id] });
    list = await call(t, owner, 'GET', widgetsUrl(d));
    assert.deepEqual(
      list.data.map((w: any) => w.title),
      ['C', 'A', 'B'],
    );

    t.clock.advance(5000);
    const patched = await call(t, owner, 'PATCH', `${widgetsUrl(d)}/${b.id}`, {
      title: 'B2',
      widget_type: 'kpi',
      display_size: 'small',
      insight_code: 'orders_count',
      granularity: 'week',
      widget_filters: { channel: 'web' },
      ignored_filters: ['country'],
      chart_hint: { type: 'line', x_axis: 'period' },
      chart_hint_override: { chart_type: 'area' },
      snapshot_question: 'why?',
      data_source: 'live_insight',
    });
    assert.equal(patched.statusCode, 200);
    assert.deepEqual(keys(patched.data), WIDGET_FIELDS);
    assert.equal(patched.data.title, 'B2');
    assert.equal(patched.data.widget_type, 'kpi');
    assert.equal(patched.data.display_size, 'small');
    assert.equal(patched.data.insight_code, 'orders_count');
    assert.equal(patched.data.granularity, 'week');
    assert.deepEqual(patched.data.widget_filters, { channel: 'web' });
    assert.deepEqual(patched.data.ignored_filters, ['country']);
    assert.deepEqual(patched.data.chart_hint, { type: 'line', x_axis: 'period' });
    assert.deepEqual(patched.data.chart_hint_override, { chart_type: 'area' });
    assert.equal(patched.data.created_at, b.created_at);
    const cleared = await call(t, owner, 'PATCH', `${widgetsUrl(d)}/${b.id}`, {
      granularity: null,
      widget_filters: null,
      chart_hint_override: null,
    });
    assert.equal(cleared.data.granularity, null);
    assert.equal(cleared.data.widget_filters, null);
    assert.equal(cleared.data.chart_hint_override, null);
    assert.equal(cleared.data.title, 'B2');

    const snapPatch = await call(t, owner, 'PATCH', `${widgetsUrl(d)}/${a.id}`, {
      snapshot_data: [{ x: 1 }],
      snapshot_chart_hint: { type: 'pie', x_axis: 'x' },
    });
    assert.equal(snapPatch.statusCode, 200);
    assert.deepEqual(snapPatch.data.snapshot_data, [{ x: 1 }]);

    const del = await call(t, owner, 'DELETE', `${widgetsUrl(d)}/${a.id}`);
    assert.equal(del.statusCode, 204);
    assert.equal(del.body, '');
    const dashboard = await call(t, owner, 'GET', `/api/v1/dashboards/${d}`);
    assert.deepEqual(dashboard.data.widget_ids, [c.id, b.id]);
    assert.deepEqual(
      dashboard.data.widgets.map((w: any) => w.id),
      [c.id, b.id],
    );
    assert.equal((await call(t, owner, 'DELETE', `${widgetsUrl(d)}/${a.id}`)).statusCode, 404);
    assert.equal((await call(t, owner, 'PATCH', `${widgetsUrl(d)}/${a.id}`, { title: 'x' })).statusCode, 404);
    // A widget addressed through another dashboard of the same tenant is not found.
    assert.equal((await call(t, owner, 'PATCH', `${widgetsUrl(dash)}/${b.id}`, { title: 'x' })).statusCode, 404);
    assert.equal((await call(t, owner, 'DELETE', `${widgetsUrl(dash)}/${b.id}`)).statusCode, 404);
  });

  test('patch validation: data_source is immutable, source rules hold, unknown fields named', async () => {
    const w = (await call(t, owner, 'POST', widgetsUrl(), live)).data;
    const s = (await call(t, owner, 'POST', widgetsUrl(), snap)).data;
    const cases: [string, Record<string, unknown>, string][] = [
      [w.id, { data_source: 'snapshot' }, '/body/data_source'],
      [s.id, { data_source: 'live_insight', insight_code: 'revenue' }, '/body/data_source'],
      [w.id, { insight_code: null }, '/body/insight_code'],
      [w.id, { snapshot_data: [{ a: 1 }] }, '/body/snapshot_data'],
      [s.id, { snapshot_data: null }, '/body/snapshot_data'],
      [w.id, { id: 'other', dashboard_id: 'x' }, '/body/id'],
      [w.id, { last_refreshed_at: '2024-01-01T00:00:00.000Z' }, '/body/last_refreshed_at'],
      [w.id, { display_size: 'xl' }, '/body/display_size'],
    ];
    for (const [id, body, path] of cases) {
      const res = await call(t, owner, 'PATCH', `${widgetsUrl()}/${id}`, body);
      assert.equal(res.statusCode, 400, `${path}: ${res.body}`);
      assert.ok(
        res.data.errors.some((e: any) => e.path === path),
        `${path}: ${JSON.stringify(res.data.errors)}`,
      );
    }
    const unchanged = (await call(t, owner, 'GET', widgetsUrl())).data.find((x: any) => x.id === w.id);
    assert.equal(unchanged.data_source, 'live_insight');
    assert.equal(unchanged.insight_code, 'revenue');
  });

  test('role matrix: viewers list, only managers and the creator write; hidden dashboards are 404', async () => {
    const hidden = (await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Hidden' })).data.id;
    const moAdmin = await t.login({ tenant: 'acme', user: 'mo', role: 'admin' });
    const own = (await call(t, moAdmin, 'POST', '/api/v1/dashboards/', { name: 'Mo' })).data.id;
    const w = (await call(t, owner, 'POST', widgetsUrl(), snap)).data;
    const h = (await call(t, owner, 'POST', widgetsUrl(hidden), snap)).data;

    // shared dashboard: a member may view, not write
    assert.equal((await call(t, member, 'GET', widgetsUrl())).statusCode, 200);
    assert.equal((await call(t, member, 'POST', widgetsUrl(), snap)).statusCode, 403);
    assert.equal((await call(t, member, 'PATCH', `${widgetsUrl()}/${w.id}`, { title: 'x' })).statusCode, 403);
    assert.equal((await call(t, member, 'DELETE', `${widgetsUrl()}/${w.id}`)).statusCode, 403);
    // hidden dashboard: 404 throughout
    assert.equal((await call(t, member, 'GET', widgetsUrl(hidden))).statusCode, 404);
    assert.equal((await call(t, member, 'POST', widgetsUrl(hidden), snap)).statusCode, 404);
    assert.equal((await call(t, member, 'PATCH', `${widgetsUrl(hidden)}/${h.id}`, { title: 'x' })).statusCode, 404);
    assert.equal((await call(t, member, 'DELETE', `${widgetsUrl(hidden)}/${h.id}`)).statusCode, 404);
    // their own dashboard: a member writes
    const mine = await call(t, member, 'POST', widgetsUrl(own), snap);
    assert.equal(mine.statusCode, 201);
    assert.equal((await call(t, member, 'PATCH', `${widgetsUrl(own)}/${mine.data.id}`, { title: 'Mine' })).statusCode, 200);
    assert.equal((await call(t, member, 'DELETE', `${widgetsUrl(own)}/${mine.data.id}`)).statusCode, 204);
    // managers write anywhere in the tenant
    const byAdmin = await call(t, admin, 'POST', widgetsUrl(hidden), snap);
    assert.equal(byAdmin.statusCode, 201);
    assert.equal((await call(t, admin, 'PATCH', `${widgetsUrl(hidden)}/${h.id}`, { title: 'A' })).statusCode, 200);
    assert.equal((await call(t, admin, 'DELETE', `${widgetsUrl(hidden)}/${h.id}`)).statusCode, 204);
    assert.equal((await call(t, owner, 'GET', '/api/v1/dashboards/nope/widgets')).statusCode, 404);
  });

  test('concurrent widget writes and a reorder keep widget_ids equal to the set of widgets', async () => {
    const d = (await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Busy' })).data.id;
    const first = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call(t, owner, 'POST', widgetsUrl(d), { ...snap, title: `W${i}` })),
    );
    assert.ok(first.every((r) => r.statusCode === 201));
    const ids = first.map((r) => r.data.id);
    // A reorder racing with more creates and a delete either applies to the set it saw or is refused.
    const results = await Promise.all([
      call(t, owner, 'PATCH', `/api/v1/dashboards/${d}`, { widget_ids: [...ids].reverse() }),
      ...Array.from({ length: 4 }, (_, i) => call(t, owner, 'POST', widgetsUrl(d), { ...snap, title: `X${i}` })),
      call(t, owner, 'DELETE', `${widgetsUrl(d)}/${ids[3]}`),
    ]);
    assert.ok([200, 400].includes(results[0].statusCode));
    const dashboard = (await call(t, owner, 'GET', `/api/v1/dashboards/${d}`)).data;
    const rows = await t.db.query<{ id: string }>('SELECT id FROM dashboard_widgets WHERE dashboard_id = $1', [d]);
    assert.equal(dashboard.widget_ids.length, 11);
    assert.equal(new Set(dashboard.widget_ids).size, 11);
    assert.deepEqual([...dashboard.widget_ids].sort(), rows.map((r) => r.id).sort());
    assert.deepEqual(
      dashboard.widgets.map((w: any) => w.id),
      dashboard.widget_ids,
    );
  });

  test('body limits: widget create takes up to 5 MiB, other routes 1 MiB', async () => {
    const row = { label: 'x'.repeat(90), value: 123456.789 };
    const rows = (n: number) => Array.from({ length: n }, () => row);
    // ~2 MiB: over the default limit, within the widget create limit
    const big = await call(t, owner, 'POST', widgetsUrl(), { ...snap, snapshot_data: rows(18_000) });
    assert.equal(big.statusCode, 201, big.body.slice(0, 300));
    assert.equal(big.data.snapshot_data.length, 18_000);
    const tooBig = await call(t, owner, 'POST', widgetsUrl(), { ...snap, snapshot_data: rows(50_000) });
    assert.equal(tooBig.statusCode, 413);
    assert.equal(tooBig.data.code, 'PAYLOAD_TOO_LARGE');
    const patchTooBig = await call(t, owner, 'PATCH', `${widgetsUrl()}/${big.data.id}`, { snapshot_data: rows(18_000) });
    assert.equal(patchTooBig.statusCode, 413);
    const dashTooBig = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'x', description: 'y'.repeat(1024 * 1024) });
    assert.equal(dashTooBig.statusCode, 413);
  });

  test('recordRefresh stores chart_hint and last_refreshed_at for the insight engine', async () => {
    const w = (await call(t, owner, 'POST', widgetsUrl(), live)).data;
    t.clock.advance(1000);
    const at = t.clock.now();
    const view = await t.app.services.widgets.recordRefresh(
      'acme',
      dash,
      w.id,
      { type: 'line', x_axis: 'period', y_axis: ['revenue'] },
      at,
    );
    assert.equal(view?.last_refreshed_at, at.toISOString());
    const got = (await call(t, owner, 'GET', widgetsUrl())).data.find((x: any) => x.id === w.id);
    assert.deepEqual(got.chart_hint, { type: 'line', x_axis: 'period', y_axis: ['revenue'] });
    assert.equal(got.last_refreshed_at, at.toISOString());
    assert.equal(await t.app.services.widgets.recordRefresh('globex', dash, w.id, null), undefined);
  });

  test('the validateLiveSource hook refuses a live source on create and on patch', async () => {
    const seen: unknown[] = [];
    const widgets = new WidgetsService(
      new WidgetsRepository(t.db),
      t.app.services.dashboards,
      t.clock,
      t.app.services.insights,
      t.app.services.widgetQueries,
      {
        validateLiveSource: async (tenantId, source) => {
          seen.push([tenantId, source.insight_code, source.granularity]);
          if (source.insight_code !== 'revenue') throw invalidField('/body/insight_code', 'is not in the catalog');
        },
      },
    );
    const auth = { tenantId: 'acme', userId: 'olga', name: 'Olga', email: null, role: 'owner' as const };
    const ok = await widgets.create(auth, dash, {
      title: 'x',
      widget_type: 'chart',
      data_source: 'live_insight',
      insight_code: 'revenue',
      granularity: 'day',
    });
    await assert.rejects(
      widgets.create(auth, dash, { title: 'x', widget_type: 'chart', data_source: 'live_insight', insight_code: 'nope' }),
      { code: 'VALIDATION_FAILED' },
    );
    await assert.rejects(widgets.update(auth, dash, ok.id, { insight_code: 'nope' }), { code: 'VALIDATION_FAILED' });
    await widgets.update(auth, dash, ok.id, { title: 'renamed' }); // no source change: not asked
    await widgets.create(auth, dash, { title: 's', widget_type: 'table', data_source: 'snapshot', snapshot_data: [] }); // snapshots: not asked
    assert.deepEqual(seen, [
      ['acme', 'revenue', 'day'],
      ['acme', 'nope', null],
      ['acme', 'nope', 'day'],
    ]);
  });
});
