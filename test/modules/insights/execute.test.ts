// The insight endpoints over HTTP on the default test warehouse: the catalog, every code for both
// tenants, parameter errors, default windows, zero-filled periods and the result cache.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { seedDemo } from '../../../src/warehouse/demo/demo.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

const clock = new ManualClock(new Date('2026-11-21T15:00:00Z')); // a Saturday
let t: TestApp;
let demo: string;
let acme: string;

before(async () => {
  t = await buildTestApp({ clock });
  demo = await t.login({ tenant: 'demo', user: 'm', role: 'member' });
  acme = await t.login({ tenant: 'acme', user: 'o', role: 'owner' });
});
after(async () => t?.close());

const CODES = [
  'revenue',
  'orders_count',
  'average_order_value',
  'new_customers',
  'refund_rate',
  'conversion_rate',
  'revenue_by_country',
  'revenue_by_channel',
  'top_products',
  'top_categories',
  'revenue_kpi',
  'orders_kpi',
];

test('the catalog lists every code with its parameters, granularities and chart', async () => {
  const res = await call(t, demo, 'GET', '/api/v1/insights');
  assert.equal(res.statusCode, 200);
  const codes = res.data.map((c: { code: string }) => c.code);
  for (const c of CODES) assert.ok(codes.includes(c), c);
  const revenue = res.data.find((c: { code: string }) => c.code === 'revenue');
  assert.deepEqual(revenue.granularities, ['day', 'week', 'month', 'quarter', 'year']);
  assert.deepEqual(revenue.parameters, ['granularity', 'country', 'channel', 'date_from', 'date_to', 'compare']);
  assert.equal(revenue.chart_hint.type, 'line');
  const top = res.data.find((c: { code: string }) => c.code === 'top_products');
  assert.equal(top.default_limit, 10);
  assert.ok(top.parameters.includes('limit') && top.parameters.includes('category'));
  assert.equal(res.data.find((c: { code: string }) => c.code === 'revenue_by_channel').chart_hint.type, 'pie');
  assert.equal((await call(t, undefined, 'GET', '/api/v1/insights')).statusCode, 401);
});

test('every code executes for both tenants with non-empty rows, and tenants see different data', async () => {
  for (const code of CODES) {
    const a = await call(t, demo, 'GET', `/api/v1/insights/${code}/execute`);
    const b = await call(t, acme, 'GET', `/api/v1/insights/${code}/execute`);
    for (const r of [a, b]) {
      assert.equal(r.statusCode, 200, `${code}: ${r.body}`);
      assert.equal(r.data.success, true);
      assert.equal(r.data.data.insight_code, code);
      assert.ok(r.data.data.row_count > 0 && r.data.data.rows.length === r.data.data.row_count, code);
      const y = r.data.data.chart_hint.y_axis[0];
      assert.ok(
        r.data.data.rows.some((row: Record<string, unknown>) => Number(row[y]) > 0),
        `${code} has data`,
      );
      assert.deepEqual(
        Object.keys(r.data.data.rows[0]),
        r.data.data.columns.map((c: { name: string }) => c.name),
      );
    }
    assert.notDeepEqual(a.data.data.rows, b.data.data.rows, code);
  }
});

test('default windows fit the granularity and end today', async () => {
  const get = async (q: string) => (await call(t, demo, 'GET', `/api/v1/insights/${q}`)).data.data;
  const day = await get('revenue/execute');
  assert.equal(day.granularity, 'day');
  assert.deepEqual(day.period, { from: '2026-10-23', to: '2026-11-21' });
  assert.equal(day.rows.length, 30);
  const week = await get('revenue/execute?granularity=week');
  assert.deepEqual(week.period, { from: '2026-08-31', to: '2026-11-21' });
  assert.equal(week.rows.length, 12);
  assert.equal(week.rows[11].period, '2026-11-16'); // ISO week of Saturday 21st starts Monday 16th
  const quarter = await get('orders_count/execute?granularity=quarter');
  assert.deepEqual(
    quarter.rows.map((r: { period: string }) => r.period),
    ['2025-01-01', '2025-04-01', '2025-07-01', '2025-10-01', '2026-01-01', '2026-04-01', '2026-07-01', '2026-10-01'],
  );
  const year = await get('revenue/execute?granularity=year');
  assert.deepEqual(
    year.rows.map((r: { period: string }) => r.period),
    ['2024-01-01', '2025-01-01', '2026-01-01'],
  );
  const kpi = await get('revenue_kpi/execute');
  assert.deepEqual(kpi.rows[0].period_from, '2026-11-01');
  assert.deepEqual(kpi.rows[0].previous_period_from, '2026-10-01');
  assert.deepEqual(kpi.rows[0].previous_period_to, '2026-10-21');
  const kpiWeek = await get('orders_kpi/execute?granularity=week');
  assert.deepEqual(
    [kpiWeek.rows[0].period_from, kpiWeek.rows[0].previous_period_from, kpiWeek.rows[0].previous_period_to],
    ['2026-11-16', '2026-11-09', '2026-11-14'],
  );
  const breakdown = await get('revenue_by_country/execute');
  assert.deepEqual(breakdown.period, { from: '2026-10-23', to: '2026-11-21' });
  assert.equal(breakdown.granularity, null);
});

