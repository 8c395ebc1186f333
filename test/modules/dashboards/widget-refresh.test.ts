// Widget refresh and the catalog check on widget create/PATCH: filter precedence (insight defaults
// < active preset < widget < refresh body), 409 for snapshots, chart_hint and last_refreshed_at.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

const clock = new ManualClock(new Date('2026-11-21T15:00:00Z'));
let t: TestApp;
let owner: string;
let member: string;
let dash: { id: string };

before(async () => {
  t = await buildTestApp({ clock });
  owner = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });
  member = await t.login({ tenant: 'demo', user: 'viewer', role: 'member' });
  dash = (await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Sales', is_shared: true })).data;
  const patched = await call(t, owner, 'PATCH', `/api/v1/dashboards/${dash.id}`, {
    global_filter_presets: [
      {
        id: 'p-de',
        name: 'Germany 2025',
        filters: { country: 'DE', date_from: '2025-01-01', date_to: '2025-12-31', granularity: 'month' },
      },
      { id: 'p-fr', name: 'France', filters: { country: 'FR' } },
    ],
    active_preset_id: 'p-de',
  });
  assert.equal(patched.statusCode, 200, patched.body);
});
after(async () => t?.close());

async function widget(body: Record<string, unknown>) {
  const r = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets`, {
    title: 'w',
    widget_type: 'chart',
    data_source: 'live_insight',
    ...body,
  });
  assert.equal(r.statusCode, 201, r.body);
  return r.data;
}

test('create and PATCH check insight_code, granularity and widget_filters against the catalog', async () => {
  const bad: [Record<string, unknown>, string][] = [
    [{ insight_code: 'nope' }, '/body/insight_code'],
    [{ insight_code: 'revenue_by_country', granularity: 'week' }, '/body/granularity'],
    [{ insight_code: 'revenue', widget_filters: { colour: 'red' } }, '/body/widget_filters/colour'],
    [{ insight_code: 'revenue', widget_filters: { category: 'Books' } }, '/body/widget_filters/category'],
    [{ insight_code: 'revenue', widget_filters: { country: 'Germany' } }, '/body/widget_filters/country'],
  ];
  for (const [body, path] of bad) {
    const r = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets`, {
      title: 'w',
      widget_type: 'chart',
      data_source: 'live_insight',
      ...body,
    });
    assert.equal(r.statusCode, 400, JSON.stringify(body));
    assert.ok(
      r.data.errors.some((e: { path: string }) => e.path === path),
      `${JSON.stringify(body)} → ${r.body}`,
    );
  }
  const w = await widget({ insight_code: 'revenue', granularity: 'week' });
  const p1 = await call(t, owner, 'PATCH', `/api/v1/dashboards/${dash.id}/widgets/${w.id}`, { insight_code: 'top_products' });
  assert.equal(p1.statusCode, 400, 'top_products takes no granularity, and the widget has one');
  assert.equal(p1.data.errors[0].path, '/body/granularity');
  const p2 = await call(t, owner, 'PATCH', `/api/v1/dashboards/${dash.id}/widgets/${w.id}`, {
    insight_code: 'top_products',
    granularity: null,
    widget_filters: { limit: 3 },
  });
  assert.equal(p2.statusCode, 200, p2.body);
});

