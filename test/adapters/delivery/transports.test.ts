// The three transports with a full dashboard report, against real protocols on loopback, and how
// each upstream failure maps to a retryable or permanent DeliveryError.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChartRenderer, PNG_SIGNATURE } from '../../../src/adapters/charts/renderer.ts';
import { EgressGuard } from '../../../src/adapters/egress.ts';
import { createTransports } from '../../../src/adapters/delivery/index.ts';
import { MESSAGE_LIMIT } from '../../../src/adapters/delivery/messenger.ts';
import { DeliveryError, type OutboundChannel } from '../../../src/adapters/delivery/types.ts';
import type { Report } from '../../../src/lib/report.ts';
import { newSigningSecret } from '../../../src/adapters/delivery/webhook.ts';
import { composeDashboardReport, composeInsightReport, type ResultLike } from '../../../src/modules/reports/compose.ts';
import { parseTelegramHtml, startFakeBotApi, type FakeBotApi } from '../../fakes/bot-api.ts';
import { startFakeSmtp, type FakeSmtp } from '../../fakes/smtp.ts';
import { startWebhookReceiver, type FakeWebhookReceiver } from '../../fakes/webhook-receiver.ts';

const TOKEN = '123456789:AAH-abcdefghijklmnopqrstuvwxyz012345';

const days = Array.from({ length: 30 }, (_, i) => `2026-10-${String(i + 1).padStart(2, '0')}`);
const revenue: ResultLike = {
  insight_code: 'revenue',
  insight_name: 'Revenue',
  granularity: 'day',
  filters: { country: 'FR' },
  period: { from: '2026-10-01', to: '2026-10-30' },
  columns: [
    { name: 'period', type: 'date', label: 'Period' },
    { name: 'revenue', type: 'money', label: 'Revenue' },
  ],
  rows: days.map((d, i) => ({ period: d, revenue: Math.round((12000 + 4000 * Math.sin(i / 4) + i * 150) * 100) / 100 })),
  chart_hint: { type: 'line', x_axis: 'period', y_axis: ['revenue'], title: 'Revenue' },
};
const byChannel: ResultLike = {
  ...revenue,
  insight_code: 'revenue_by_channel',
  insight_name: 'Revenue by channel',
  granularity: null,
  columns: [
    { name: 'channel', type: 'string', label: 'Channel' },
    { name: 'revenue', type: 'money', label: 'Revenue' },
  ],
  rows: [
    { channel: 'web', revenue: 52000.5 },
    { channel: 'mobile', revenue: 31000 },
    { channel: 'marketplace', revenue: 12000 },
    { channel: 'retail', revenue: 6000 },
  ],
  chart_hint: { type: 'pie', x_axis: 'channel', y_axis: ['revenue'] },
};
const topProducts: ResultLike = {
  ...revenue,
  insight_code: 'top_products',
  insight_name: 'Top products',
  granularity: null,
  columns: [
    { name: 'product_name', type: 'string', label: 'Product' },
    { name: 'revenue', type: 'money', label: 'Revenue' },
    { name: 'units', type: 'integer', label: 'Units' },
  ],
  // Markup and formula-looking names must arrive as text everywhere.
  rows: Array.from({ length: 60 }, (_, i) => ({
    product_name: i === 0 ? '<b>Bold & "quoted"</b>' : i === 1 ? '=HYPERLINK("x")' : i === 2 ? 'x;=1+1' : `Product ${i + 1}`,
    revenue: 9000 - i * 100,
    units: 300 - i,
  })),
  chart_hint: { type: 'table', x_axis: 'product_name', y_axis: ['revenue', 'units'] },
};
const kpi: ResultLike = {
  ...revenue,
  insight_code: 'revenue_kpi',
  insight_name: 'Revenue KPI',
  granularity: 'month',
  columns: [
    { name: 'period_from', type: 'date', label: 'From' },
    { name: 'value', type: 'money', label: 'Revenue' },
    { name: 'previous_value', type: 'money', label: 'Previous' },
    { name: 'change_pct', type: 'percent', label: 'Change' },
  ],
  rows: [{ period_from: '2026-10-01', value: 412345.67, previous_value: 380000, change_pct: 8.51 }],
  chart_hint: { type: 'kpi', x_axis: 'period_from', y_axis: ['value'] },
};