test('periods without data are zero rows; windows before the data are all zeros', async () => {
  const r = await call(t, demo, 'GET', '/api/v1/insights/revenue/execute?granularity=month&date_from=2020-01-10&date_to=2020-03-02');
  assert.equal(r.statusCode, 200);
  assert.deepEqual(r.data.data.rows, [
    { period: '2020-01-01', revenue: 0 },
    { period: '2020-02-01', revenue: 0 },
    { period: '2020-03-01', revenue: 0 },
  ]);
  const aov = await call(
    t,
    demo,
    'GET',
    '/api/v1/insights/average_order_value/execute?granularity=day&date_from=2020-01-01&date_to=2020-01-01',
  );
  assert.deepEqual(aov.data.data.rows, [{ period: '2020-01-01', average_order_value: 0, revenue: 0, orders: 0 }]);
  const empty = await call(t, demo, 'GET', '/api/v1/insights/top_products/execute?date_from=2020-01-01&date_to=2020-01-31');
  assert.equal(empty.data.data.row_count, 0);
  const kpi = await call(t, demo, 'GET', '/api/v1/insights/orders_kpi/execute?date_from=2020-01-01&date_to=2020-01-31');
  assert.equal(kpi.data.data.rows[0].value, 0);
  assert.equal(kpi.data.data.rows[0].change_pct, null);
});

test('404 for an unknown code, 400 naming the parameter for one the insight does not take or a bad value', async () => {
  const nf = await call(t, demo, 'GET', '/api/v1/insights/nope/execute');
  assert.equal(nf.statusCode, 404);
  assert.equal(nf.data.code, 'NOT_FOUND');
  const cases: [string, string][] = [
    ['revenue/execute?limit=5', '/query/limit'],
    ['revenue/execute?category=Books', '/query/category'],
    ['revenue_by_country/execute?granularity=week', '/query/granularity'],
    ['revenue/execute?granularity=hour', '/query/granularity'],
    ['revenue/execute?country=Germany', '/query/country'],
    ['revenue/execute?channel=fax', '/query/channel'],
    ['revenue/execute?date_from=2026-02-30', '/query/date_from'],
    ['revenue/execute?date_to=yesterday', '/query/date_to'],
    ['revenue/execute?date_from=2026-05-01&date_to=2026-04-01', '/query/date_from'],
    ['revenue/execute?granularity=day&date_from=2000-01-01&date_to=2026-01-01', '/query/date_from'],
    ['top_products/execute?limit=0', '/query/limit'],
    ['top_products/execute?limit=500', '/query/limit'],
    ['revenue/execute?foo=1', '/query/foo'],
  ];
  for (const [q, path] of cases) {
    const r = await call(t, demo, 'GET', `/api/v1/insights/${q}`);
    assert.equal(r.statusCode, 400, `${q}: ${r.body}`);
    assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.ok(
      r.data.errors.some((e: { path: string }) => e.path === path),
      `${q} → ${JSON.stringify(r.data.errors)}`,
    );
  }
  // Lower-case values are normalized rather than refused.
  const ok = await call(t, demo, 'GET', '/api/v1/insights/revenue/execute?country=de&channel=WEB');
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(ok.data.data.filters, { country: 'DE', channel: 'web' });
});

test('compare and repeated filter parameters over HTTP; bad ones are 400s naming the parameter', async () => {
  const res = await call(t, demo, 'GET', '/api/v1/insights/revenue/execute?granularity=month&country=DE&country=FR&compare=previous_year');
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.data.data.filters, { country: ['DE', 'FR'] });
  assert.equal(res.data.data.compare, 'previous_year');
  assert.equal(res.data.data.chart_hint.series, 'country');
  assert.deepEqual(res.data.data.chart_hint.y_axis, ['revenue', 'revenue_previous']);
  assert.equal(res.data.data.rows.length, 24);
  assert.deepEqual(Object.keys(res.data.data.rows[0]), ['period', 'country', 'revenue', 'revenue_previous', 'revenue_change_pct']);
  // One value stays a string, as in the contract.
  const one = await call(t, demo, 'GET', '/api/v1/insights/revenue/execute?country=de');
  assert.deepEqual(one.data.data.filters, { country: 'DE' });
  assert.equal(one.data.data.compare, undefined);
  // Cached apart from the same query without compare.
  const kpi = await call(
    t,
    demo,
    'GET',
    '/api/v1/insights/revenue_kpi/execute?compare=previous_year&date_from=2026-11-01&date_to=2026-11-20',
  );
  assert.deepEqual(kpi.data.data.previous_period, { from: '2025-11-01', to: '2025-11-20' });
  assert.equal(kpi.data.data.rows[0].previous_period_from, '2025-11-01');

  for (const [query, path] of [
    ['compare=last_week', '/query/compare'],
    ['country=DE&country=FR&channel=web&channel=mobile', '/query/channel'],
    [Array.from({ length: 21 }, (_, i) => `country=C${i}`).join('&'), '/query/country'],
  ] as const) {
    const bad = await call(t, demo, 'GET', `/api/v1/insights/revenue/execute?${query}`);
    assert.equal(bad.statusCode, 400, query);
    assert.equal(bad.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.ok(
      bad.data.errors.some((e: { path: string }) => e.path === path),
      `${query}: ${bad.body}`,
    );
  }
});

