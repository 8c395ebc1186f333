// Scheduled and retried deliveries over the messenger Bot API and SMTP (real wire protocols on
// loopback): what the scheduler sends arrives, a 429 waits for its retry_after, a permanent
// refusal is not retried, and every attempt is logged.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EgressGuard } from '../../src/adapters/egress.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { buildTestApp, call, type TestApp } from '../helpers/app.ts';
import { startFakeBotApi, type FakeBotApi } from '../fakes/bot-api.ts';
import { startFakeSmtp, type FakeSmtp } from '../fakes/smtp.ts';
import { soon } from '../helpers/notify.ts';

const TOKEN = '123456:ABCdefGhIJKlmnoPQRstuVWxyz';

describe('deliveries over the Bot API and SMTP', () => {
  let t: TestApp;
  let bot: FakeBotApi;
  let smtp: FakeSmtp;
  let egress: EgressGuard;
  let owner: string;
  let messenger: string;
  let email: string;
  const worker = () => t.app.services.deliveryWorker;
  const logsOf = async (id: string) => (await call(t, owner, 'GET', `/api/v1/notifications/logs?subscription_id=${id}`)).data as any[];

  before(async () => {
    [bot, smtp] = await Promise.all([startFakeBotApi({ tokens: [TOKEN], chats: ['42'] }), startFakeSmtp()]);
    egress = new EgressGuard(['127.0.0.0/8']);
    t = await buildTestApp({
      clock: new ManualClock(new Date()),
      env: { INSIGHTS_MESSENGER_API_URL: bot.url, SMTP_URL: smtp.url, SMTP_FROM: 'Insights <reports@insights.example>' },
      deps: { egress },
    });
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    const m = await call(t, owner, 'POST', '/api/v1/notifications/channels', {
      channel_type: 'messenger',
      config: { bot_token: TOKEN, chat_id: '42' },
    });
    assert.equal(m.statusCode, 201, m.body);
    messenger = m.data.id;
    const e = await call(t, owner, 'POST', '/api/v1/notifications/channels', {
      channel_type: 'email',
      config: { email: 'boss@acme.example' },
    });
    assert.equal(e.statusCode, 201, e.body);
    email = e.data.id;
  });
  after(async () => {
    await t.close();
    await egress.close();
    await Promise.all([bot.close(), smtp.close()]);
  });
  beforeEach(() => t.clock.set(new Date()));

  test('a scheduled insight report reaches the chat; its log row says messenger', async () => {
    const { time, slot } = soon();
    const s = await call(t, owner, 'POST', '/api/v1/notifications/subscriptions', {
      insight_code: 'revenue',
      channel_id: messenger,
      schedule: 'daily',
      granularity: 'month',
      schedule_time: time,
    });
    assert.equal(s.statusCode, 201, s.body);
    assert.equal(s.data.channel_type, 'messenger');
    t.clock.set(slot);
    assert.equal((await t.app.services.scheduler.tick()).enqueued, 1);
    const before = bot.calls.length;
    assert.deepEqual(
      (await worker().runOnce()).map((o) => o.status),
      ['succeeded'],
    );
    const calls = bot.calls.slice(before);
    assert.ok(calls.length >= 1);
    assert.ok(calls.every((c) => c.token === TOKEN && c.params.chat_id === '42'));
    assert.ok(calls.some((c) => JSON.stringify(c.params).includes(s.data.insight_name)));
    const rows = await logsOf(s.data.id);
    assert.deepEqual(
      rows.map((r) => [r.attempt, r.status, r.channel_type, r.channel_id]),
      [[1, 'success', 'messenger', messenger]],
    );
  });

  test('a 429 from the Bot API is retried after its retry_after, not before', async () => {
    const s = (
      await call(t, owner, 'POST', '/api/v1/notifications/subscriptions', {
        insight_code: 'orders_count',
        channel_id: messenger,
        schedule: 'daily',
        granularity: 'month',
      })
    ).data;
    assert.equal((await call(t, owner, 'POST', `/api/v1/notifications/subscriptions/${s.id}/send`, {})).statusCode, 202);
    bot.failNext({ status: 429, description: 'Too Many Requests: retry after 90', retryAfter: 90 });
    assert.deepEqual(
      (await worker().runOnce()).map((o) => o.status),
      ['retry'],
    );
    t.clock.advance(89_999);
    assert.equal((await worker().runOnce()).length, 0);
    // Due within the jitter (at most 1 s) after retry_after.
    t.clock.advance(1_001);
    assert.deepEqual(
      (await worker().runOnce()).map((o) => o.status),
      ['succeeded'],
    );
    const rows = await logsOf(s.id);
    assert.deepEqual(
      rows.map((r) => [r.attempt, r.status]),
      [
        [2, 'success'],
        [1, 'failed'],
      ],
    );
    assert.match(rows[1].error_message, /429|Too Many Requests/);
  });

  test('a 429 with retry_after: 1 is retried after about a second, not after the 30 s backoff', async () => {
    const s = (
      await call(t, owner, 'POST', '/api/v1/notifications/subscriptions', {
        insight_code: 'orders_count',
        channel_id: messenger,
        schedule: 'daily',
        granularity: 'month',
      })
    ).data;
    assert.equal((await call(t, owner, 'POST', `/api/v1/notifications/subscriptions/${s.id}/send`, {})).statusCode, 202);
    bot.failNext({ status: 429, description: 'Too Many Requests: retry after 1', retryAfter: 1 });
    assert.deepEqual(
      (await worker().runOnce()).map((o) => o.status),
      ['retry'],
    );
    t.clock.advance(999);
    assert.equal((await worker().runOnce()).length, 0, 'not before retry_after');
    t.clock.advance(101);
    assert.deepEqual(
      (await worker().runOnce()).map((o) => o.status),
      ['succeeded'],
    );
  });

  test('chat not found is permanent: one attempt, one failed row', async () => {
    const bad = await call(t, owner, 'POST', '/api/v1/notifications/channels', {
      channel_type: 'messenger',
      config: { bot_token: TOKEN, chat_id: '999' },
    });
    const s = (
      await call(t, owner, 'POST', '/api/v1/notifications/subscriptions', {
        insight_code: 'revenue',
        channel_id: bad.data.id,
        schedule: 'weekly',
        granularity: 'week',
      })
    ).data;
    await call(t, owner, 'POST', `/api/v1/notifications/subscriptions/${s.id}/send`, {});
    assert.deepEqual(
      (await worker().runOnce()).map((o) => o.status),
      ['failed'],
    );
    t.clock.advance(3_600_000);
    assert.equal((await worker().runOnce()).length, 0);
    const rows = await logsOf(s.id);
    assert.deepEqual(
      rows.map((r) => [r.attempt, r.status]),
      [[1, 'failed']],
    );
    assert.match(rows[0].error_message, /chat not found/i);
  });

  test('a dashboard report by e-mail over SMTP, logged under the dashboard name', async () => {
    const d = (await call(t, owner, 'POST', '/api/v1/dashboards', { name: 'Mail board' })).data;
    await call(t, owner, 'POST', `/api/v1/dashboards/${d.id}/widgets`, {
      title: 'Revenue',
      widget_type: 'chart',
      data_source: 'live_insight',
      insight_code: 'revenue',
      granularity: 'month',
    });
    const { time, slot } = soon();
    const sub = await call(t, owner, 'POST', `/api/v1/dashboards/${d.id}/subscriptions`, {
      dashboard_id: d.id,
      dashboard_name: 'Mail board',
      channel_ids: [email],
      schedule: 'daily',
      schedule_time: time,
    });
    assert.equal(sub.statusCode, 201, sub.body);
    t.clock.set(slot);
    assert.equal((await t.app.services.scheduler.tick()).enqueued, 1);
    const seen = smtp.mails.length;
    assert.deepEqual(
      (await worker().runOnce()).map((o) => o.status),
      ['succeeded'],
    );
    const mail = await smtp.waitForMail(seen);
    assert.deepEqual(mail.to, ['boss@acme.example']);
    assert.match(mail.parsed.subject ?? '', /Mail board/);
    const rows = await logsOf(sub.data.id);
    assert.deepEqual(
      rows.map((r) => [r.status, r.insight_name, r.subscription_kind, r.channel_type]),
      [['success', 'Mail board', 'dashboard', 'email']],
    );
  });
});
