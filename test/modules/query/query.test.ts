// POST /api/v1/query and GET /api/v1/model on the demo shop through the HTTP API: a query answers
// what execute answers for the same question (same numbers), every bad input is a 400 naming its
// field, access filters hold as on execute, and the model says what may be asked.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { rowAccessModel } from '../../helpers/row-access.ts';

const clock = new ManualClock(new Date('2026-11-21T09:30:00Z'));
let t: TestApp;
let auth: string;
let member: string;

before(async () => {
  t = await buildTestApp({ clock });
  auth = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });
  member = await t.login({ tenant: 'demo', user: 'm', role: 'member' });
});
after(() => t.close());

const query = (body: unknown, as = auth) => call(t, as, 'POST', '/api/v1/query', body);
const execute = async (code: string, params: Record<string, string> = {}) => {
  const res = await call(t, auth, 'GET', `/api/v1/insights/${code}/execute?${new URLSearchParams(params)}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.data.data;
};

test('a query and the insight that means the same give the same numbers', async () => {
  // A time series: every day of the window, zero-filled, in order.
  const window = { date_from: '2026-10-01', date_to: '2026-10-31' };
  const revenue = await execute('revenue', { granularity: 'day', country: 'DE', ...window });
  const byDay = await query({
    measures: ['orders.revenue'],
    time: { dimension: 'orders.ordered_at', granularity: 'day', ...window },
    filters: [{ member: 'orders.country', operator: 'equals', values: ['DE'] }],
  });
  assert.equal(byDay.statusCode, 200, byDay.body);
  assert.deepEqual(
    byDay.data.data.rows.map((r: any) => [r['orders.ordered_at'], r['orders.revenue']]),
    revenue.rows.map((r: any) => [r.period, r.revenue]),
  );
  assert.equal(byDay.data.data.rows.length, 31);

  // A breakdown with a number measure, and a top list over a joined cube.
  const aov = await execute('average_order_value', { granularity: 'month', ...window });
  const aovQ = await query({
    measures: ['orders.average_order_value'],
    time: { dimension: 'orders.ordered_at', granularity: 'month', ...window },
  });
  assert.deepEqual(aovQ.data.data.rows[0]['orders.average_order_value'], aov.rows[0].average_order_value);
  const top = await execute('top_products', { limit: '5', ...window });
  const topQ = await query({
    measures: ['order_items.revenue', 'order_items.units'],
    dimensions: ['products.product_id', 'products.product_name', 'products.category', 'products.brand'],
    time: { dimension: 'orders.ordered_at', ...window },
    limit: 5,
  });
  assert.equal(topQ.statusCode, 200, topQ.body);
  assert.deepEqual(
    topQ.data.data.rows.map((r: any) => [r['products.product_name'], r['order_items.revenue'], r['order_items.units']]),
    top.rows.map((r: any) => [r.product_name, r.revenue, r.units]),
  );

  // A KPI: the window against the previous one, as compare on a query without groups.
  const kpi = await execute('revenue_kpi', { date_from: '2026-10-01', date_to: '2026-10-31' });
  const kpiQ = await query({
    measures: ['orders.revenue'],
    time: { dimension: 'orders.ordered_at', date_from: '2026-10-01', date_to: '2026-10-31' },
    compare: 'previous_period',
  });
  assert.deepEqual(kpiQ.data.data.rows, [{ 'orders.revenue': kpi.rows[0].value, 'orders.revenue.previous': kpi.rows[0].previous_value }]);
});

test('any measure by any reachable dimension, though no insight pairs them', async () => {
  const res = await query({
    measures: ['orders.orders', 'orders.average_order_value'],
    dimensions: ['orders.channel', 'customers.country'],
    time: { dimension: 'orders.ordered_at', date_from: '2026-01-01', date_to: '2026-10-31' },
    order: [{ member: 'orders.orders', direction: 'desc' }],
    limit: 4,
  });
  assert.equal(res.statusCode, 200, res.body);
  const d = res.data.data;
  assert.equal(d.rows.length, 4);
  assert.ok(d.total_rows > 4);
  assert.deepEqual(Object.keys(d.rows[0]), ['orders.channel', 'customers.country', 'orders.orders', 'orders.average_order_value']);
  for (let i = 1; i < d.rows.length; i++) assert.ok(d.rows[i - 1]['orders.orders'] >= d.rows[i]['orders.orders']);
  // The orders of those groups, counted by hand in the warehouse.
  const [first] = d.rows;
  const [{ n }] = await t.warehouse.query(
    `SELECT count(*) AS n FROM orders o JOIN customers c ON c.customer_id = o.customer_id AND c.tenant_id = o.tenant_id
     WHERE o.tenant_id = 'demo' AND o.status = 'completed' AND o.channel = $1 AND c.country = $2
       AND o.ordered_at >= TIMESTAMP '2026-01-01' AND o.ordered_at < TIMESTAMP '2026-11-01'`,
    [first['orders.channel'], first['customers.country']],
  );
  assert.equal(first['orders.orders'], Number(n));
});

test('a segment narrows every measure to its rows: settled orders become completed ones, refunds none', async () => {
  const window = { dimension: 'orders.ordered_at', date_from: '2026-01-01', date_to: '2026-10-31' };
  const measures = ['orders.settled_orders', 'orders.refunded_orders', 'orders.orders'];
  const body = { measures, dimensions: ['orders.channel'], time: window, order: [{ member: 'orders.channel', direction: 'asc' }] };
  const plain = await query(body);
  const segmented = await query({ ...body, segments: ['orders.completed'] });
  assert.equal(plain.statusCode, 200, plain.body);
  assert.equal(segmented.statusCode, 200, segmented.body);
  // Without the segment some channel has refunds; with it, none does, and settled = completed.
  assert.ok(
    plain.data.data.rows.some((r: any) => r['orders.refunded_orders'] > 0),
    plain.body,
  );
  assert.deepEqual(
    segmented.data.data.rows.map((r: any) => r['orders.channel']),
    plain.data.data.rows.map((r: any) => r['orders.channel']),
  );
  for (const r of segmented.data.data.rows) {
    assert.equal(r['orders.refunded_orders'], 0, JSON.stringify(r));
    assert.equal(r['orders.settled_orders'], r['orders.orders'], JSON.stringify(r));
  }
  // The segmented counts, counted by hand in the warehouse.
  const counted = await t.warehouse.query(
    `SELECT channel, count(*) AS n FROM orders WHERE tenant_id = 'demo' AND status = 'completed'
       AND ordered_at >= TIMESTAMP '2026-01-01' AND ordered_at < TIMESTAMP '2026-11-01' GROUP BY channel ORDER BY channel`,
  );
  assert.deepEqual(
    segmented.data.data.rows.map((r: any) => [r['orders.channel'], r['orders.settled_orders']]),
    counted.map((r) => [r.channel, Number(r.n)]),
  );
});

test('every bad input is a 400 naming its field and saying why', async () => {
  const cases: [unknown, string, RegExp][] = [
    [{ measures: ['orders.nope'] }, '/body/measures/0', /not a measure of cube orders/],
    [{ measures: ['nope.revenue'] }, '/body/measures/0', /not a cube/],
    [{ measures: ['orders.country'] }, '/body/measures/0', /is a dimension, not a measure/],
    [{ measures: ['orders.revenue'], dimensions: ['orders.ordered_at'] }, '/body/dimensions/0', /time dimension/],
    [{ measures: ['web_sessions.sessions'], dimensions: ['products.category'] }, '/body/dimensions/0', /not reachable/],
    [{ measures: ['orders.revenue'], time: { dimension: 'orders.country' } }, '/body/time/dimension', /not a time dimension/],
    [
      { measures: ['orders.revenue'], filters: [{ member: 'orders.channel', operator: 'gt', values: [3] }] },
      '/body/filters/0/operator',
      /does not apply/,
    ],
    [
      { measures: ['orders.revenue'], filters: [{ member: 'orders.revenue', operator: 'gt', values: ['lots'] }] },
      '/body/filters/0/values/0',
      /number/,
    ],
    [
      { measures: ['orders.revenue'], filters: [{ member: 'orders.revenue', operator: 'between', values: [1] }] },
      '/body/filters/0/values',
      /2 values/,
    ],
    [
      { measures: ['orders.revenue'], filters: [{ member: 'orders.country', operator: 'set', values: ['x'] }] },
      '/body/filters/0/values',
      /no values/,
    ],
    [
      { measures: ['orders.revenue'], filters: [{ member: 'orders.ordered_at', operator: 'gte', values: ['2026-02-30'] }] },
      '/body/filters/0/values/0',
      /date/,
    ],
    [
      { measures: ['orders.revenue'], filters: [{ member: 'orders.country', operator: 'equals', values: ['Germany'] }] },
      '/body/filters/0/values/0',
      /./,
    ],
    [{ measures: ['orders.revenue'], order: [{ member: 'orders.country' }] }, '/body/order/0/member', /not a measure, dimension/],
    [{ measures: ['orders.revenue'], compare: 'previous_year' }, '/body/compare', /window/],
    [{ measures: ['orders.revenue'], segments: ['orders.revenue'] }, '/body/segments/0', /is a measure, not a segment/],
    [
      { measures: ['orders.revenue'], time: { dimension: 'orders.ordered_at', date_from: '2026-05-01', date_to: '2026-04-01' } },
      '/body/time/date_from',
      /after/,
    ],
    [
      { measures: ['orders.revenue'], time: { dimension: 'orders.ordered_at', granularity: 'day', date_from: '1990-01-01' } },
      '/body/time/date_from',
      /3660 days/,
    ],
    // The schema's own refusals, before the handler: unknown fields, limits, operators.
    [{ measures: ['orders.revenue'], limit: 0 }, '/body/limit', /./],
    [{ measures: [] }, '/body/measures', /./],
    [{ measures: ['orders.revenue'], colour: 'red' }, '/body/colour', /./],
    [
      { measures: ['orders.revenue'], filters: [{ member: 'orders.country', operator: 'like', values: ['D%'] }] },
      '/body/filters/0/operator',
      /./,
    ],
  ];
  for (const [body, path, message] of cases) {
    const res = await query(body);
    assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    const e = res.data.errors?.find((x: { path: string }) => x.path === path);
    assert.ok(e, `${JSON.stringify(body)} names ${path}: ${res.body}`);
    assert.match(e.message, message, JSON.stringify(body));
  }
});

test('text filters compare in any case, take a caller % or _ as text, and negative ones keep rows without a value', async () => {
  const total = async (filters: unknown[]) => {
    const res = await query({ measures: ['orders.orders'], filters });
    assert.equal(res.statusCode, 200, res.body);
    return res.data.data.rows[0]['orders.orders'] as number;
  };
  const all = await total([]);
  const web = await total([{ member: 'orders.channel', operator: 'equals', values: ['web'] }]);
  assert.equal(await total([{ member: 'orders.channel', operator: 'contains', values: ['WE'] }]), web);
  assert.equal(await total([{ member: 'orders.channel', operator: 'starts_with', values: ['We'] }]), web);
  assert.equal(await total([{ member: 'orders.channel', operator: 'not_equals', values: ['web'] }]), all - web);
  assert.equal(await total([{ member: 'orders.channel', operator: 'not_contains', values: ['eb'] }]), all - web);
  assert.equal(await total([{ member: 'orders.channel', operator: 'contains', values: ['%'] }]), 0);
  assert.equal(await total([{ member: 'orders.channel', operator: 'contains', values: ['_'] }]), 0);
  assert.equal(await total([{ member: 'orders.channel', operator: 'set' }]), all);
  assert.equal(await total([{ member: 'orders.channel', operator: 'not_set' }]), 0);
  // Values are compared as the dimension's rules say (country is upper case).
  assert.equal(
    await total([{ member: 'orders.country', operator: 'equals', values: ['de'] }]),
    await total([{ member: 'orders.country', operator: 'equals', values: ['DE'] }]),
  );
});

test('GET /api/v1/model lists what a query may name; a dimension lists its values in the caller data', async () => {
  const res = await call(t, member, 'GET', '/api/v1/model');
  assert.equal(res.statusCode, 200, res.body);
  const orders = res.data.data.cubes.find((c: { name: string }) => c.name === 'orders');
  const revenue = orders.measures.find((m: { name: string }) => m.name === 'orders.revenue');
  assert.equal(revenue.format, 'money');
  assert.equal(revenue.titles.de, 'Umsatz');
  assert.ok(revenue.synonyms.includes('sales'));
  const country = orders.dimensions.find((d: { name: string }) => d.name === 'orders.country');
  assert.equal(country.values_listable, true);
  assert.ok(orders.joins.some((j: { cube: string }) => j.cube === 'customers'));
  assert.ok(res.data.data.insights.some((i: { code: string }) => i.code === 'revenue'));

  const values = await call(t, member, 'GET', '/api/v1/model/dimensions/orders.channel/values');
  assert.deepEqual(values.data, ['marketplace', 'mobile', 'retail', 'web']);
  const some = await call(t, member, 'GET', '/api/v1/model/dimensions/orders.channel/values?q=MOB');
  assert.deepEqual(some.data, ['mobile']);
  assert.equal((await call(t, member, 'GET', '/api/v1/model/dimensions/orders.nope/values')).statusCode, 404);
  const time = await call(t, member, 'GET', '/api/v1/model/dimensions/orders.ordered_at/values');
  assert.equal(time.statusCode, 400, time.body);
  assert.equal(time.data.errors[0].path, '/params/member');
});

test('the query and model routes are in the OpenAPI document with their statuses', async () => {
  const doc = (await call(t, undefined, 'GET', '/api/v1/openapi.json')).data;
  const post = doc.paths['/api/v1/query'].post;
  for (const status of ['200', '400', '401', '403', '409', '503']) assert.ok(post.responses[status], `POST /api/v1/query ${status}`);
  assert.ok(post.requestBody.content['application/json'].schema);
  assert.ok(doc.paths['/api/v1/model'].get.responses['200']);
  assert.ok(doc.paths['/api/v1/model/dimensions/{member}/values'].get.responses['404']);
});

test('row-level access holds for queries as for execute', async () => {
  const r = await buildTestApp({ clock, deps: { model: rowAccessModel() } });
  try {
    const owner = await r.login({ tenant: 'demo', user: 'owner', role: 'owner' });
    const res = await call(r, owner, 'POST', '/api/v1/auth/tokens', {
      name: 'de',
      user_id: 'de',
      role: 'member',
      attributes: { country: 'DE' },
    });
    assert.equal(res.statusCode, 201, res.body);
    const de = `Svc ${res.data.token}`;
    const mine = await call(r, de, 'POST', '/api/v1/query', { measures: ['orders.revenue'], dimensions: ['orders.country'] });
    assert.equal(mine.statusCode, 200, mine.body);
    assert.deepEqual(
      mine.data.data.rows.map((x: any) => x['orders.country']),
      ['DE'],
    );
    const theirs = await call(r, de, 'POST', '/api/v1/query', {
      measures: ['orders.revenue'],
      filters: [{ member: 'orders.country', operator: 'equals', values: ['FR'] }],
    });
    assert.equal(theirs.statusCode, 403, theirs.body);
    assert.equal(theirs.data.errors[0].path, '/body/filters/0/values');
    const values = await call(r, de, 'GET', '/api/v1/model/dimensions/orders.country/values');
    assert.deepEqual(values.data, ['DE']);
  } finally {
    await r.close();
  }
});
