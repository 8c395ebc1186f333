// A cohort insight (the demo's customer_retention) delivered for real: an insight subscription by
// e-mail, on the messenger and to Slack, a dashboard subscription with its PDF. Each shows the retention
// triangle the web app draws (docs/channels.md "Cohorts"): a row per cohort with its size,
// a column per period since, the retention in percent in each cell, shaded by it with text that
// keeps a contrast of at least 4.5:1; never the long table of one row per cohort and period.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EgressGuard } from '../../../src/adapters/egress.ts';
import { ManualClock } from '../../../src/lib/clock.ts';
import { formatValue } from '../../../src/lib/charts/number-format.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { pdfFills, pdfLines, pdfTexts } from '../../helpers/pdf-text.ts';
import { contrast, lighterThan } from '../../helpers/contrast.ts';
import { startFakeBotApi, type FakeBotApi } from '../../fakes/bot-api.ts';
import { startFakeSmtp, type FakeSmtp } from '../../fakes/smtp.ts';
import { startFakeChatTools, type FakeChatTools } from '../../fakes/chat-tools.ts';

const TOKEN = '123456:ABCdefGhIJKlmnoPQRstuVWxyz';
const pct = (v: number) => formatValue(v, { type: 'percent', decimals: 1 });
const count = (v: number) => formatValue(v, { type: 'integer' });

interface Cohort {
  cohort: string;
  size: number;
  retention: number[];
}

/** The triangle the answer's rows make, from execute: the oracle the renderings are read against. */
function cohortsOf(rows: Record<string, unknown>[]): Cohort[] {
  const by = new Map<string, Cohort>();
  for (const r of rows) {
    const c = by.get(String(r.cohort)) ?? { cohort: String(r.cohort), size: Number(r.size), retention: [] };
    by.set(c.cohort, c);
    c.retention[Number(r.period)] = Number(r.retention);
  }
  return [...by.values()];
}

