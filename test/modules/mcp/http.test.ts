// The MCP endpoint over Streamable HTTP, driven by the SDK's own client against a real listening
// server: every tool, tenant and role isolation, argument errors, a conversation through ask, and
// the question an agent with a member's token must answer with the same rows as the REST API.
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SignJWT } from 'jose';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, call, JWT_SECRET, type TestApp } from '../../helpers/app.ts';
import { assertSummaryFromRows, callError, callOk, connectHttp, quarterStart, type Row } from './support.ts';

let t: TestApp;
let url: string;
let ownerAuth: string;
let memberAuth: string;
let acmeAuth: string;
let owner: Client;
let member: Client;
let acme: Client;
let dashboardId: string;
let privateDashboardId: string;
let liveWidgetId: string;

const rest = async (auth: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
  const res = await call(t, auth, method, path, body);
  assert.ok(res.statusCode < 300, `${method} ${path}: ${res.statusCode} ${res.body}`);
  return res.data;
};

before(async () => {
  t = await buildTestApp({ env: { INSIGHTS_CHAT_RATE_LIMIT: '100000' } });
  url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  ownerAuth = await t.login({ tenant: 'demo', user: 'olga', role: 'owner' });
  memberAuth = await t.login({ tenant: 'demo', user: 'ann', role: 'member', email: 'ann@demo.example' });
  acmeAuth = await t.login({ tenant: 'acme', user: 'otto', role: 'owner' });
  const dash = await rest(ownerAuth, 'POST', '/api/v1/dashboards/', {
    name: 'Sales',
    is_shared: true,
    global_filter_presets: [{ id: 'de', name: 'Germany', filters: { country: 'DE' } }],
    active_preset_id: 'de',
  });
  dashboardId = dash.id;
  privateDashboardId = (await rest(ownerAuth, 'POST', '/api/v1/dashboards/', { name: 'Board only' })).id;
  liveWidgetId = (
    await rest(ownerAuth, 'POST', `/api/v1/dashboards/${dashboardId}/widgets`, {
      title: 'Revenue by month',
      widget_type: 'chart',
      data_source: 'live_insight',
      insight_code: 'revenue',
      granularity: 'month',
    })
  ).id;
  await rest(ownerAuth, 'POST', `/api/v1/dashboards/${dashboardId}/widgets`, {
    title: 'Desk sales',
    widget_type: 'table',
    data_source: 'snapshot',
    snapshot_data: [{ product: 'Desk', revenue: 1520.5 }],
    snapshot_chart_hint: { type: 'bar', x_axis: 'product', y_axis: ['revenue'] },
  });
  [owner, member, acme] = await Promise.all([connectHttp(url, ownerAuth), connectHttp(url, memberAuth), connectHttp(url, acmeAuth)]);
});

after(async () => {
  await Promise.all([owner, member, acme].map((c) => c?.close()));
  await t?.close();
});