test('refresh applies defaults < active preset < widget filters < body, and records the hint', async () => {
  const w = await widget({ insight_code: 'revenue', widget_filters: { channel: 'web' } });
  assert.equal(w.chart_hint, null);
  clock.set('2026-11-21T15:30:00Z');
  const r = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets/${w.id}/refresh`);
  assert.equal(r.statusCode, 200, r.body);
  const d = r.data.data;
  // From the preset: country, window, granularity; from the widget: channel.
  assert.deepEqual(d.filters, { country: 'DE', channel: 'web' });
  assert.deepEqual(d.period, { from: '2025-01-01', to: '2025-12-31' });
  assert.equal(d.granularity, 'month');
  assert.equal(d.rows.length, 12);
  const direct = await call(
    t,
    owner,
    'GET',
    '/api/v1/insights/revenue/execute?granularity=month&country=DE&channel=web&date_from=2025-01-01&date_to=2025-12-31',
  );
  assert.deepEqual(d.rows, direct.data.data.rows);

  // The widget's own granularity beats the preset's; the body beats both.
  await call(t, owner, 'PATCH', `/api/v1/dashboards/${dash.id}/widgets/${w.id}`, {
    granularity: 'quarter',
    widget_filters: { channel: 'web', country: 'FR' },
  });
  const r2 = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets/${w.id}/refresh`, {
    granularity: 'year',
    filters: { channel: 'mobile', date_from: '2025-06-01' },
  });
  assert.equal(r2.statusCode, 200, r2.body);
  assert.equal(r2.data.data.granularity, 'year');
  assert.deepEqual(r2.data.data.filters, { country: 'FR', channel: 'mobile' });
  assert.deepEqual(r2.data.data.period, { from: '2025-06-01', to: '2025-12-31' });

  const list = await call(t, owner, 'GET', `/api/v1/dashboards/${dash.id}/widgets`);
  const stored = list.data.find((x: { id: string }) => x.id === w.id);
  assert.equal(stored.last_refreshed_at, '2026-11-21T15:30:00.000Z');
  assert.deepEqual(stored.chart_hint, { type: 'line', x_axis: 'period', y_axis: ['revenue'], title: 'Revenue' });
});

