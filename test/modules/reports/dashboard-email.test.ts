// A dashboard built through the API, run by the real insight engine on the test warehouse, composed
// and e-mailed over SMTP: every widget shows in the mail (charts as inline PNGs, the table, the
// KPI as a big number), every widget's rows ride along as CSV.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG_SIGNATURE } from '../../../src/adapters/charts/renderer.ts';
import { EgressGuard } from '../../../src/adapters/egress.ts';
import { formatNumber } from '../../../src/adapters/charts/kpi.ts';
import { composeDashboardReport } from '../../../src/modules/reports/compose.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { startFakeSmtp, type FakeSmtp } from '../../fakes/smtp.ts';

describe('dashboard report by e-mail, from real insight results', () => {
  let t: TestApp;
  let smtp: FakeSmtp;
  let egress: EgressGuard;
  let owner: string;
  before(async () => {
    smtp = await startFakeSmtp();
    egress = new EgressGuard(['127.0.0.0/8']);
    t = await buildTestApp({ env: { SMTP_URL: smtp.url, SMTP_FROM: 'Insights <reports@insights.example>' }, deps: { egress } });
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
  });
  after(async () => {
    await t.close();
    await egress.close();
    await smtp.close();
  });

  test('every widget is in the mail', async () => {
    const d = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Weekly sales', description: 'For the sales team' });
    assert.equal(d.statusCode, 201, d.body);
    const widgets = [
      { title: 'Revenue by month', widget_type: 'chart', data_source: 'live_insight', insight_code: 'revenue', granularity: 'month' },
      {
        title: 'Revenue by channel',
        widget_type: 'chart',
        data_source: 'live_insight',
        insight_code: 'revenue_by_channel',
        chart_hint_override: { chart_type: 'bar' },
      },
      { title: 'Best sellers', widget_type: 'table', data_source: 'live_insight', insight_code: 'top_products' },
      { title: 'Revenue this month', widget_type: 'kpi', data_source: 'live_insight', insight_code: 'revenue_kpi' },
    ];
    for (const w of widgets) {
      const res = await call(t, owner, 'POST', `/api/v1/dashboards/${d.data.id}/widgets`, w);
      assert.equal(res.statusCode, 201, res.body);
    }
    const channel = await call(t, owner, 'POST', '/api/v1/notifications/channels', {
      channel_type: 'email',
      config: { email: 'sales@acme.example' },
    });

    const dashboard = await t.app.services.dashboards.getForSystem('acme', d.data.id);
    const results = await Promise.all(
      dashboard.widgets.map(async (widget) => ({
        widget,
        result: await t.app.services.widgets.execute('acme', dashboard, widget as never),
      })),
    );
    const report = composeDashboardReport({
      subscription: { id: 'sub_x', schedule: 'weekly', dashboard_id: dashboard.id },
      dashboard,
      widgets: results,
    });
    const outbound = await t.app.services.channels.getForDelivery('acme', channel.data.id);
    const seen = smtp.mails.length;
    await t.app.services.transports.send(outbound!, report, { deliveryId: 'dlv_dash_1', sentAt: t.clock.now() });
    const mail = await smtp.waitForMail(seen);
    const html = String(mail.parsed.html);

    assert.equal(mail.parsed.subject, 'Weekly sales — weekly dashboard report');
    for (const w of widgets) assert.ok(html.includes(`>${w.title}</h2>`), w.title);
    const images = mail.parsed.attachments.filter((a) => a.contentType === 'image/png');
    assert.equal(images.length, 2, 'the two chart widgets are pictures');
    for (const img of images) {
      assert.ok(img.content.subarray(0, 8).equals(PNG_SIGNATURE));
      assert.ok(html.includes(`cid:${img.cid}`));
    }
    fs.writeFileSync(path.join(os.tmpdir(), 'insights-dashboard-bar.png'), images[1].content);

    const kpiRow = results[3].result.rows[0] as Record<string, number>;
    assert.ok(html.includes(formatNumber(kpiRow.value)), 'the KPI value is shown big');
    const topProduct = String(results[2].result.rows[0].product_name);
    assert.ok(html.includes(topProduct), 'the table shows the best seller');
    const csvs = mail.parsed.attachments.filter((a) => a.contentType.startsWith('text/csv'));
    assert.equal(csvs.length, 4);
    const monthly = csvs[0].content.toString('utf8').trim().split('\r\n');
    assert.equal(monthly.length, results[0].result.rows.length + 1);
  });
});