test('results are cached per tenant and parameters, and a re-seed invalidates them', async () => {
  const url = '/api/v1/insights/revenue/execute?granularity=week&country=FR';
  const first = await call(t, demo, 'GET', url);
  assert.equal(first.data.data.cached, false);
  const second = await call(t, demo, 'GET', url);
  assert.equal(second.data.data.cached, true);
  assert.deepEqual(second.data.data.rows, first.data.data.rows);
  assert.equal((await call(t, demo, 'GET', url + '&channel=web')).data.data.cached, false);
  assert.equal((await call(t, acme, 'GET', url)).data.data.cached, false, 'another tenant never hits');
  // Re-seed with other data: the version changes, so the next answer is computed afresh.
  await seedDemo(t.warehouse, { rows: 3000, tenants: ['demo', 'acme'], endDay: '2026-11-21', now: clock.now() });
  const third = await call(t, demo, 'GET', url);
  assert.equal(third.data.data.cached, false);
  assert.notDeepEqual(third.data.data.rows, first.data.data.rows);
});

test('the service, for chat and schedules: null parameters count as not given; find() and the catalog agree', async () => {
  const insights = t.app.services.insights;
  const r = await insights.execute('demo', 'revenue', { granularity: 'week', country: null, limit: null } as never);
  assert.deepEqual(r.filters, {});
  assert.equal(r.rows.length, 12);
  assert.equal(insights.find('nope'), undefined);
  for (const entry of insights.catalog()) assert.equal(insights.find(entry.code)?.name, entry.name);
  await assert.rejects(insights.execute('demo', 'nope', {}), (e: { code?: string }) => e.code === 'NOT_FOUND');
  await assert.rejects(
    insights.execute('demo', 'revenue', { limit: 3 }),
    (e: { options?: { errors?: { path: string }[] } }) => e.options?.errors?.[0].path === '/query/limit',
  );
});

test("columns carry the model's format: money with its currency and decimals, percent with its decimals", async () => {
  const revenue = (await call(t, demo, 'GET', '/api/v1/insights/revenue/execute?compare=previous_period')).data.data.columns;
  assert.deepEqual(
    revenue.find((c: { name: string }) => c.name === 'revenue'),
    { name: 'revenue', type: 'money', label: 'Revenue', currency: 'EUR', decimals: 0 },
  );
  assert.equal(revenue.find((c: { name: string }) => c.name === 'revenue_previous').currency, 'EUR');
  const kpi = (await call(t, demo, 'GET', '/api/v1/insights/revenue_kpi/execute')).data.data.columns;
  assert.equal(kpi.find((c: { name: string }) => c.name === 'value').currency, 'EUR');
  const refunds = (await call(t, demo, 'GET', '/api/v1/insights/refund_rate/execute')).data.data.columns;
  assert.deepEqual(
    refunds.find((c: { type: string }) => c.type === 'percent'),
    { name: 'refund_rate', type: 'percent', label: 'Refund rate (%)', decimals: 1 },
  );
});

test('identical uncached questions asked at once are read once, and each caller gets the answer', async () => {
  const wh = t.warehouse;
  const reads: string[] = [];
  const query = wh.query.bind(wh);
  wh.query = (sql, params, options) => {
    reads.push(sql);
    return query(sql, params, options);
  };
  try {
    await t.app.services.insights.dataVersion('demo');
    const url = '/api/v1/insights/orders_count/execute?granularity=week&date_from=2026-03-02&date_to=2026-04-26&channel=web';
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(t, demo, 'GET', url)));
    for (const a of answers) assert.equal(a.statusCode, 200);
    assert.deepEqual(new Set(answers.map((a) => JSON.stringify(a.data.data.rows))).size, 1);
    assert.equal(answers[0].data.data.rows.length, 8);
    assert.equal(reads.filter((sql) => /orders/.test(sql) && /GROUP BY/.test(sql)).length, 1, reads.join('\n'));
    // The dimension values chat and the pickers read: one read for concurrent callers too.
    reads.length = 0;
    t.app.services.queries.invalidate();
    const lists = await Promise.all(Array.from({ length: 5 }, () => t.app.services.queries.dimensionValues('acme', 'orders.channel')));
    assert.deepEqual(lists[0], ['marketplace', 'mobile', 'retail', 'web']);
    for (const l of lists) assert.deepEqual(l, lists[0]);
    assert.equal(reads.filter((sql) => /DISTINCT/.test(sql)).length, 1, reads.join('\n'));
  } finally {
    wh.query = query;
  }
});