function dashboardReport(): Report {
  return composeDashboardReport({
    subscription: { id: 'sub_1', schedule: 'weekly', dashboard_id: 'dash_1' },
    dashboard: { id: 'dash_1', name: 'Sales <weekly> & more', description: 'Key numbers for the sales team.' },
    widgets: [
      { widget: { id: 'w1', title: 'Revenue KPI', widget_type: 'kpi' }, result: kpi },
      { widget: { id: 'w2', title: 'Revenue per day', widget_type: 'chart' }, result: revenue },
      {
        widget: { id: 'w3', title: 'Revenue per day (bars)', widget_type: 'chart', chart_hint_override: { chart_type: 'bar' } },
        result: revenue,
      },
      { widget: { id: 'w4', title: 'Channels', widget_type: 'chart' }, result: byChannel },
      { widget: { id: 'w5', title: 'Top products', widget_type: 'table' }, result: topProducts },
    ],
  });
}

async function rejection(p: Promise<unknown>): Promise<DeliveryError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof DeliveryError, `expected a DeliveryError, got ${err}`);
    return err;
  }
  assert.fail('expected the send to fail');
}

describe('transports with a dashboard report', () => {
  let bot: FakeBotApi;
  let smtp: FakeSmtp;
  let hooks: FakeWebhookReceiver;
  let egress: EgressGuard;
  let transports: ReturnType<typeof createTransports>;
  const messenger: OutboundChannel = {
    id: 'ch_m',
    tenant_id: 'acme',
    channel_type: 'messenger',
    config: { bot_token: TOKEN, chat_id: '42' },
  };
  const email: OutboundChannel = { id: 'ch_e', tenant_id: 'acme', channel_type: 'email', config: { email: 'team@acme.example' } };
  let webhook: OutboundChannel;
  const ctx = (id = `dlv_${Math.random().toString(36).slice(2)}`) => ({ deliveryId: id, sentAt: new Date('2026-11-02T08:00:00.000Z') });

  before(async () => {
    [bot, smtp, hooks] = await Promise.all([startFakeBotApi({ tokens: [TOKEN], chats: ['42'] }), startFakeSmtp(), startWebhookReceiver()]);
    egress = new EgressGuard(['127.0.0.0/8'], { ca: hooks.ca });
    transports = createTransports(
      { messengerApiUrl: bot.url, smtpUrl: smtp.url, smtpFrom: 'Insights <reports@insights.example>' },
      egress,
      new ChartRenderer(),
    );
    webhook = {
      id: 'ch_w',
      tenant_id: 'acme',
      channel_type: 'webhook',
      config: { webhook_url: `${hooks.origin}/in`, signing_secret: newSigningSecret() },
    };
    hooks.secret = webhook.config.signing_secret;
  });
  after(async () => {
    await egress.close();
    await Promise.all([bot.close(), smtp.close(), hooks.close()]);
  });

  test('e-mail: every widget in the HTML, charts as inline PNGs by cid, rows as CSV attachments', async () => {
    const seen = smtp.mails.length;
    const result = await transports.send(email, dashboardReport(), ctx('dlv_mail_1'));
    assert.match(result.detail ?? '', /accepted/);
    const mail = await smtp.waitForMail(seen);
    const html = String(mail.parsed.html);
    assert.equal(mail.parsed.subject, 'Sales <weekly> & more — weekly dashboard report');
    assert.equal(mail.parsed.messageId, '<dlv_mail_1@insights>');
    for (const title of ['Revenue KPI', 'Revenue per day', 'Revenue per day (bars)', 'Channels', 'Top products'])
      assert.ok(html.includes(`>${title}</h2>`), title);
    assert.ok(html.includes('Sales &lt;weekly&gt; &amp; more'), 'the title is escaped');
    assert.ok(html.includes('412,346'), 'the KPI is a big number');
    assert.ok(html.includes('+8.5%'));
    assert.ok(html.includes('&lt;b&gt;Bold &amp; &quot;quoted&quot;&lt;/b&gt;'), 'table cells are escaped');
    assert.ok(!html.includes('<b>Bold'));

    const images = mail.parsed.attachments.filter((a) => a.contentType === 'image/png');
    assert.equal(images.length, 3, 'line, bar and pie charts');
    for (const img of images) {
      assert.ok(img.content.subarray(0, 8).equals(PNG_SIGNATURE));
      assert.ok(img.cid && html.includes(`cid:${img.cid}`), `the HTML references ${img.cid}`);
      assert.equal(img.related, true);
    }
    // Kept for a person to look at (see docs/notifications.md).
    fs.writeFileSync(path.join(os.tmpdir(), 'insights-report-chart.png'), images[0].content);

    const csvs = mail.parsed.attachments.filter((a) => a.contentType.startsWith('text/csv'));
    assert.deepEqual(
      csvs.map((c) => c.filename),
      ['01-revenue-kpi.csv', '02-revenue-per-day.csv', '03-revenue-per-day-bars.csv', '04-channels.csv', '05-top-products.csv'],
    );
    const products = csvs[4].content.toString('utf8').trim().split('\r\n');
    assert.equal(products[0], 'product_name,revenue,units');
    assert.equal(products.length, 61, 'every row, not only those shown in the HTML');
    assert.equal(products[1], '"<b>Bold & ""quoted""</b>",9000,300');
    assert.equal(products[2], `"'=HYPERLINK(""x"")",8900,299`, 'formula injection is defused');
    assert.equal(products[3], `"x;'=1+1",8800,298`, 'a formula after a separator of another locale too');
    assert.match(String(mail.parsed.text), /Top products/);
  });

  test('e-mail errors: a 4xx SMTP reply is temporary, a 5xx final', async () => {
    const report = composeInsightReport({ subscription: { id: 's', schedule: 'daily' }, result: kpi });
    smtp.deferRecipients.add('later@acme.example');
    smtp.rejectRecipients.add('never@acme.example');
    const later = await rejection(transports.send({ ...email, config: { email: 'later@acme.example' } }, report, ctx()));
    assert.equal(later.retryable, true);
    assert.match(later.message, /451/);
    const never = await rejection(transports.send({ ...email, config: { email: 'never@acme.example' } }, report, ctx()));
    assert.equal(never.retryable, false);
    assert.match(never.message, /550/);
  });

  test('messenger: HTML messages within 4096 characters that parse, one photo per chart', async () => {
    const before = bot.calls.length;
    const report = dashboardReport();
    // A long summary and many sections force a split.
    report.sections.push(...Array.from({ length: 6 }, (_, i) => ({ ...report.sections[4], title: `Top products ${i} <&>` })));
    const result = await transports.send(messenger, report, ctx());
    const calls = bot.calls.slice(before);
    const texts = calls.filter((c) => c.method === 'sendMessage');
    const photos = calls.filter((c) => c.method === 'sendPhoto');
    assert.ok(texts.length >= 2, 'the report was split');
    for (const m of texts) {
      assert.ok(m.params.text.length <= MESSAGE_LIMIT);
      assert.ok('text' in parseTelegramHtml(m.params.text), 'valid Telegram HTML');
    }
    const all = texts.map((m) => m.params.text).join('\n');
    assert.ok(all.includes('Top products 5 &lt;&amp;&gt;'));
    assert.ok(all.includes('412,346'));
    assert.equal(photos.length, 3, 'line, bar, pie; the KPI and the tables are text');
    assert.ok(!all.includes('Revenue per day'), 'pictured sections are not repeated in the text');
    for (const p of photos) {
      assert.match(p.contentType, /^multipart\/form-data; boundary=/);
      assert.ok(p.files.photo.data.subarray(0, 8).equals(PNG_SIGNATURE));
      assert.equal(p.params.chat_id, '42');
      assert.ok(p.params.caption.length <= 1024);
    }
    assert.match(photos[0].params.caption, /Revenue per day/);
    assert.match(result.detail ?? '', /3 charts/);
  });

  test('messenger errors: 429 retryable with retry_after, 5xx retryable, 401 and chat not found permanent, no token in messages', async () => {
    const report = composeInsightReport({ subscription: { id: 's', schedule: 'daily' }, result: kpi });
    bot.failNext({ status: 429, description: 'Too Many Requests: retry after 7', retryAfter: 7 });
    let err = await rejection(transports.send(messenger, report, ctx()));
    assert.equal(err.retryable, true);
    assert.equal(err.retryAfterMs, 7000);
    bot.failNext({ status: 502, description: 'Bad Gateway' });
    err = await rejection(transports.send(messenger, report, ctx()));
    assert.equal(err.retryable, true);
    err = await rejection(
      transports.send(
        { ...messenger, config: { ...messenger.config, bot_token: '555:AAH-abcdefghijklmnopqrstuvwxyz555555' } },
        report,
        ctx(),
      ),
    );
    assert.equal(err.retryable, false);
    assert.match(err.message, /Unauthorized/);
    assert.ok(!err.message.includes('555:AAH'));
    err = await rejection(transports.send({ ...messenger, config: { ...messenger.config, chat_id: '7' } }, report, ctx()));
    assert.equal(err.retryable, false);
    assert.match(err.message, /chat not found/);
  });

  test('webhook: signed, the same webhook-id on a retry, body carries id, sent_at and the report', async () => {
    const before = hooks.received.length;
    hooks.answerNext({ status: 503, headers: { 'retry-after': '30' } });
    const err = await rejection(transports.send(webhook, dashboardReport(), ctx('dlv_fixed')));
    assert.equal(err.retryable, true);
    assert.equal(err.retryAfterMs, 30_000);
    await transports.send(webhook, dashboardReport(), ctx('dlv_fixed'));
    const [first, second] = hooks.received.slice(before);
    assert.equal(first.headers['webhook-id'], 'dlv_fixed');
    assert.equal(second.headers['webhook-id'], 'dlv_fixed');
    assert.ok(first.verified && second.verified);
    const body = second.payload;
    assert.deepEqual(Object.keys(body).slice(0, 3), ['type', 'id', 'sent_at']);
    assert.equal(body.type, 'dashboard.report');
    assert.equal(body.id, 'dlv_fixed');
    assert.equal(body.sent_at, '2026-11-02T08:00:00.000Z');
    assert.equal(body.subscription_id, 'sub_1');
    assert.equal(body.subscription_kind, 'dashboard');
    assert.equal(body.dashboard_name, 'Sales <weekly> & more');
    assert.equal(body.widgets.length, 5);
    assert.equal(body.widgets[2].chart_type, 'bar', 'the override wins');
    assert.equal(body.widgets[4].rows.length, 60);
  });

  test('webhook errors: 4xx permanent except 408/429, a redirect permanent, an unknown secret never sent', async () => {
    const report = composeInsightReport({ subscription: { id: 's', schedule: 'daily' }, result: revenue });
    hooks.answerNext({ status: 400, body: 'bad' });
    assert.equal((await rejection(transports.send(webhook, report, ctx()))).retryable, false);
    hooks.answerNext({ status: 408 });
    assert.equal((await rejection(transports.send(webhook, report, ctx()))).retryable, true);
    hooks.answerNext({ status: 429, headers: { 'retry-after': '2' } });
    assert.equal((await rejection(transports.send(webhook, report, ctx()))).retryAfterMs, 2000);
    hooks.answerNext({ status: 307, headers: { location: 'https://169.254.169.254/latest' } });
    const redirect = await rejection(transports.send(webhook, report, ctx()));
    assert.equal(redirect.retryable, false);
    assert.match(redirect.message, /redirects are not followed/);
    const payload = hooks.received[hooks.received.length - 1].payload;
    assert.equal(payload.type, 'insight.report');
    assert.equal(payload.insight_code, 'revenue');
    assert.deepEqual(payload.period, revenue.period);
    assert.equal(payload.rows.length, 30);
    assert.deepEqual(payload.chart_hint, revenue.chart_hint);
  });

  test('a refused address is permanent, an unreachable one retryable', async () => {
    const strict = new EgressGuard([]);
    try {
      const refused = createTransports({ messengerApiUrl: bot.url, smtpUrl: smtp.url, smtpFrom: 'x@y.example' }, strict);
      const report = composeInsightReport({ subscription: { id: 's', schedule: 'daily' }, result: kpi });
      const a = await rejection(refused.send(messenger, report, ctx()));
      assert.equal(a.retryable, false);
      assert.match(a.message, /Refused/);
      const b = await rejection(refused.send(email, report, ctx()));
      assert.equal(b.retryable, false);
      assert.match(b.message, /INSIGHTS_EGRESS_ALLOW/);
    } finally {
      await strict.close();
    }
    const down = createTransports(
      { messengerApiUrl: 'http://127.0.0.1:1', smtpUrl: 'smtp://127.0.0.1:1', smtpFrom: 'x@y.example' },
      egress,
    );
    const report = composeInsightReport({ subscription: { id: 's', schedule: 'daily' }, result: kpi });
    const unreachable = await rejection(down.send(messenger, report, ctx()));
    assert.equal(unreachable.retryable, true);
    assert.ok(!unreachable.message.includes(TOKEN) && !unreachable.message.includes('/bot'), 'the token-bearing path never shows');
    assert.equal((await rejection(down.send(email, report, ctx()))).retryable, true);
  });
});