describe('a cohort insight in the e-mail, the PDF, the messenger and Slack', () => {
  let t: TestApp;
  let smtp: FakeSmtp;
  let bot: FakeBotApi;
  let tools: FakeChatTools;
  let egress: EgressGuard;
  let owner: string;
  let cohorts: Cohort[];
  const channels: Record<string, string> = {};

  before(async () => {
    [smtp, bot, tools] = await Promise.all([startFakeSmtp(), startFakeBotApi({ tokens: [TOKEN], chats: ['42'] }), startFakeChatTools()]);
    egress = new EgressGuard(['127.0.0.0/8']);
    t = await buildTestApp({
      clock: new ManualClock(new Date('2026-03-10T09:15:00.000Z')),
      env: { INSIGHTS_MESSENGER_API_URL: bot.url, SMTP_URL: smtp.url, SMTP_FROM: 'Insights <reports@insights.example>' },
      deps: { egress },
    });
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    for (const [type, config] of [
      ['email', { email: 'growth@acme.example' }],
      ['messenger', { bot_token: TOKEN, chat_id: '42' }],
      ['slack', { webhook_url: tools.webhookUrl('slack') }],
    ] as const) {
      const res = await call(t, owner, 'POST', '/api/v1/notifications/channels', { channel_type: type, config });
      assert.equal(res.statusCode, 201, res.body);
      channels[type] = res.data.id;
    }
    const e = await call(t, owner, 'GET', '/api/v1/insights/customer_retention/execute?granularity=month');
    assert.equal(e.statusCode, 200, e.body);
    cohorts = cohortsOf(e.data.data.rows);
    // A triangle worth reading: several cohorts, the oldest followed over several periods, not all 100 % or 0 %.
    assert.ok(cohorts.length >= 3, `${cohorts.length} cohorts`);
    assert.ok(cohorts[0].retention.length >= 3);
    assert.ok(cohorts.some((c) => c.retention.slice(1).some((r) => r > 0 && r < 100)));
  });
  after(async () => {
    await t.close();
    await egress.close();
    await Promise.all([smtp.close(), bot.close(), tools.close()]);
  });

  async function sendInsight(channel: string) {
    const s = await call(t, owner, 'POST', '/api/v1/notifications/subscriptions', {
      insight_code: 'customer_retention',
      granularity: 'month',
      schedule: 'weekly',
      channel_id: channel,
    });
    assert.equal(s.statusCode, 201, s.body);
    assert.equal((await call(t, owner, 'POST', `/api/v1/notifications/subscriptions/${s.data.id}/send`, {})).statusCode, 202);
    assert.deepEqual(
      (await t.app.services.deliveryWorker.runOnce()).map((o) => o.status),
      ['succeeded'],
    );
  }

  test('the e-mail draws the triangle: period headers, a row per cohort with its size, shaded percentages', async () => {
    const seen = smtp.mails.length;
    await sendInsight(channels.email);
    const mail = await smtp.waitForMail(seen);
    const html = String(mail.parsed.html);
    const section = html.slice(html.indexOf('>Customer retention</h2>'));
    const table = /<thead>([\s\S]*?)<\/thead><tbody>([\s\S]*?)<\/tbody>/.exec(section)!;
    assert.ok(table, 'the section has a table');
    const cellText = (h: string) => h.replace(/<[^>]+>/g, '');
    const headers = [...table[1].matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/g)].map((m) => cellText(m[1]));
    const width = cohorts[0].retention.length;
    assert.deepEqual(headers, ['Cohort', 'Cohort size', ...Array.from({ length: width }, (_, i) => String(i))]);

    const rows = [...table[2].matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) =>
      [...m[1].matchAll(/<t[hd]\b([^>]*)>([\s\S]*?)<\/t[hd]>/g)].map((c) => ({ style: c[1], text: cellText(c[2]) })),
    );
    assert.equal(rows.length, cohorts.length, 'a row per cohort, not per cohort and period');
    const shades: { retention: number; background: string }[] = [];
    rows.forEach((cells, i) => {
      const c = cohorts[i];
      assert.equal(cells.length, 2 + width);
      assert.deepEqual([cells[0].text, cells[1].text], [c.cohort, count(c.size)]);
      for (let p = 0; p < width; p++) {
        const cell = cells[2 + p];
        if (c.retention[p] === undefined) {
          assert.equal(cell.text, '', `${c.cohort}: nothing past the window in period ${p}`);
          continue;
        }
        assert.equal(cell.text, pct(c.retention[p]), `${c.cohort} period ${p}`);
        const background = /background:(#[0-9a-f]{6})/.exec(cell.style)?.[1];
        const colour = /[;"]color:(#[0-9a-f]{6})/.exec(cell.style)?.[1];
        assert.ok(background && colour, `${c.cohort} period ${p} is shaded: ${cell.style}`);
        assert.ok(contrast(background, colour) >= 4.5, `${background} on ${colour}: ${contrast(background, colour)}`);
        shades.push({ retention: c.retention[p], background });
      }
    });
    // Darker with retention: period 0 (100 %) darkest, the lower the lighter.
    shades.sort((a, b) => a.retention - b.retention);
    for (let i = 1; i < shades.length; i++)
      assert.ok(lighterThan(shades[i - 1].background, shades[i].background) >= 0, `${JSON.stringify(shades.slice(i - 1, i + 1))}`);
    assert.notEqual(shades[0].background, shades.at(-1)!.background);

    // The plain-text part: the same triangle in columns.
    const text = String(mail.parsed.text).split('\n');
    const head = text.findIndex((l) => /^Cohort\s+Cohort size\s+0\s+1\b/.test(l));
    assert.ok(head >= 0, String(mail.parsed.text));
    assert.deepEqual(
      text[head].split(/\s{2,}/).slice(2),
      Array.from({ length: width }, (_, i) => String(i)),
    );
    cohorts.forEach((c, i) => {
      const line = text[head + 2 + i].trim().split(/\s+/);
      assert.deepEqual(line, [c.cohort, count(c.size), ...c.retention.map(pct)]);
    });
    // The rows as they are still ride along as CSV.
    const csv = mail.parsed.attachments.find((a) => a.contentType.startsWith('text/csv'))!;
    assert.equal(csv.content.toString('utf8').trim().split('\r\n').length, cohorts.reduce((n, c) => n + c.retention.length, 0) + 1);
  });

  test('the messenger writes the triangle in a monospace block', async () => {
    const seen = bot.calls.length;
    await sendInsight(channels.messenger);
    const text = bot.calls
      .slice(seen)
      .filter((c) => c.method === 'sendMessage')
      .map((c) => c.params.text)
      .join('\n');
    const pre = /<pre>([\s\S]*?)<\/pre>/.exec(text)?.[1].split('\n');
    assert.ok(pre, text);
    assert.deepEqual(pre[0].split(/\s{2,}/), [
      'Cohort',
      'Cohort size',
      ...['0', '1', '2', '3', '4', '5'].slice(0, cohorts[0].retention.length),
    ]);
    const shown = cohorts.slice(-15);
    shown.forEach((c, i) => {
      assert.deepEqual(pre[2 + i].trim().split(/\s+/), [c.cohort, count(c.size), ...c.retention.slice(0, 6).map(pct)]);
    });
  });

  test('Slack lists the latest cohorts, each with its size and its retention per period', async () => {
    const seen = tools.received.length;
    await sendInsight(channels.slack);
    const [post] = tools.received.slice(seen);
    const fields = post.body.blocks.find((b: { fields?: unknown }) => b.fields).fields.map((f: { text: string }) => f.text);
    assert.deepEqual(
      fields,
      cohorts
        .slice(-10)
        .map((c) => `*${c.cohort} · Cohort size ${count(c.size)}*\n${c.retention.map((r, p) => `${p}: ${pct(r)}`).join(' · ')}`),
    );
  });

  test('the dashboard PDF lays the triangle out: header periods, a row per cohort with its size, shaded cells', async () => {
    const d = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Growth' });
    const w = await call(t, owner, 'POST', `/api/v1/dashboards/${d.data.id}/widgets`, {
      title: 'Customer retention',
      widget_type: 'table',
      data_source: 'live_insight',
      insight_code: 'customer_retention',
      display_size: 'full',
    });
    assert.equal(w.statusCode, 201, w.body);
    const s = await call(t, owner, 'POST', `/api/v1/dashboards/${d.data.id}/subscriptions`, {
      dashboard_id: d.data.id,
      dashboard_name: 'Growth',
      channel_ids: [channels.email],
      schedule: 'daily',
      schedule_time: '07:00',
    });
    assert.equal(s.statusCode, 201, s.body);
    const seen = smtp.mails.length;
    assert.equal((await call(t, owner, 'POST', `/api/v1/dashboards/subscriptions/${s.data.id}/send`)).statusCode, 202);
    assert.deepEqual(
      (await t.app.services.deliveryWorker.runOnce()).map((o) => o.status),
      ['succeeded'],
    );
    const mail = await smtp.waitForMail(seen);
    assert.match(String(mail.parsed.html), /<th\b[^>]*>Cohort size<\/th>/, 'the dashboard e-mail draws the triangle too');
    const pdf = mail.parsed.attachments.find((a) => a.contentType === 'application/pdf')!.content;

    const lines = pdfLines(pdf).map((l) => l.map((p) => p.text));
    const width = cohorts[0].retention.length;
    const head = lines.findIndex((l) => l[0] === 'Cohort');
    assert.ok(head >= 0, JSON.stringify(lines));
    assert.deepEqual(lines[head], ['Cohort', 'Cohort size', ...Array.from({ length: width }, (_, i) => String(i))]);
    cohorts.forEach((c, i) => {
      assert.deepEqual(lines[head + 1 + i], [c.cohort, count(c.size), ...c.retention.map(pct)], c.cohort);
    });

    // Each percentage sits on a shaded cell, read in a colour with a contrast of at least 4.5:1;
    // the cohort and size columns are not shaded.
    const fills = pdfFills(pdf);
    const inside = (p: { x: number; y: number }) =>
      fills.find((f) => p.x >= f.x && p.x <= f.x + f.width && p.y >= f.y && p.y <= f.y + f.height);
    const texts = pdfTexts(pdf);
    const cells = texts.filter((p) => /%$/.test(p.text));
    assert.equal(
      cells.length,
      cohorts.reduce((n, c) => n + c.retention.length, 0),
    );
    const shades = new Map<string, string>();
    for (const cell of cells) {
      const fill = inside(cell);
      assert.ok(fill, `${cell.text} at ${cell.x},${cell.y} is on a shaded cell`);
      assert.ok(contrast(fill.colour, cell.colour) >= 4.5, `${cell.text}: ${cell.colour} on ${fill.colour}`);
      shades.set(cell.text, fill.colour);
    }
    assert.equal(shades.size > 1, true, 'the shade follows the value');
    assert.ok(lighterThan(shades.get(pct(100))!, [...shades.values()].find((c) => c !== shades.get(pct(100)))!) < 0, '100 % is darkest');
    for (const c of cohorts) assert.equal(inside(texts.find((p) => p.text === c.cohort)!), undefined);
  });
});
