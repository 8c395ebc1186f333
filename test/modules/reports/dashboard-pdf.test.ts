// The whole dashboard as a PDF: made without a browser, charts as vectors, tables over pages, and
// carried by every transport of a dashboard subscription (an e-mail attachment, a messenger
// document, base64 in the webhook payload up to its limit); attach_pdf: false leaves it out.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EgressGuard } from '../../../src/adapters/egress.ts';
import { ManualClock } from '../../../src/lib/clock.ts';
import { renderDashboardPdf } from '../../../src/adapters/charts/pdf.ts';
import { composeInsightReport } from '../../../src/modules/reports/compose.ts';
import { pdfField } from '../../../src/adapters/delivery/webhook.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { startFakeBotApi, type FakeBotApi } from '../../fakes/bot-api.ts';
import { startFakeSmtp, type FakeSmtp } from '../../fakes/smtp.ts';
import { startWebhookReceiver, type FakeWebhookReceiver } from '../../fakes/webhook-receiver.ts';
import { signingSecret } from '../../helpers/notify.ts';
import { sampleDashboardReport } from '../../../bench/fixtures/dashboard-report.ts';

const TOKEN = '123456:ABCdefGhIJKlmnoPQRstuVWxyz';
const pages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
const isPdf = (b: Buffer) => b.subarray(0, 5).toString('latin1') === '%PDF-' && b.subarray(-8).toString('latin1').includes('%%EOF');

describe('dashboard PDF', () => {
  test('one document, pages grow with the table, charts are vectors (no raster image)', async () => {
    const at = new Date('2026-11-23T08:00:00Z');
    const short = await renderDashboardPdf(sampleDashboardReport(5), at);
    const long = await renderDashboardPdf(sampleDashboardReport(200), at);
    assert.ok(isPdf(short) && isPdf(long));
    // Six widgets: KPI, KPI, line (one row of the 4-column grid), stacked bar + pie (the next),
    // then the table; 5 rows fit the second page, 200 run over several, header repeated.
    assert.equal(pages(short), 2);
    assert.ok(pages(long) >= 6, `${pages(long)} pages`);
    for (const pdf of [short, long]) assert.doesNotMatch(pdf.toString('latin1'), /\/Subtype \/Image/);
    // Fonts are embedded (subset), so it reads the same everywhere.
    assert.match(short.toString('latin1'), /\/FontFile2/);
  });

  test('the webhook carries it as base64 up to the limit, above it a note says why not', async () => {
    const doc = { filename: 'sales.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.3 tiny') };
    assert.deepEqual(pdfField(doc, 1024), {
      filename: 'sales.pdf',
      content_type: 'application/pdf',
      size_bytes: 13,
      content_base64: doc.content.toString('base64'),
    });
    const big = pdfField(doc, 10);
    assert.equal(big.content_base64, undefined);
    assert.equal(big.size_bytes, 13);
    assert.match(String(big.omitted), /larger than/);
  });
});

