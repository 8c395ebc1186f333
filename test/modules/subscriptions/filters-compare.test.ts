// Insight subscriptions with the insight's other filters (a value or a list) and compare: stored,
// shown, checked like execute (errors name /body/filters/<name> or /body/compare), and sent with
// the previous figures and the comparison in the webhook payload.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { call } from '../../helpers/app.ts';
import { buildNotifyApp, insightSubscription, receivedBy, webhookChannel, type NotifyFixture } from '../../helpers/notify.ts';

let f: NotifyFixture;
let owner: string;

before(async () => {
  f = await buildNotifyApp({ clock: new ManualClock(new Date('2026-03-10T09:15:00.000Z')) });
  owner = await f.t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
});
after(() => f.close());

test('filters and compare: stored, shown, sent with the previous figures', async () => {
  const channel = await webhookChannel(f, owner);
  const s = await insightSubscription(f, owner, {
    channel_id: channel,
    country: 'DE',
    filters: { channel: ['web', 'mobile'] },
    compare: 'previous_year',
  });
  assert.deepEqual(s.filters, { channel: ['web', 'mobile'] });
  assert.equal(s.compare, 'previous_year');
  const listed = (await call(f.t, owner, 'GET', '/api/v1/notifications/subscriptions')).data.find((x: { id: string }) => x.id === s.id);
  assert.deepEqual([listed.filters, listed.compare], [{ channel: ['web', 'mobile'] }, 'previous_year']);
  const plain = await insightSubscription(f, owner, { channel_id: channel });
  assert.deepEqual([plain.filters, plain.compare], [null, null]);

  assert.equal((await call(f.t, owner, 'POST', `/api/v1/notifications/subscriptions/${s.id}/send`, {})).statusCode, 202);
  assert.deepEqual(
    (await f.t.app.services.deliveryWorker.runOnce()).map((o) => o.status),
    ['succeeded'],
  );
  const body = JSON.parse(receivedBy(f, channel).at(-1)!.body);
  assert.equal(body.compare, 'previous_year');
  assert.deepEqual(body.filters, { country: 'DE', channel: ['web', 'mobile'] });
  assert.equal(body.chart_hint.series, 'channel');
  assert.ok(
    body.rows.length > 0 &&
      body.rows.every((r: Record<string, unknown>) => ['web', 'mobile'].includes(String(r.channel)) && 'revenue_previous' in r),
  );
  // The same rows execute gives.
  const e = await call(
    f.t,
    owner,
    'GET',
    '/api/v1/insights/revenue/execute?granularity=month&country=DE&channel=web&channel=mobile&compare=previous_year',
  );
  assert.deepEqual(body.rows, e.data.data.rows);
});

test('bad filters and compare are 400s naming the field', async () => {
  const channel = await webhookChannel(f, owner, '/other');
  const cases: [Record<string, unknown>, string][] = [
    [{ filters: { channel: 'fax' } }, '/body/filters/channel'],
    [{ filters: { category: 'Books' } }, '/body/filters/category'],
    [{ filters: { country: ['DE'] }, country: 'FR' }, '/body/filters/country'],
    [{ compare: 'last_week' }, '/body/compare'],
    [{ filters: { channel: ['web', 'mobile'] }, condition: { op: 'above', value: 1 } }, '/body/filters/channel'],
  ];
  for (const [extra, path] of cases) {
    const res = await call(f.t, owner, 'POST', '/api/v1/notifications/subscriptions', {
      insight_code: 'revenue',
      schedule: 'daily',
      granularity: 'month',
      channel_id: channel,
      ...extra,
    });
    assert.equal(res.statusCode, 400, JSON.stringify(extra));
    assert.ok(
      res.data.errors.some((e: { path: string }) => e.path === path),
      `${JSON.stringify(extra)} → ${res.body}`,
    );
  }
});
