// `insights mcp` on stdin/stdout, spawned as a desktop assistant would spawn it (the real CLI,
// bin/insights.js, on a data dir) and driven by the SDK's own stdio client: the same tools, the
// same rows as the REST API of a server on that data dir, roles and tenants apart, argument errors
// as tool errors; and the --url bridge to a running server.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  childEnv,
  EMBEDDED_ONLY,
  lastLine,
  migratedDataDir,
  ROOT,
  runCli,
  startServer,
  type RunningServer,
} from '../../helpers/process.ts';
import { assertSummaryFromRows, callError, callOk, quarterStart } from './support.ts';

const BIN = path.join(ROOT, 'bin/insights.js');

let dataDir: string;
const tokens: Record<'owner' | 'member' | 'acme', string> = { owner: '', member: '', acme: '' };
let dashboardId: string;
let server: RunningServer | undefined;

/** The REST answers a server on the same data dir gives, fetched while it runs. */
const restRows: Record<string, unknown> = {};

async function rest(token: string, method: string, pathname: string, body?: unknown) {
  const res = await fetch(`${server!.url}${pathname}`, {
    method,
    headers: { authorization: `Svc ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, data: (await res.json()) as any };
}

/** A session with `insights mcp` as a child process; its stderr is kept for failure messages. */
async function stdioClient(token: string, args: string[] = []): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    cwd: ROOT,
    env: childEnv({ INSIGHTS_DATA_DIR: dataDir, INSIGHTS_TOKEN: token }) as Record<string, string>,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d) => (err += d));
  const client = new Client({ name: 'insights-stdio-test', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`insights mcp did not start: ${(e as Error).message}\n${err}`);
  }
  await client.listTools();
  return { client, stderr: () => err };
}

const today = () => new Date().toISOString().slice(0, 10);
const doneArgs = () => ({
  insight_code: 'revenue',
  granularity: 'week',
  filters: { country: ['DE'] },
  date_from: quarterStart(today()),
  date_to: today(),
  compare: 'previous_year',
});
const doneQuery = () => `granularity=week&country=DE&date_from=${quarterStart(today())}&date_to=${today()}&compare=previous_year`;

before(async () => {
  if (EMBEDDED_ONLY) return;
  dataDir = await migratedDataDir('insights-mcp-');
  const seeded = await runCli(['demo', 'seed', '--rows', '4000'], { INSIGHTS_DATA_DIR: dataDir });
  assert.equal(seeded.code, 0, seeded.stderr);
  for (const [key, tenant, role] of [
    ['owner', 'demo', 'owner'],
    ['member', 'demo', 'member'],
    ['acme', 'acme', 'owner'],
  ] as const) {
    const res = await runCli(['token', 'create', '--tenant', tenant, '--user', key, '--role', role], { INSIGHTS_DATA_DIR: dataDir });
    assert.equal(res.code, 0, res.stderr);
    tokens[key] = lastLine(res.stdout);
  }
  // What the REST API answers on this data dir, and a shared dashboard, before the server stops.
  server = await startServer(dataDir);
  dashboardId = (await rest(tokens.owner, 'POST', '/api/v1/dashboards/', { name: 'Sales', is_shared: true })).data.id;
  restRows.done = (await rest(tokens.member, 'GET', `/api/v1/insights/revenue/execute?${doneQuery()}`)).data.data.rows;
  restRows.acme = (await rest(tokens.acme, 'GET', '/api/v1/insights/revenue/execute?granularity=month')).data.data.rows;
  const refused = await rest(tokens.member, 'POST', `/api/v1/dashboards/${dashboardId}/widgets`, {
    title: 'x',
    widget_type: 'table',
    data_source: 'snapshot',
    snapshot_data: [],
  });
  assert.equal(refused.status, 403);
  restRows.refusal = refused.data.detail;
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0);
  server = undefined;
});

after(async () => {
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('insights mcp on stdio', { skip: EMBEDDED_ONLY }, () => {
  test("a member's agent: the tools, the REST rows, a conversation, a refusal, an argument error", async () => {
    const { client, stderr } = await stdioClient(tokens.member);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((x) => x.name),
        ['list_insights', 'describe_model', 'run_insight', 'query', 'ask', 'list_dashboards', 'get_dashboard', 'add_widget'],
      );
      const { data, summary } = await callOk(client, 'run_insight', doneArgs());
      assert.deepEqual(data.rows, restRows.done);
      assertSummaryFromRows(summary, data.rows, ['Revenue']);

      const first = await callOk(client, 'ask', { message: 'what was revenue in Germany by week this quarter, compared with last year?' });
      assert.deepEqual(first.data.rows, restRows.done);
      const follow = await callOk(client, 'ask', { message: 'and in France?', history_id: first.data.history_id });
      assert.deepEqual(follow.data.query.filters, { country: 'FR' });
      assert.equal(follow.data.query.compare, 'previous_year');

      const { data: dashboards } = await callOk(client, 'list_dashboards');
      assert.deepEqual(
        dashboards.dashboards.map((d: { id: string }) => d.id),
        [dashboardId],
      );
      assert.equal(
        await callError(client, 'add_widget', { dashboard_id: dashboardId, query: { insight_code: 'revenue_kpi' } }),
        `FORBIDDEN: ${restRows.refusal}`,
      );
      assert.equal(
        await callError(client, 'run_insight', { insight_code: 'revenue', date_to: '2026-02-30' }),
        'VALIDATION_FAILED: date_to: must be a date YYYY-MM-DD',
      );
    } finally {
      await client.close();
    }
    assert.doesNotMatch(stderr(), /error/i, 'nothing went wrong on the way');
  });

  test('an owner adds a snapshot widget; another tenant sees neither it nor the rows of this one', async () => {
    const { client } = await stdioClient(tokens.owner);
    let widgetId: string;
    try {
      const { data } = await callOk(client, 'add_widget', { dashboard_id: dashboardId, query: doneArgs(), title: 'DE this quarter' });
      widgetId = data.widget.id;
      const { data: board } = await callOk(client, 'get_dashboard', { dashboard_id: dashboardId });
      assert.deepEqual(
        board.widgets.map((w: { title: string }) => w.title),
        ['DE this quarter'],
      );
      assert.deepEqual(board.widgets[0].rows, restRows.done);
    } finally {
      await client.close();
    }
    const acme = await stdioClient(tokens.acme);
    try {
      const { data } = await callOk(acme.client, 'run_insight', { insight_code: 'revenue', granularity: 'month' });
      assert.deepEqual(data.rows, restRows.acme);
      assert.equal(
        await callError(acme.client, 'get_dashboard', { dashboard_id: dashboardId }),
        'NOT_FOUND: dashboard_id: Dashboard not found',
      );
      assert.deepEqual((await callOk(acme.client, 'list_dashboards')).data.dashboards, []);
    } finally {
      await acme.client.close();
    }
    // The widget is in the database the server reads.
    server = await startServer(dataDir);
    const board = await rest(tokens.owner, 'GET', `/api/v1/dashboards/${dashboardId}`);
    assert.deepEqual(board.data.widget_ids, [widgetId!]);
    assert.deepEqual(board.data.widgets[0].snapshot_data, restRows.done);
  });

  test('while the server runs: --url bridges to it; without it the data dir is refused with that hint', async () => {
    server ??= await startServer(dataDir);
    const { client } = await stdioClient(tokens.member, ['--url', server.url]);
    try {
      const { data } = await callOk(client, 'run_insight', doneArgs());
      assert.deepEqual(data.rows, restRows.done);
    } finally {
      await client.close();
    }
    const locked = await runCli(['mcp'], { INSIGHTS_DATA_DIR: dataDir, INSIGHTS_TOKEN: tokens.member });
    assert.equal(locked.code, 2);
    assert.match(locked.stderr, /in use by another process.*insights mcp --url http:\/\//);
    assert.equal(locked.stdout, '', 'stdout carries the protocol only');
  });

  test('a refused or missing credential stops it with the reason, before any message is read', async () => {
    server ??= await startServer(dataDir);
    const refused = await runCli(['mcp', '--url', server.url], { INSIGHTS_TOKEN: 'ins_not-a-token' });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /INSIGHTS_TOKEN: refused: UNAUTHENTICATED: The API token is unknown or revoked/);
    const missing = await runCli(['mcp', '--url', server.url], { INSIGHTS_TOKEN: '' });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /needs a credential: set INSIGHTS_TOKEN/);
  });
});
