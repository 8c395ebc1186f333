// POST /notifications/channels/{id}/test against real protocols on loopback: a fake Bot API, an
// HTTPS webhook receiver verifying Standard Webhooks signatures, an in-process SMTP server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EgressGuard } from '../../../src/adapters/egress.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { startFakeBotApi, type FakeBotApi } from '../../fakes/bot-api.ts';
import { startFakeSmtp, type FakeSmtp } from '../../fakes/smtp.ts';
import { startWebhookReceiver, type FakeWebhookReceiver } from '../../fakes/webhook-receiver.ts';

const TOKEN = '123456789:AAH-abcdefghijklmnopqrstuvwxyz012345';
const BAD_TOKEN = '999999999:AAH-abcdefghijklmnopqrstuvwxyz000000';

describe('channel test: a real message per channel type', () => {
  let t: TestApp;
  let owner: string;
  let bot: FakeBotApi;
  let smtp: FakeSmtp;
  let hooks: FakeWebhookReceiver;
  let egress: EgressGuard;

  const create = async (channel_type: string, config: Record<string, string>) => {
    const res = await call(t, owner, 'POST', '/api/v1/notifications/channels', { channel_type, config });
    assert.equal(res.statusCode, 201, res.body);
    return res.data;
  };
  const verified = async (id: string) =>
    (await call(t, owner, 'GET', '/api/v1/notifications/channels')).data.find((c: any) => c.id === id).is_verified;

  before(async () => {
    [bot, smtp, hooks] = await Promise.all([startFakeBotApi({ tokens: [TOKEN], chats: ['42'] }), startFakeSmtp(), startWebhookReceiver()]);
    egress = new EgressGuard(['127.0.0.0/8'], { ca: hooks.ca });
    t = await buildTestApp({
      env: {
        INSIGHTS_EGRESS_ALLOW: '127.0.0.0/8',
        INSIGHTS_MESSENGER_API_URL: bot.url,
        SMTP_URL: smtp.url,
        SMTP_FROM: 'Insights <reports@insights.example>',
      },
      deps: { egress },
    });
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
  });
  after(async () => {
    await t.close();
    await egress.close();
    await Promise.all([bot.close(), smtp.close(), hooks.close()]);
  });

  test('messenger success: sendMessage with HTML reaches the chat; 200, latency, is_verified', async () => {
    const ch = await create('messenger', { bot_token: TOKEN, chat_id: '42' });
    const before = bot.calls.length;
    const res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${ch.id}/test`, {});
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.success, true);
    assert.equal(typeof res.data.latency_ms, 'number');
    assert.match(res.data.message, /messenger/);
    const sent = bot.calls.slice(before);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].method, 'sendMessage');
    assert.equal(sent[0].token, TOKEN);
    assert.equal(sent[0].params.chat_id, '42');
    assert.equal(sent[0].params.parse_mode, 'HTML');
    assert.match(sent[0].params.text, /test message/i);
    assert.equal(await verified(ch.id), true);

    // A PATCH resets it, and the test with the new config decides again.
    await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${ch.id}`, { config: { bot_token: ch.config.bot_token, chat_id: '43' } });
    assert.equal(await verified(ch.id), false);
  });

  test('messenger failures: bad token 401, chat not found, 429 — 502 with the upstream reason, is_verified false', async () => {
    const badToken = await create('messenger', { bot_token: BAD_TOKEN, chat_id: '42' });
    let res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${badToken.id}/test`, {});
    assert.equal(res.statusCode, 502);
    assert.equal(res.data.code, 'UPSTREAM_FAILED');
    assert.match(res.data.detail, /Unauthorized/);
    assert.ok(!res.body.includes(BAD_TOKEN), 'the token never appears in the answer');
    assert.equal(await verified(badToken.id), false);

    const noChat = await create('messenger', { bot_token: TOKEN, chat_id: '-100999' });
    res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${noChat.id}/test`, {});
    assert.equal(res.statusCode, 502);
    assert.match(res.data.detail, /chat not found/);

    const ok = await create('messenger', { bot_token: TOKEN, chat_id: '42' });
    assert.equal((await call(t, owner, 'POST', `/api/v1/notifications/channels/${ok.id}/test`, {})).statusCode, 200);
    assert.equal(await verified(ok.id), true);
    bot.failNext({ status: 429, description: 'Too Many Requests: retry after 7', retryAfter: 7 });
    res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${ok.id}/test`, {});
    assert.equal(res.statusCode, 502);
    assert.match(res.data.detail, /Too Many Requests/);
    assert.equal(await verified(ok.id), false, 'a failed test un-verifies');
  });

  test('webhook success: signed POST the receiver verifies with the channel secret', async () => {
    const ch = await create('webhook', { webhook_url: `${hooks.origin}/hooks/insights` });
    hooks.secret = ch.config.signing_secret;
    const before = hooks.received.length;
    const res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${ch.id}/test`, {});
    assert.equal(res.statusCode, 200, res.body);
    const got = hooks.received.slice(before);
    assert.equal(got.length, 1);
    assert.equal(got[0].verified, true, got[0].verifyError);
    assert.equal(got[0].path, '/hooks/insights');
    assert.equal(got[0].payload.type, 'channel.test');
    assert.equal(got[0].payload.id, got[0].headers['webhook-id']);
    assert.equal(got[0].payload.channel_id, ch.id);
    assert.match(got[0].payload.sent_at, /Z$/);
    assert.equal(await verified(ch.id), true);
  });

  test('webhook failures: wrong secret (401), 500, a redirect — all 502 and unverified', async () => {
    const ch = await create('webhook', { webhook_url: `${hooks.origin}/hooks/x` });
    hooks.secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
    let res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${ch.id}/test`, {});
    assert.equal(res.statusCode, 502);
    assert.match(res.data.detail, /401/);
    hooks.secret = ch.config.signing_secret;

    hooks.answerNext({ status: 500, body: 'database down' });
    res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${ch.id}/test`, {});
    assert.equal(res.statusCode, 502);
    assert.match(res.data.detail, /500: database down/);

    const before = hooks.received.length;
    hooks.answerNext({ status: 302, headers: { location: `${hooks.origin}/elsewhere` } });
    res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${ch.id}/test`, {});
    assert.equal(res.statusCode, 502);
    assert.match(res.data.detail, /redirects are not followed/);
    assert.equal(hooks.received.length, before + 1, 'the redirect was not followed');
    assert.equal(await verified(ch.id), false);
  });

  test('email success: the SMTP server receives an HTML test mail from SMTP_FROM', async () => {
    const ch = await create('email', { email: 'olga@acme.example' });
    const seen = smtp.mails.length;
    const res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${ch.id}/test`, {});
    assert.equal(res.statusCode, 200, res.body);
    const mail = await smtp.waitForMail(seen);
    assert.deepEqual(mail.to, ['olga@acme.example']);
    assert.equal(mail.from, 'reports@insights.example');
    assert.equal(mail.parsed.subject, 'Insights: test message');
    assert.match(String(mail.parsed.html), /test message from Insights/);
    assert.equal(await verified(ch.id), true);
  });

  test('email failure: a recipient the relay refuses is a 502 with the SMTP reply', async () => {
    smtp.rejectRecipients.add('nobody@acme.example');
    const ch = await create('email', { email: 'nobody@acme.example' });
    const res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${ch.id}/test`, {});
    assert.equal(res.statusCode, 502);
    assert.match(res.data.detail, /550|mailbox unavailable/);
    assert.equal(await verified(ch.id), false);
  });
});

describe('channel test: egress rules and missing configuration', () => {
  let t: TestApp;
  let owner: string;
  let hooks: FakeWebhookReceiver;
  let egress: EgressGuard;
  before(async () => {
    hooks = await startWebhookReceiver();
    // No INSIGHTS_EGRESS_ALLOW: loopback is refused. The CA is trusted so only the address rule can refuse.
    egress = new EgressGuard([], { ca: hooks.ca });
    t = await buildTestApp({ deps: { egress } });
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
  });
  after(async () => {
    await t.close();
    await egress.close();
    await hooks.close();
  });

  test('a loopback webhook is refused without INSIGHTS_EGRESS_ALLOW and nothing is sent', async () => {
    for (const url of [
      `${hooks.origin}/x`,
      `https://localhost:${new URL(hooks.origin).port}/x`,
      `https://[::ffff:127.0.0.1]:${new URL(hooks.origin).port}/x`,
    ]) {
      const ch = await call(t, owner, 'POST', '/api/v1/notifications/channels', { channel_type: 'webhook', config: { webhook_url: url } });
      assert.equal(ch.statusCode, 201);
      const res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${ch.data.id}/test`, {});
      assert.equal(res.statusCode, 502, url);
      assert.match(res.data.detail, /Refused/, url);
    }
    assert.equal(hooks.received.length, 0);
  });

  test('e-mail without SMTP_URL fails clearly', async () => {
    const ch = await call(t, owner, 'POST', '/api/v1/notifications/channels', {
      channel_type: 'email',
      config: { email: 'olga@acme.example' },
    });
    const res = await call(t, owner, 'POST', `/api/v1/notifications/channels/${ch.data.id}/test`, {});
    assert.equal(res.statusCode, 502);
    assert.match(res.data.detail, /SMTP_URL/);
  });

  test('the test endpoint takes an empty object, or no body at all', async () => {
    const ch = await call(t, owner, 'POST', '/api/v1/notifications/channels', {
      channel_type: 'email',
      config: { email: 'olga@acme.example' },
    });
    assert.equal((await call(t, owner, 'POST', `/api/v1/notifications/channels/${ch.data.id}/test`, { x: 1 })).statusCode, 400);
    assert.equal((await call(t, owner, 'POST', `/api/v1/notifications/channels/${ch.data.id}/test`)).statusCode, 502);
  });
});
