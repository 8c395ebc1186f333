// The MCP query tool and describe_model's members, through the SDK's own client against a real
// listening server: the same JSON and rules as POST /api/v1/query, the same rows, argument errors
// named, tenants apart.
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { after, before, test } from 'node:test';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { assertSummaryFromRows, callError, callOk, connectHttp, type Row } from './support.ts';

let t: TestApp;
let owner: Client;
let acme: Client;
let ownerAuth: string;

before(async () => {
  t = await buildTestApp();
  const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  ownerAuth = await t.login({ tenant: 'demo', user: 'olga', role: 'owner' });
  owner = await connectHttp(url, ownerAuth);
  acme = await connectHttp(url, await t.login({ tenant: 'acme', user: 'otto', role: 'member' }));
});
after(async () => {
  await owner?.close();
  await acme?.close();
  await t.close();
});

const QUERY = {
  measures: ['orders.orders', 'orders.average_order_value'],
  dimensions: ['orders.channel'],
  filters: [{ member: 'orders.country', operator: 'not_equals', values: ['DE'] }],
  time: { dimension: 'orders.ordered_at', date_from: '2026-01-01', date_to: '2026-06-30' },
};

test('the query tool answers with the rows POST /api/v1/query gives, and a summary of those cells', async () => {
  const { data, summary } = await callOk(owner, 'query', QUERY);
  const rest = await call(t, ownerAuth, 'POST', '/api/v1/query', QUERY);
  assert.equal(rest.statusCode, 200, rest.body);
  assert.deepEqual(data.rows, rest.data.data.rows);
  assert.deepEqual(data.query, rest.data.data.query);
  assert.equal(data.total_rows, rest.data.data.total_rows);
  assert.equal(data.columns.find((c: { name: string }) => c.name === 'orders.average_order_value').unit, 'currency');
  assertSummaryFromRows(
    summary,
    data.rows as Row[],
    data.columns.map((c: { label: string }) => c.label),
  );
  // Another tenant's answer is its own.
  const other = await callOk(acme, 'query', QUERY);
  assert.notDeepEqual(other.data.rows, data.rows);
});

test('the tool lists the members as enums, and a bad argument is named', async () => {
  const tools = await owner.listTools();
  const tool = tools.tools.find((x) => x.name === 'query')!;
  const props = tool.inputSchema.properties as Record<string, any>;
  assert.ok(props.measures.items.enum.includes('order_items.revenue'));
  assert.ok(props.dimensions.items.enum.includes('products.category'));
  assert.ok(!props.dimensions.items.enum.includes('orders.ordered_at'), 'time dimensions group through time');
  assert.ok(props.time.properties.dimension.enum.includes('orders.ordered_at'));
  assert.match(await callError(owner, 'query', { measures: ['orders.nope'] }), /measures\[0\]/);
  const unreachable = await callError(owner, 'query', { measures: ['web_sessions.sessions'], dimensions: ['products.category'] });
  assert.match(unreachable, /dimensions\[0\].*not reachable/);
});

test('describe_model lists every member a query may name', async () => {
  const { data } = await callOk(owner, 'describe_model');
  const orders = data.cubes.find((c: { name: string }) => c.name === 'orders');
  assert.ok(orders.measures.some((m: { name: string }) => m.name === 'orders.average_order_value'));
  assert.ok(orders.dimensions.some((d: { name: string; type: string }) => d.name === 'orders.ordered_at' && d.type === 'time'));
  assert.ok(orders.joins.some((j: { cube: string }) => j.cube === 'customers'));
});

test('run_insight on a cohort insight and a rolling series: the rows of execute, a summary of their cells', async () => {
  const args = { insight_code: 'customer_retention', date_from: '2026-01-01', date_to: '2026-06-30' };
  const { data, summary } = await callOk(owner, 'run_insight', args);
  const rest = await call(t, ownerAuth, 'GET', '/api/v1/insights/customer_retention/execute?date_from=2026-01-01&date_to=2026-06-30');
  assert.equal(rest.statusCode, 200, rest.body);
  assert.deepEqual(data.rows, rest.data.data.rows);
  assert.match(
    summary,
    /^Customer retention: cohorts from 2026-01-01 to 2026-06-01; one period after their start, the 2026-\d\d-01 cohort/,
  );
  assertSummaryFromRows(
    summary,
    data.rows as Row[],
    data.columns.map((c: { label: string }) => c.label),
  );
  const trend = await callOk(owner, 'run_insight', { insight_code: 'rolling_revenue', granularity: 'month' });
  assert.ok(trend.data.rows.length >= 12);
  assertSummaryFromRows(
    trend.summary,
    trend.data.rows as Row[],
    trend.data.columns.map((c: { label: string }) => c.label),
  );
});
