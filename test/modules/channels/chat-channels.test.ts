// Slack, Microsoft Teams and Google Chat channels through the API, against loopback fakes that
// answer as each service does: config checked and sealed, the URL masked everywhere, /test,
// insight and dashboard reports in each tool's format, Slack's 429 and 4xx, the delivery log.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EgressGuard } from '../../../src/adapters/egress.ts';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { startFakeChatTools, type FakeChatTools, type Tool } from '../../fakes/chat-tools.ts';

const PUBLIC = 'https://insights.example.com';

describe('slack, teams and google_chat channels', () => {
  let t: TestApp;
  let bare: TestApp;
  let owner: string;
  let bareOwner: string;
  let tools: FakeChatTools;
  let egress: EgressGuard;

  before(async () => {
    tools = await startFakeChatTools();
    egress = new EgressGuard(['127.0.0.0/8']);
    t = await buildTestApp({ env: { INSIGHTS_PUBLIC_URL: PUBLIC }, deps: { egress }, clock: new ManualClock(new Date()) });
    bare = await buildTestApp({ deps: { egress } });
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    bareOwner = await bare.login({ tenant: 'acme', user: 'olga', role: 'owner' });
  });
  after(async () => {
    await t.close();
    await bare.close();
    await egress.close();
    await tools.close();
  });

  const create = async (app: TestApp, auth: string, channel_type: Tool, webhook_url = tools.webhookUrl(channel_type)) => {
    const res = await call(app, auth, 'POST', '/api/v1/notifications/channels', { channel_type, config: { webhook_url } });
    assert.equal(res.statusCode, 201, res.body);
    return { ...res.data, url: webhook_url };
  };
  const postsTo = (url: string) => tools.received.filter((r) => url.includes(r.path.split('?')[0]));
  const logsOf = async (subscriptionId: string) =>
    (await call(t, owner, 'GET', `/api/v1/notifications/logs?subscription_id=${subscriptionId}`)).data as any[];
  const worker = () => t.app.services.deliveryWorker;

  test('the webhook URL must be http(s): else a 400 naming /body/config/webhook_url', async () => {
    for (const [type, url] of [
      ['slack', 'ftp://hooks.example.com/x'],
      ['teams', 'not a url'],
      ['google_chat', 'https://user:pw@chat.example.com/v1/spaces/A/messages'],
    ]) {
      const res = await call(t, owner, 'POST', '/api/v1/notifications/channels', { channel_type: type, config: { webhook_url: url } });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
      assert.ok(
        res.data.errors.some((e: { path: string }) => e.path === '/body/config/webhook_url'),
        res.body,
      );
    }
    const missing = await call(t, owner, 'POST', '/api/v1/notifications/channels', { channel_type: 'slack', config: {} });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.data.errors[0].path, '/body/config/webhook_url');
  });

  test('the URL is sealed in the database and masked in every answer; a PATCH sending the mask back keeps it', async () => {
    for (const type of ['slack', 'teams', 'google_chat'] as const) {
      const ch = await create(t, owner, type);
      const secretPart = new URL(ch.url).pathname + new URL(ch.url).search;
      for (const res of [
        { body: JSON.stringify({ ...ch, url: undefined }) },
        await call(t, owner, 'GET', `/api/v1/notifications/channels/${ch.id}`),
        await call(t, owner, 'GET', '/api/v1/notifications/channels'),
      ]) {
        assert.ok(!res.body.includes(secretPart.slice(0, 20)), `${type}: the URL's secret part is never shown`);
      }
      assert.match(ch.config.webhook_url, /^http:\/\/127\.0\.0\.1:\d+\/\*\*\*\*/);
      const [row] = await t.db.query<{ config: unknown; secrets: Record<string, string> }>(
        'SELECT config, secrets FROM notification_channels WHERE id = $1',
        [ch.id],
      );
      assert.deepEqual(row.config, {});
      assert.ok(row.secrets.webhook_url && !row.secrets.webhook_url.includes('127.0.0.1'), 'stored sealed');

      const kept = await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${ch.id}`, {
        config: { webhook_url: ch.config.webhook_url },
      });
      assert.equal(kept.statusCode, 200, kept.body);
      const test = await call(t, owner, 'POST', `/api/v1/notifications/channels/${ch.id}/test`, {});
      assert.equal(test.statusCode, 200, `${type}: the kept URL still posts: ${test.body}`);
    }
  });

  test('/test posts in each tool’s format and verifies the channel', async () => {
    const slack = await create(t, owner, 'slack');
    let res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${slack.id}/test`, {});
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.success, true);
    assert.match(res.data.message, /slack/);
    const [s] = postsTo(slack.url);
    assert.match(s.body.text, /test message/i);
    assert.equal(s.body.blocks[0].type, 'header');

    const teams = await create(t, owner, 'teams');
    res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${teams.id}/test`, {});
    assert.equal(res.statusCode, 200, res.body);
    const [m] = postsTo(teams.url);
    assert.equal(m.body.type, 'message');
    assert.equal(m.body.attachments[0].contentType, 'application/vnd.microsoft.card.adaptive');
    assert.ok(Number(m.body.attachments[0].content.version) >= 1.4);

    const chat = await create(t, owner, 'google_chat');
    res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${chat.id}/test`, {});
    assert.equal(res.statusCode, 200, res.body);
    const [g] = postsTo(chat.url);
    assert.match(g.body.text, /test message/i);
    assert.ok(g.body.cardsV2[0].card.header.title);

    const list = (await call(t, owner, 'GET', '/api/v1/notifications/channels')).data;
    for (const id of [slack.id, teams.id, chat.id]) assert.equal(list.find((c: any) => c.id === id).is_verified, true);
  });

  test('a removed Slack webhook (404 no_service): /test answers 502 with the reason and un-verifies', async () => {
    const ch = await create(t, owner, 'slack', `${tools.origin}/services/T0001/BGONE/nosuchwebhook0000000`);
    const res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${ch.id}/test`, {});
    assert.equal(res.statusCode, 502, res.body);
    assert.match(res.data.detail, /Slack answered 404: no_service/);
    assert.ok(!res.body.includes('nosuchwebhook'), 'the URL is not in the answer');
  });

  test('an insight report to Slack: Block Kit with header, fields, a button to the insight; logged', async () => {
    const ch = await create(t, owner, 'slack');
    const sub = await call(t, owner, 'POST', '/api/v1/notifications/subscriptions', {
      insight_code: 'revenue_by_country',
      channel_id: ch.id,
      schedule: 'daily',
      granularity: 'day',
    });
    assert.equal(sub.statusCode, 201, sub.body);
    assert.equal(sub.data.channel_type, 'slack');
    const send = await call(t, owner, 'POST', `/api/v1/notifications/subscriptions/${sub.data.id}/send`, {});
    assert.equal(send.statusCode, 202, send.body);
    assert.equal((await worker().runOnce())[0].status, 'succeeded');
    const [post] = postsTo(ch.url);
    const blocks = post.body.blocks;
    assert.match(post.body.text, /Revenue by country/);
    assert.deepEqual(blocks[0], { type: 'header', text: { type: 'plain_text', text: blocks[0].text.text } });
    const fields = blocks.find((b: any) => b.fields)?.fields;
    assert.ok(fields.length >= 1 && fields.length <= 10);
    assert.match(fields[0].text, /Revenue/);
    const button = blocks.find((b: any) => b.type === 'actions').elements[0];
    assert.equal(button.url, `${PUBLIC}/insights/revenue_by_country`);
    // The chart, published where Slack can fetch it without our credentials.
    const image = blocks.find((b: any) => b.type === 'image');
    assert.match(image.image_url, new RegExp(`^${PUBLIC}/api/v1/report-images/[A-Za-z0-9_-]{22}\\.png$`));
    assert.equal(image.alt_text, 'Chart: Revenue by country');
    const png = await t.app.inject({ method: 'GET', url: image.image_url.slice(PUBLIC.length) });
    assert.equal(png.statusCode, 200);
    assert.equal(png.headers['content-type'], 'image/png');
    assert.deepEqual([...png.rawPayload.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/v1/report-images/AAAAAAAAAAAAAAAAAAAAAA.png' });
    assert.equal(unknown.statusCode, 404);
    const rows = await logsOf(sub.data.id);
    assert.deepEqual(
      rows.map((r) => [r.channel_type, r.status, r.attempt]),
      [['slack', 'success', 1]],
    );
  });

  test('Slack 429 waits for Retry-After; 410 channel_is_archived and 400 invalid_payload fail without retry; every attempt logged', async () => {
    const ch = await create(t, owner, 'slack');
    const sub = await call(t, owner, 'POST', '/api/v1/notifications/subscriptions', {
      insight_code: 'revenue',
      channel_id: ch.id,
      schedule: 'daily',
      granularity: 'month',
    });
    const sendNow = () => call(t, owner, 'POST', `/api/v1/notifications/subscriptions/${sub.data.id}/send`, {});
    await sendNow();
    tools.answerNext({ status: 429, headers: { 'retry-after': '90' }, body: 'rate_limited' });
    assert.equal((await worker().runOnce())[0].status, 'retry');
    t.clock.advance(89_000);
    assert.equal((await worker().runOnce()).length, 0, 'not before Retry-After');
    t.clock.advance(2_001);
    assert.equal((await worker().runOnce())[0].status, 'succeeded');

    for (const [status, reason] of [
      [410, 'channel_is_archived'],
      [400, 'invalid_payload'],
      [404, 'no_service'],
    ] as const) {
      t.clock.advance(1000);
      await sendNow();
      tools.answerNext({ status, body: reason });
      assert.equal((await worker().runOnce())[0].status, 'failed', reason);
      t.clock.advance(3_600_000);
      assert.equal((await worker().runOnce()).length, 0, `${reason}: no retry`);
    }
    const rows = await logsOf(sub.data.id);
    assert.deepEqual(
      rows.map((r) => [r.status, r.attempt]),
      [
        ['failed', 1],
        ['failed', 1],
        ['failed', 1],
        ['success', 2],
        ['failed', 1],
      ],
    );
    assert.match(rows[0].error_message, /Slack answered 404: no_service/);
    assert.match(rows[1].error_message, /invalid_payload/);
    assert.match(rows[2].error_message, /channel_is_archived/);
    assert.ok(rows.every((r) => r.channel_type === 'slack'));
    const all = JSON.stringify(rows);
    assert.ok(!all.includes(new URL(ch.url).pathname), 'the URL is not in the log');
  });

  async function salesDashboard(app: TestApp, auth: string) {
    const dash = await call(app, auth, 'POST', '/api/v1/dashboards', { name: 'Weekly sales' });
    assert.equal(dash.statusCode, 201, dash.body);
    for (const [title, widget_type, insight_code] of [
      ['Revenue this month', 'kpi', 'revenue_kpi'],
      ['Revenue by country', 'chart', 'revenue_by_country'],
    ]) {
      const w = await call(app, auth, 'POST', `/api/v1/dashboards/${dash.data.id}/widgets`, {
        title,
        widget_type,
        data_source: 'live_insight',
        insight_code,
      });
      assert.equal(w.statusCode, 201, w.body);
    }
    return dash.data.id as string;
  }

  async function dashboardSend(app: TestApp, auth: string, dashId: string, channelIds: string[]) {
    const sub = await call(app, auth, 'POST', `/api/v1/dashboards/${dashId}/subscriptions`, {
      dashboard_id: dashId,
      dashboard_name: 'Weekly sales',
      channel_ids: channelIds,
      schedule: 'weekly',
      schedule_time: '07:45',
      schedule_day_of_week: 1,
      attach_pdf: false,
    });
    assert.equal(sub.statusCode, 201, sub.body);
    const send = await call(app, auth, 'POST', `/api/v1/dashboards/subscriptions/${sub.data.id}/send`, {});
    assert.equal(send.statusCode, 202, send.body);
    for (let i = 0; i < 10 && (await app.app.services.deliveryWorker.runOnce()).length > 0; i++);
    return sub.data.id as string;
  }

  test('a dashboard report to Teams and Google Chat: the name, each widget’s headline, a link to the dashboard', async () => {
    const teams = await create(t, owner, 'teams');
    const chat = await create(t, owner, 'google_chat');
    const dashId = await salesDashboard(t, owner);
    const subId = await dashboardSend(t, owner, dashId, [teams.id, chat.id]);

    const [m] = postsTo(teams.url);
    const card = m.body.attachments[0].content;
    assert.equal(card.type, 'AdaptiveCard');
    assert.match(card.body[0].text, /Weekly sales/);
    const facts = card.body.find((b: any) => b.type === 'FactSet').facts;
    assert.deepEqual(
      facts.map((f: any) => f.title),
      ['Revenue this month', 'Revenue by country'],
    );
    assert.match(facts[0].value, /€|\d/);
    assert.match(facts[1].value, /first of/);
    assert.deepEqual(card.actions, [{ type: 'Action.OpenUrl', title: 'Open the dashboard', url: `${PUBLIC}/dashboards/${dashId}` }]);

    const [g] = postsTo(chat.url);
    assert.match(g.body.text, /Weekly sales/);
    const widgets = g.body.cardsV2[0].card.sections[0].widgets;
    assert.deepEqual(
      widgets.filter((w: any) => w.decoratedText).map((w: any) => w.decoratedText.topLabel),
      ['Revenue this month', 'Revenue by country'],
    );
    const button = widgets.find((w: any) => w.buttonList).buttonList.buttons[0];
    assert.equal(button.onClick.openLink.url, `${PUBLIC}/dashboards/${dashId}`);

    const rows = (await call(t, owner, 'GET', `/api/v1/notifications/logs?subscription_id=${subId}`)).data;
    assert.deepEqual(rows.map((r: any) => [r.channel_type, r.status, r.insight_name]).sort(), [
      ['google_chat', 'success', 'Weekly sales'],
      ['teams', 'success', 'Weekly sales'],
    ]);
  });

  test('without INSIGHTS_PUBLIC_URL reports carry no link', async () => {
    const slack = await create(bare, bareOwner, 'slack');
    const teams = await create(bare, bareOwner, 'teams');
    const dashId = await salesDashboard(bare, bareOwner);
    await dashboardSend(bare, bareOwner, dashId, [slack.id, teams.id]);
    const [s] = postsTo(slack.url);
    assert.ok(s, 'Slack got the report');
    assert.ok(!s.body.blocks.some((b: any) => b.type === 'actions' || b.type === 'image'));
    assert.ok(!JSON.stringify(s.body).includes('/dashboards/'));
    const [m] = postsTo(teams.url);
    assert.equal(m.body.attachments[0].content.actions, undefined);
  });
});
