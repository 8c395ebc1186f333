// A subscription to a rolling insight (the demo's rolling_revenue: revenue over the 3 months ending
// with each period, and the year's revenue so far) sent now, once: the webhook gets every period's
// figures as computed here by hand from the warehouse's daily sums, windows reaching before the
// report's first period and the subscription's filter applied inside them.
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

const day = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const monthsBefore = (d: string, n: number) => {
  const t = new Date(Date.parse(`${d}T00:00:00Z`));
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() - n, t.getUTCDate())).toISOString().slice(0, 10);
};

/** Revenue of the completed orders of acme (of one sales channel) from `from` up to, not including, `to`. */
async function revenueBetween(channel?: string) {
  const daily = await f.t.warehouse.query(
    `SELECT strftime(ordered_at, '%Y-%m-%d') AS d, sum(revenue) AS revenue FROM orders
     WHERE tenant_id = 'acme' AND status = 'completed' ${channel ? `AND channel = '${channel}'` : ''} GROUP BY 1`,
  );
  return (from: string, to: string) =>
    daily.filter((r) => String(r.d) >= from && String(r.d) < to).reduce((a, r) => a + Number(r.revenue), 0);
}

test('rolling revenue by month, sent now: one delivery, every period as computed by hand', async () => {
  const channel = await webhookChannel(f, owner);
  const firstOf: number[] = [];
  for (const filters of [undefined, { channel: 'mobile' }]) {
    const s = await insightSubscription(f, owner, {
      insight_code: 'rolling_revenue',
      granularity: 'month',
      channel_id: channel,
      ...(filters ? { filters } : {}),
    });
    const seen = receivedBy(f, channel).length;
    assert.equal((await call(f.t, owner, 'POST', `/api/v1/notifications/subscriptions/${s.id}/send`, {})).statusCode, 202);
    assert.deepEqual(
      (await f.t.app.services.deliveryWorker.runOnce()).map((o) => o.status),
      ['succeeded'],
    );
    assert.deepEqual(await f.t.app.services.deliveryWorker.runOnce(), [], 'sent once: nothing left to send');
    const got = receivedBy(f, channel, seen);
    assert.equal(got.length, 1);
    assert.equal(got[0].verified, true, got[0].verifyError);
    const body = JSON.parse(got[0].body);
    assert.equal(body.insight_code, 'rolling_revenue');
    assert.deepEqual(
      body.columns.map((c: { name: string }) => c.name),
      ['period', 'revenue_3m', 'revenue_ytd'],
    );
    const over = await revenueBetween(filters?.channel);
    const periods = body.rows.map((r: { period: string }) => r.period);
    assert.ok(periods.length >= 2, JSON.stringify(body.period));
    assert.equal(periods[0], body.period.from.slice(0, 8) + '01', 'month starts, from the first of the window');
    let years = new Set<string>();
    body.rows.forEach((row: { period: string; revenue_3m: number; revenue_ytd: number }, i: number) => {
      const end = periods[i + 1] ?? day(body.period.to, 1);
      const what = `${JSON.stringify(filters ?? {})} ${row.period}`;
      const threeMonths = over(monthsBefore(end, 3), end);
      const toDate = over(`${day(end, -1).slice(0, 4)}-01-01`, end);
      assert.ok(Math.abs(row.revenue_3m - threeMonths) <= 0.011, `3 months ${what}: ${row.revenue_3m} vs ${threeMonths}`);
      assert.ok(Math.abs(row.revenue_ytd - toDate) <= 0.011, `to date ${what}: ${row.revenue_ytd} vs ${toDate}`);
      years = years.add(row.period.slice(0, 4));
    });
    // The first period's window reaches before the report's, and a year boundary is crossed.
    assert.ok(body.rows[0].revenue_3m > over(periods[0], periods[1]), 'the first 3 months reach before the window');
    assert.ok(years.size >= 2, `periods of ${[...years].join(', ')}`);
    firstOf.push(body.rows[0].revenue_3m);
  }
  assert.ok(firstOf[1] > 0 && firstOf[1] < firstOf[0], `the filter applies inside the window: ${firstOf.join(' vs ')}`);
});

test('an alert on a rolling insight reads the named rolling measure of the last complete period', async () => {
  const channel = await webhookChannel(f, owner);
  const over = await revenueBetween();
  // 2026-03-10: March is still running, so the alert reads February: revenue over the three months
  // ending with it (December to February) and the year's revenue to its end.
  const threeMonths = over('2025-12-01', '2026-03-01');
  const toDate = over('2026-01-01', '2026-03-01');
  assert.ok(threeMonths > toDate && toDate > 0, `${threeMonths} vs ${toDate}`);
  for (const [measure, value] of [
    ['revenue_3m', threeMonths],
    ['revenue_ytd', toDate],
  ] as const) {
    for (const [op, threshold, met] of [
      ['above', value - 1, true],
      ['above', value + 1, false],
    ] as const) {
      const condition = { op, value: Math.round(threshold * 100) / 100, measure };
      const s = await insightSubscription(f, owner, {
        insight_code: 'rolling_revenue',
        granularity: 'month',
        channel_id: channel,
        condition,
      });
      const seen = receivedBy(f, channel).length;
      // Send-now always sends, and says how the condition stands.
      assert.equal((await call(f.t, owner, 'POST', `/api/v1/notifications/subscriptions/${s.id}/send`, {})).statusCode, 202);
      await f.t.app.services.deliveryWorker.runOnce();
      const got = receivedBy(f, channel, seen);
      assert.equal(got.length, 1);
      const { alert } = JSON.parse(got[0].body);
      const what = `${measure} ${op} ${condition.value}`;
      assert.equal(alert.measure, measure, what);
      assert.ok(Math.abs(alert.value - value) <= 0.011, `${what}: the alert read ${alert.value}, by hand ${value}`);
      assert.equal(alert.met, met, what);
    }
  }
});
