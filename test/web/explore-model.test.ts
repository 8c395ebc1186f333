// The Explore page's model helpers, on the demo model as GET /api/v1/model gives it: which cubes
// the chosen measures reach (joins followed transitively, every measure at once), the operators a
// member takes, and the query the form sends (empty parts out, values typed, the URL round trip).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  cleanQuery,
  exploreUrl,
  membersOf,
  type Model,
  operatorsFor,
  queryOfSearch,
  reachableCubes,
  titleOf,
} from '../../web/src/components/explore/model.ts';
import { buildTestApp, call, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let model: Model;
before(async () => {
  t = await buildTestApp();
  const owner = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });
  model = (await call(t, owner, 'GET', '/api/v1/model')).data.data;
});
after(async () => t?.close());

test('the cubes every chosen measure reaches, along many_to_one joins, transitively', () => {
  assert.deepEqual([...reachableCubes(model, ['order_items.units'])].sort(), ['customers', 'order_items', 'orders', 'products']);
  assert.deepEqual([...reachableCubes(model, ['orders.orders'])].sort(), ['customers', 'orders']);
  // Both at once: only what both reach.
  assert.deepEqual([...reachableCubes(model, ['orders.orders', 'order_items.units'])].sort(), ['customers', 'orders']);
  assert.deepEqual([...reachableCubes(model, ['orders.orders', 'web_sessions.sessions'])], []);
  assert.equal(reachableCubes(model, []).size, 0);
});

test('operators by member type, and the query the form sends', () => {
  const members = membersOf(model);
  assert.ok(operatorsFor(members.get('orders.channel')).includes('contains'));
  assert.ok(!operatorsFor(members.get('orders.channel')).includes('gt'));
  assert.ok(operatorsFor(members.get('orders.revenue')).includes('gt'));
  assert.ok(operatorsFor(members.get('orders.ordered_at')).includes('between'));
  const q = cleanQuery(
    {
      measures: ['orders.orders'],
      dimensions: [],
      time: { dimension: 'orders.ordered_at', date_from: '', granularity: undefined },
      filters: [
        { member: 'orders.revenue', operator: 'gt', values: [' 100 '] },
        { member: 'orders.channel', operator: 'not_equals', values: ['web', ''] },
        { member: 'orders.country', operator: 'set', values: ['x'] },
      ],
      segments: [],
      order: [],
      compare: 'previous_year',
    },
    members,
  );
  assert.deepEqual(q, {
    measures: ['orders.orders'],
    time: { dimension: 'orders.ordered_at' },
    filters: [
      { member: 'orders.revenue', operator: 'gt', values: [100] },
      { member: 'orders.channel', operator: 'not_equals', values: ['web'] },
      { member: 'orders.country', operator: 'set' },
    ],
    compare: 'previous_year',
  });
  assert.deepEqual(queryOfSearch(exploreUrl(q).split('?')[1]), q);
  assert.equal(queryOfSearch('q=%7Bnot%20json'), undefined);
  assert.equal(titleOf(members, { measures: ['orders.orders'], dimensions: ['customers.country'] }), 'Orders by Country');
});