describe('the tools', () => {
  test("are listed with input schemas generated from the model and the caller's data", async () => {
    const { tools } = await member.listTools();
    assert.deepEqual(
      tools.map((x) => x.name),
      ['list_insights', 'describe_model', 'run_insight', 'query', 'ask', 'list_dashboards', 'get_dashboard', 'add_widget'],
    );
    const run = tools.find((x) => x.name === 'run_insight')!.inputSchema as any;
    const codes = (await rest(memberAuth, 'GET', '/api/v1/insights')).map((e: { code: string }) => e.code);
    assert.deepEqual(run.properties.insight_code.enum, codes);
    assert.deepEqual(run.properties.granularity.enum, ['day', 'week', 'month', 'quarter', 'year']);
    assert.deepEqual(run.properties.compare.enum, ['previous_period', 'previous_year']);
    // The model declares the channels; the categories come from this tenant's data (few, so listed).
    const filters = run.properties.filters.properties;
    assert.deepEqual(filters.channel.anyOf[0].enum, ['web', 'mobile', 'marketplace', 'retail']);
    assert.ok(filters.category.anyOf[0].enum.includes('Electronics'));
    assert.equal(filters.country.anyOf[0].enum, undefined, 'country is an open set (ISO codes)');
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name} declares its structured output`);
    }
    assert.equal(tools.find((x) => x.name === 'add_widget')!.annotations?.readOnlyHint, false);
    assert.equal(tools.find((x) => x.name === 'run_insight')!.annotations?.readOnlyHint, true);
  });

  test('list_insights is the REST catalog, measures with units', async () => {
    const { data } = await callOk(member, 'list_insights');
    const catalog = await rest(memberAuth, 'GET', '/api/v1/insights');
    assert.deepEqual(
      data.insights.map((e: { code: string }) => e.code),
      catalog.map((e: { code: string }) => e.code),
    );
    const revenue = data.insights.find((e: { code: string }) => e.code === 'revenue');
    assert.deepEqual(revenue.measures[0], { name: 'revenue', label: 'Revenue', type: 'money', unit: 'currency' });
    const refunds = data.insights.find((e: { code: string }) => e.code === 'refund_rate');
    assert.equal(refunds.measures[0].unit, '%');
  });

  test("describe_model gives today's date, the filters with their values and the measures", async () => {
    const { data, summary } = await callOk(member, 'describe_model');
    assert.equal(data.today, t.clock.now().toISOString().slice(0, 10));
    const country = data.filters.find((f: { name: string }) => f.name === 'country');
    assert.equal(country.values_from, 'data');
    assert.ok(country.values.includes('DE'));
    assert.equal(data.filters.find((f: { name: string }) => f.name === 'channel').values_from, 'model');
    const revenue = data.measures.find((m: { name: string }) => m.name === 'revenue');
    assert.equal(revenue.unit, 'currency');
    assert.ok(revenue.insights.includes('revenue_kpi'), "a KPI's measure is its headline measure");
    assert.ok(!data.measures.some((m: { name: string }) => ['value', 'previous_value', 'change', 'change_pct'].includes(m.name)));
    assert.match(summary, new RegExp(`Today is ${data.today}`));
  });

  test('run_insight answers the rows of GET /api/v1/insights/{code}/execute, with several values, compare and limit', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'revenue',
        { granularity: 'month', filters: { country: ['ES', 'IT'] }, compare: 'previous_year' },
        'granularity=month&country=ES&country=IT&compare=previous_year',
      ],
      ['top_products', { limit: 3, filters: { category: 'Electronics' } }, 'limit=3&category=Electronics'],
      [
        'revenue_by_channel',
        { date_from: '2025-01-01', date_to: '2025-06-30', compare: 'previous_period' },
        'date_from=2025-01-01&date_to=2025-06-30&compare=previous_period',
      ],
      ['orders_kpi', { filters: { channel: 'Web' } }, 'channel=web'],
    ];
    for (const [code, args, query] of cases) {
      const { data, summary } = await callOk(member, 'run_insight', { insight_code: code, ...args });
      const expected = (await rest(memberAuth, 'GET', `/api/v1/insights/${code}/execute?${query}`)).data;
      assert.deepEqual(data.rows, expected.rows, code);
      assert.deepEqual(data.period, expected.period);
      assert.deepEqual(data.chart_hint, expected.chart_hint);
      assert.deepEqual(
        data.columns.map((c: { name: string }) => c.name),
        expected.columns.map((c: { name: string }) => c.name),
      );
      assert.ok(data.rows.length > 0, `${code} has rows`);
      assertSummaryFromRows(summary, data.rows, [data.insight_name, ...data.columns.map((c: { label: string }) => c.label)]);
    }
  });

  test('ask is the chat, and a follow-up with its history_id changes the last query', async () => {
    const first = await callOk(member, 'ask', { message: 'revenue by week in Germany last quarter' });
    assert.equal(first.data.insight_code, 'revenue');
    assert.deepEqual(first.data.query.filters, { country: 'DE' });
    assertSummaryFromRows(first.summary, first.data.rows, ['Revenue', 'Revenue, previous year']);
    const follow = await callOk(member, 'ask', { message: 'and in France?', history_id: first.data.history_id });
    assert.equal(follow.data.history_id, first.data.history_id);
    assert.deepEqual(follow.data.query.filters, { country: 'FR' });
    assert.equal(follow.data.query.granularity, 'week');
    const q = follow.data.query;
    const expected = (
      await rest(
        memberAuth,
        'GET',
        `/api/v1/insights/revenue/execute?granularity=week&country=FR&date_from=${q.date_from}&date_to=${q.date_to}`,
      )
    ).data;
    assert.deepEqual(follow.data.rows, expected.rows);
    assert.deepEqual(
      follow.data.columns.map((c: { name: string }) => c.name),
      ['period', 'revenue'],
    );
    // Another user's conversation of the same id is not theirs to continue.
    const other = await callOk(owner, 'ask', { message: 'and in France?', history_id: first.data.history_id });
    assert.equal(other.data.insight_code, null);
  });

  test('a question the model cannot answer is a reply without rows, not an error', async () => {
    const { data, summary } = await callOk(member, 'ask', { message: 'return on ad spend by campaign' });
    assert.equal(data.insight_code, null);
    assert.deepEqual(data.rows, []);
    assert.equal(summary, data.reply_text);
  });

  test('list_dashboards and get_dashboard show what the caller may view, with current data', async () => {
    const { data: list } = await callOk(member, 'list_dashboards');
    assert.deepEqual(
      list.dashboards.map((d: { name: string }) => d.name),
      ['Sales'],
      'the member sees the shared dashboard only',
    );
    const { data: all } = await callOk(owner, 'list_dashboards', { limit: 1 });
    assert.equal(all.dashboards.length, 1);
    assert.ok(all.next_cursor);
    const { data: next } = await callOk(owner, 'list_dashboards', { limit: 1, cursor: all.next_cursor });
    assert.deepEqual([...all.dashboards, ...next.dashboards].map((d: { name: string }) => d.name).sort(), ['Board only', 'Sales']);

    const { data, summary } = await callOk(member, 'get_dashboard', { dashboard_id: dashboardId });
    assert.equal(data.dashboard.name, 'Sales');
    assert.deepEqual(
      data.widgets.map((w: { title: string }) => w.title),
      ['Revenue by month', 'Desk sales'],
    );
    const refreshed = (await rest(ownerAuth, 'POST', `/api/v1/dashboards/${dashboardId}/widgets/${liveWidgetId}/refresh`, {})).data;
    assert.deepEqual(data.widgets[0].rows, refreshed.rows);
    assert.deepEqual(data.widgets[0].filters, { country: 'DE' }, "the dashboard's active preset applies");
    assert.equal(data.widgets[0].granularity, 'month');
    assert.deepEqual(data.widgets[1].rows, [{ product: 'Desk', revenue: 1520.5 }]);
    assert.equal(data.widgets[1].columns.find((c: { name: string }) => c.name === 'revenue').type, 'number');
    assertSummaryFromRows(
      summary,
      [...data.widgets[0].rows, ...data.widgets[1].rows],
      ['Sales', 'Revenue by month', 'Desk sales', 'Revenue'],
    );

    const hidden = await callError(member, 'get_dashboard', { dashboard_id: privateDashboardId });
    assert.equal(hidden, 'NOT_FOUND: dashboard_id: Dashboard not found');
  });

  test('add_widget stores a snapshot of the result for owners; a member gets the REST refusal', async () => {
    const query = { insight_code: 'revenue_by_country', filters: { channel: 'web' } };
    const { data, summary } = await callOk(owner, 'add_widget', { dashboard_id: dashboardId, query, question: 'Web revenue by country' });
    assert.equal(data.widget.data_source, 'snapshot');
    assert.equal(data.widget.title, 'Revenue by country');
    assert.equal(data.widget.widget_type, 'chart');
    assert.match(summary, /^Added "Revenue by country"/);
    const stored = (await rest(ownerAuth, 'GET', `/api/v1/dashboards/${dashboardId}`)).widgets.find(
      (w: { id: string }) => w.id === data.widget.id,
    );
    const expected = (await rest(ownerAuth, 'GET', '/api/v1/insights/revenue_by_country/execute?channel=web')).data;
    assert.deepEqual(stored.snapshot_data, expected.rows);
    assert.equal(stored.snapshot_question, 'Web revenue by country');

    const refused = await callError(member, 'add_widget', { dashboard_id: dashboardId, query });
    const viaRest = await call(t, memberAuth, 'POST', `/api/v1/dashboards/${dashboardId}/widgets`, {
      title: 'x',
      widget_type: 'table',
      data_source: 'snapshot',
      snapshot_data: [],
    });
    assert.equal(viaRest.statusCode, 403);
    assert.equal(refused, `FORBIDDEN: ${viaRest.data.detail}`);
    const count = (await rest(ownerAuth, 'GET', `/api/v1/dashboards/${dashboardId}`)).widgets.length;
    assert.equal(count, 3, 'nothing was added by the refused call');
  });
});

describe('isolation', () => {
  test("tenant A's token never sees tenant B's rows or dashboards", async () => {
    const args = { insight_code: 'revenue', granularity: 'month' };
    const demoRows = (await callOk(member, 'run_insight', args)).data.rows as Row[];
    const acmeRows = (await callOk(acme, 'run_insight', args)).data.rows as Row[];
    assert.deepEqual(acmeRows, (await rest(acmeAuth, 'GET', '/api/v1/insights/revenue/execute?granularity=month')).data.rows);
    assert.notDeepEqual(acmeRows, demoRows);
    const { data } = await callOk(acme, 'list_dashboards');
    assert.deepEqual(data.dashboards, []);
    assert.equal(await callError(acme, 'get_dashboard', { dashboard_id: dashboardId }), 'NOT_FOUND: dashboard_id: Dashboard not found');
    assert.equal(
      await callError(acme, 'add_widget', { dashboard_id: dashboardId, query: args }),
      'NOT_FOUND: dashboard_id: Dashboard not found',
    );
    // The values offered in acme's schemas are acme's own.
    const { data: model } = await callOk(acme, 'describe_model');
    const acmeCategories = model.filters.find((f: { name: string }) => f.name === 'category').values;
    const tenYears = new Date(t.clock.now().getTime() - 3600 * 86_400_000).toISOString().slice(0, 10);
    const acmeTop = (await rest(acmeAuth, 'GET', `/api/v1/insights/top_categories/execute?date_from=${tenYears}&limit=100`)).data.rows.map(
      (r: Row) => r.category,
    );
    assert.deepEqual(acmeCategories, [...new Set(acmeTop)].sort());
  });

  test('a JWT works as an API token does; no credentials is an HTTP 401, not a session', async () => {
    const jwt = await new SignJWT({ tenant_id: 'acme', role: 'member', name: 'Jo' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('jo')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(JWT_SECRET));
    const client = await connectHttp(url, `Bearer ${jwt}`);
    const { data } = await callOk(client, 'run_insight', { insight_code: 'orders_kpi' });
    assert.deepEqual(data.rows, (await rest(acmeAuth, 'GET', '/api/v1/insights/orders_kpi/execute')).data.rows);
    await client.close();
    await assert.rejects(connectHttp(url), /401|Unauthorized|Authentication/i);
  });
});

describe('argument errors are tool errors naming the argument', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['run_insight', {}, /^VALIDATION_FAILED: insight_code: is required$/],
    ['run_insight', { insight_code: 'profit' }, /^VALIDATION_FAILED: insight_code: must be one of: revenue, /],
    ['run_insight', { insight_code: 'revenue', granularity: 'hour' }, /^VALIDATION_FAILED: granularity: must be one of: day, week/],
    ['run_insight', { insight_code: 'revenue', colour: 'red' }, /^VALIDATION_FAILED: colour: is not an argument of this tool$/],
    [
      'run_insight',
      { insight_code: 'revenue', filters: { channel: ['web', 'tv'] } },
      /^VALIDATION_FAILED: filters\.channel\[1\]: must be one of: web, mobile, marketplace, retail$/,
    ],
    [
      'run_insight',
      { insight_code: 'revenue', filters: { country: 5 } },
      /^VALIDATION_FAILED: filters\.country: must be a value or a list of values$/,
    ],
    ['run_insight', { insight_code: 'revenue', date_from: '2026-13-01' }, /^VALIDATION_FAILED: date_from: must be a date YYYY-MM-DD$/],
    [
      'run_insight',
      { insight_code: 'revenue', date_from: '2026-02-01', date_to: '2026-01-01' },
      /^VALIDATION_FAILED: date_from: must not be after date_to$/,
    ],
    [
      'run_insight',
      { insight_code: 'revenue', filters: { category: 'Books' } },
      /^VALIDATION_FAILED: filters\.category: is not a parameter of insight revenue/,
    ],
    [
      'run_insight',
      { insight_code: 'revenue_by_country', granularity: 'week' },
      /^VALIDATION_FAILED: granularity: is not a parameter of insight revenue_by_country/,
    ],
    ['run_insight', { insight_code: 'top_products', limit: 5000 }, /^VALIDATION_FAILED: limit: must be an integer from 1 to /],
    ['ask', { message: '' }, /^VALIDATION_FAILED: message: must NOT have fewer than 1 characters$/],
    ['get_dashboard', { dashboard_id: 'x' }, /^VALIDATION_FAILED: dashboard_id: must match pattern/],
    ['list_dashboards', { limit: 0 }, /^VALIDATION_FAILED: limit: must be >= 1$/],
    [
      'add_widget',
      { dashboard_id: '01900000-0000-7000-8000-000000000000', query: { insight_code: 'revenue', date_to: 'soon' } },
      /^NOT_FOUND: dashboard_id: Dashboard not found$/,
    ],
  ];
  for (const [tool, args, expected] of cases) {
    test(`${tool} ${JSON.stringify(args)}`, async () => {
      assert.match(await callError(member, tool, args), expected);
    });
  }

  test("a bad argument of add_widget's query is named under query", async () => {
    const text = await callError(owner, 'add_widget', { dashboard_id: dashboardId, query: { insight_code: 'revenue', date_to: 'soon' } });
    assert.equal(text, 'VALIDATION_FAILED: query.date_to: must be a date YYYY-MM-DD');
  });

  test('an unknown tool is a protocol error (invalid params)', async () => {
    await assert.rejects(member.callTool({ name: 'drop_tables', arguments: {} }), /-32602.*Unknown tool "drop_tables"/);
  });
});

describe("done: a member's agent answers from the tools alone", () => {
  test('"what was revenue in Germany by week this quarter, compared with last year?" gives the REST rows', async () => {
    // The agent reads the date, picks the insight and the filter value from the tools…
    const { data: model } = await callOk(member, 'describe_model');
    const today: string = model.today;
    assert.ok(model.filters.find((f: { name: string }) => f.name === 'country').values.includes('DE'));
    const { data: catalog } = await callOk(member, 'list_insights');
    const insight = catalog.insights.find(
      (e: { kind: string; measures: { label: string }[]; granularities: string[]; filters: string[] }) =>
        e.kind === 'timeseries' && e.measures[0].label === 'Revenue' && e.granularities.includes('week') && e.filters.includes('country'),
    );
    assert.equal(insight.code, 'revenue');
    const args = {
      insight_code: insight.code,
      granularity: 'week',
      filters: { country: ['DE'] },
      date_from: quarterStart(today),
      date_to: today,
      compare: 'previous_year',
    };
    const { data, summary } = await callOk(member, 'run_insight', args);

    // …and gets exactly what the REST API answers the same member.
    const query = `granularity=week&country=DE&date_from=${quarterStart(today)}&date_to=${today}&compare=previous_year`;
    const expected = (await rest(memberAuth, 'GET', `/api/v1/insights/revenue/execute?${query}`)).data;
    assert.deepEqual(data.rows, expected.rows);
    assert.deepEqual(data.previous_period, expected.previous_period);
    assert.ok(data.rows.length >= 1 && data.rows.every((r: Row) => 'revenue_previous' in r && 'revenue_change_pct' in r));
    assertSummaryFromRows(summary, data.rows, ['Revenue']);

    // The same question in words, through ask, runs that query and gives those rows too.
    const question = 'what was revenue in Germany by week this quarter, compared with last year?';
    const asked = await callOk(member, 'ask', { message: question });
    assert.deepEqual(asked.data.query, {
      insight_code: 'revenue',
      granularity: 'week',
      filters: { country: 'DE' },
      date_from: quarterStart(today),
      date_to: today,
      compare: 'previous_year',
    });
    assert.deepEqual(asked.data.rows, expected.rows);
    const chat = (await rest(memberAuth, 'POST', '/api/v1/ai/chat', { message: question })).data;
    assert.deepEqual(asked.data.rows, chat.rows);
    assertSummaryFromRows(asked.summary, asked.data.rows, ['Revenue']);
  });
});