test('a preset filter the insight does not take is skipped; a body filter it does not take is a 400', async () => {
  await call(t, owner, 'PATCH', `/api/v1/dashboards/${dash.id}`, { active_preset_id: 'p-de' });
  const w = await widget({ insight_code: 'top_categories' });
  const r = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets/${w.id}/refresh`, {});
  assert.equal(r.statusCode, 200, r.body);
  assert.equal(r.data.data.granularity, null, "the preset's granularity does not apply to a breakdown");
  assert.deepEqual(r.data.data.filters, { country: 'DE' });
  const bad = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets/${w.id}/refresh`, { granularity: 'week' });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.data.errors[0].path, '/body/granularity');
  const bad2 = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets/${w.id}/refresh`, { filters: { size: 'XL' } });
  assert.equal(bad2.statusCode, 400);
  assert.equal(bad2.data.errors[0].path, '/body/filters/size');
  const bad3 = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets/${w.id}/refresh`, { filters: { date_from: 'soon' } });
  assert.equal(bad3.data.errors[0].path, '/body/filters/date_from');
  const bad4 = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets/${w.id}/refresh`, { colour: 1 });
  assert.equal(bad4.statusCode, 400);
});

test('a live widget keeps compare and several values in widget_filters; a preset may list values too', async () => {
  const w = await widget({
    insight_code: 'revenue',
    granularity: 'month',
    widget_filters: { compare: 'previous_year', country: ['DE', 'FR'] },
  });
  assert.deepEqual(w.widget_filters, { compare: 'previous_year', country: ['DE', 'FR'] });
  const r = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets/${w.id}/refresh`);
  assert.equal(r.statusCode, 200, r.body);
  assert.equal(r.data.data.compare, 'previous_year');
  assert.deepEqual(r.data.data.filters, { country: ['DE', 'FR'] });
  assert.equal(r.data.data.chart_hint.series, 'country');
  assert.ok(r.data.data.rows.every((x: Record<string, unknown>) => 'revenue_previous' in x && 'revenue_change_pct' in x));
  // The same figures as execute.
  const e = await call(
    t,
    owner,
    'GET',
    '/api/v1/insights/revenue/execute?granularity=month&date_from=2025-01-01&date_to=2025-12-31&country=DE&country=FR&compare=previous_year',
  );
  assert.deepEqual(r.data.data.rows, e.data.data.rows);

  const bad = await call(t, owner, 'PATCH', `/api/v1/dashboards/${dash.id}/widgets/${w.id}`, { widget_filters: { compare: 'yesterday' } });
  assert.equal(bad.statusCode, 400);
  assert.ok(
    bad.data.errors.some((x: { path: string }) => x.path === '/body/widget_filters/compare'),
    bad.body,
  );

  const preset = await call(t, owner, 'PATCH', `/api/v1/dashboards/${dash.id}`, {
    global_filter_presets: [{ id: 'p-dach', name: 'DACH', filters: { country: ['DE', 'AT', 'CH'], compare: 'previous_period' } }],
    active_preset_id: 'p-dach',
  });
  assert.equal(preset.statusCode, 200, preset.body);
  const plain = await widget({ insight_code: 'revenue_by_country' });
  const fromPreset = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets/${plain.id}/refresh`);
  assert.equal(fromPreset.statusCode, 200, fromPreset.body);
  assert.deepEqual(fromPreset.data.data.filters, { country: ['DE', 'AT', 'CH'] });
  assert.equal(fromPreset.data.data.compare, 'previous_period');
  assert.ok(fromPreset.data.data.rows.every((x: Record<string, unknown>) => ['DE', 'AT', 'CH'].includes(String(x.country))));
  // Back to the presets the other tests use.
  await call(t, owner, 'PATCH', `/api/v1/dashboards/${dash.id}`, {
    global_filter_presets: [
      {
        id: 'p-de',
        name: 'Germany 2025',
        filters: { country: 'DE', date_from: '2025-01-01', date_to: '2025-12-31', granularity: 'month' },
      },
      { id: 'p-fr', name: 'France', filters: { country: 'FR' } },
    ],
    active_preset_id: 'p-de',
  });
});

test('snapshot widgets answer 409; others 404; members of a dashboard they cannot edit 403', async () => {
  const snap = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets`, {
    title: 's',
    widget_type: 'table',
    data_source: 'snapshot',
    snapshot_data: [{ a: 1 }],
  });
  assert.equal(snap.statusCode, 201, snap.body);
  const r = await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets/${snap.data.id}/refresh`);
  assert.equal(r.statusCode, 409);
  assert.equal(r.data.code, 'CONFLICT');
  const w = await widget({ insight_code: 'orders_kpi' });
  assert.equal((await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets/nope/refresh`)).statusCode, 404);
  assert.equal((await call(t, member, 'POST', `/api/v1/dashboards/${dash.id}/widgets/${w.id}/refresh`)).statusCode, 403);
  const other = await t.login({ tenant: 'acme', user: 'x', role: 'owner' });
  assert.equal((await call(t, other, 'POST', `/api/v1/dashboards/${dash.id}/widgets/${w.id}/refresh`)).statusCode, 404);
});

test('executeWidget gives scheduled reports the same data without a caller', async () => {
  const w = await widget({ insight_code: 'orders_count', granularity: 'week', widget_filters: { channel: 'retail' } });
  const dashboard = await t.app.services.dashboards.getForSystem('demo', dash.id);
  const record = dashboard.widgets.find((x: { id: string }) => x.id === w.id)!;
  const data = await t.app.services.widgets.execute('demo', dashboard, record);
  assert.equal(data.granularity, 'week');
  assert.deepEqual(data.filters, { country: 'DE', channel: 'retail' });
  const snap = await t.app.services.widgets.execute('demo', dashboard, {
    data_source: 'snapshot',
    snapshot_data: [{ x: 'a', y: 2 }],
    snapshot_chart_hint: { type: 'bar', x_axis: 'x' },
  });
  assert.deepEqual(snap.rows, [{ x: 'a', y: 2 }]);
  assert.deepEqual(snap.chart_hint, { type: 'bar', x_axis: 'x' });
});