describe('dashboard PDF on every transport', () => {
  let t: TestApp;
  let bot: FakeBotApi;
  let smtp: FakeSmtp;
  let receiver: FakeWebhookReceiver;
  let egress: EgressGuard;
  let owner: string;
  let dash: string;
  const channels: Record<string, string> = {};

  before(async () => {
    [bot, smtp, receiver] = await Promise.all([
      startFakeBotApi({ tokens: [TOKEN], chats: ['42'] }),
      startFakeSmtp(),
      startWebhookReceiver(),
    ]);
    egress = new EgressGuard(['127.0.0.0/8'], { ca: receiver.ca });
    t = await buildTestApp({
      clock: new ManualClock(new Date()),
      env: { INSIGHTS_MESSENGER_API_URL: bot.url, SMTP_URL: smtp.url, SMTP_FROM: 'Insights <reports@insights.example>' },
      deps: { egress },
    });
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    for (const [type, config] of [
      ['messenger', { bot_token: TOKEN, chat_id: '42' }],
      ['email', { email: 'boss@acme.example' }],
      ['webhook', { webhook_url: `${receiver.origin}/pdf` }],
    ] as const) {
      const res = await call(t, owner, 'POST', '/api/v1/notifications/channels', { channel_type: type, config });
      assert.equal(res.statusCode, 201, res.body);
      channels[type] = res.data.id;
    }
    const outbound = await t.app.services.channels.getForDelivery('acme', channels.webhook);
    receiver.secret = signingSecret(outbound!.config);
    const d = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Weekly sales' });
    dash = d.data.id;
    for (const w of [
      { title: 'Revenue this month', widget_type: 'kpi', data_source: 'live_insight', insight_code: 'revenue_kpi', display_size: 'small' },
      {
        title: 'Revenue by month',
        widget_type: 'chart',
        data_source: 'live_insight',
        insight_code: 'revenue',
        granularity: 'month',
        display_size: 'large',
      },
      { title: 'Best sellers', widget_type: 'table', data_source: 'live_insight', insight_code: 'top_products', display_size: 'full' },
    ]) {
      const res = await call(t, owner, 'POST', `/api/v1/dashboards/${dash}/widgets`, w);
      assert.equal(res.statusCode, 201, res.body);
    }
  });
  after(async () => {
    await t.close();
    await egress.close();
    await Promise.all([bot.close(), smtp.close(), receiver.close()]);
  });

  async function sendNow(attachPdf?: boolean) {
    const res = await call(t, owner, 'POST', `/api/v1/dashboards/${dash}/subscriptions`, {
      dashboard_id: dash,
      dashboard_name: 'Weekly sales',
      channel_ids: Object.values(channels),
      schedule: 'daily',
      schedule_time: '07:00',
      ...(attachPdf === undefined ? {} : { attach_pdf: attachPdf }),
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.data.attach_pdf, attachPdf ?? true);
    const seen = { bot: bot.calls.length, mail: smtp.mails.length, hook: receiver.received.length };
    assert.equal((await call(t, owner, 'POST', `/api/v1/dashboards/subscriptions/${res.data.id}/send`)).statusCode, 202);
    const outcomes = await t.app.services.deliveryWorker.runOnce();
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['succeeded', 'succeeded', 'succeeded'],
    );
    const mail = await smtp.waitForMail(seen.mail);
    return { calls: bot.calls.slice(seen.bot), mail, hooks: receiver.received.slice(seen.hook) };
  }

  test('attached on e-mail, sent as a messenger document, inline in the webhook payload', async () => {
    const { calls, mail, hooks } = await sendNow();
    const doc = calls.find((c) => c.method === 'sendDocument');
    assert.ok(doc, 'the messenger got a sendDocument');
    assert.equal(doc.files.document.filename, 'weekly-sales.pdf');
    assert.equal(doc.files.document.contentType, 'application/pdf');
    assert.ok(isPdf(doc.files.document.data));
    assert.match(doc.params.caption, /Weekly sales/);

    const pdfs = mail.parsed.attachments.filter((a) => a.contentType === 'application/pdf');
    assert.equal(pdfs.length, 1);
    assert.equal(pdfs[0].filename, 'weekly-sales.pdf');
    assert.ok(isPdf(pdfs[0].content));
    // Beside today's inline chart and CSVs.
    assert.ok(mail.parsed.attachments.some((a) => a.contentType === 'image/png'));
    assert.equal(mail.parsed.attachments.filter((a) => a.contentType.startsWith('text/csv')).length, 3);

    assert.equal(hooks.length, 1);
    assert.equal(hooks[0].verified, true, hooks[0].verifyError);
    const pdf = hooks[0].payload.pdf;
    assert.equal(pdf.filename, 'weekly-sales.pdf');
    const bytes = Buffer.from(pdf.content_base64, 'base64');
    assert.equal(bytes.length, pdf.size_bytes);
    assert.ok(isPdf(bytes));
    // One document made for the three channels.
    assert.ok(bytes.equals(pdfs[0].content) && bytes.equals(doc.files.document.data));
  });

  test('an alert says its condition and the value first, on the messenger and in the e-mail', async () => {
    const result = await t.app.services.insights.execute('acme', 'revenue_kpi', { granularity: 'month' });
    const alert = {
      condition: { op: 'above', value: 1000 },
      met: true,
      measure: 'value',
      value: 1234.5,
      change_pct: 3,
      period: '2026-10-24 – 2026-11-22',
      text: 'Alert: value is above 1,000 — the value for 2026-10-24 – 2026-11-22 is 1,235.',
    };
    const report = composeInsightReport({ subscription: { id: 'sub_a', schedule: 'daily', insight_name: 'Revenue KPI' }, result, alert });
    assert.equal(report.title, 'Alert: Revenue KPI — daily report');
    const seen = { bot: bot.calls.length, mail: smtp.mails.length };
    for (const type of ['messenger', 'email'] as const) {
      const outbound = await t.app.services.channels.getForDelivery('acme', channels[type]);
      await t.app.services.transports.send(outbound!, report, { deliveryId: `dlv_alert_${type}`, sentAt: t.clock.now() });
    }
    const text = bot.calls.slice(seen.bot).find((c) => c.method === 'sendMessage')!.params.text;
    assert.match(text, /Alert: value is above 1,000 — the value for 2026-10-24 – 2026-11-22 is 1,235\./);
    const mail = await smtp.waitForMail(seen.mail);
    assert.equal(mail.parsed.subject, 'Alert: Revenue KPI — daily report');
    assert.match(String(mail.parsed.text), /Alert: value is above 1,000 — the value for 2026-10-24 – 2026-11-22 is 1,235\./);
    assert.match(String(mail.parsed.html), /Alert: value is above 1,000/);
  });

  test('attach_pdf: false sends the report without it', async () => {
    const { calls, mail, hooks } = await sendNow(false);
    assert.ok(!calls.some((c) => c.method === 'sendDocument'));
    assert.ok(calls.length > 0);
    assert.ok(!mail.parsed.attachments.some((a) => a.contentType === 'application/pdf'));
    assert.equal(hooks[0].payload.pdf, undefined);
  });
});
