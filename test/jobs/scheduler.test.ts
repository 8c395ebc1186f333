import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../helpers/app.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import {
  buildNotifyApp,
  dashboard,
  drain,
  insightSubscription,
  logs,
  receivedBy,
  soon,
  switchAllOff,
  webhookChannel,
  type NotifyFixture,
} from '../helpers/notify.ts';

const H = 3_600_000;

describe('scheduler: slots become deliveries, once', () => {
  let f: NotifyFixture;
  let owner: string;
  let channel: string;
  before(async () => {
    f = await buildNotifyApp({ clock: new ManualClock(new Date()) });
    owner = await f.t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    channel = await webhookChannel(f, owner);
  });
  after(() => f.close());

  const tick = () => f.t.app.services.scheduler.tick();
  beforeEach(() => switchAllOff(f, owner));

  test('a due slot is delivered exactly once per channel, signed, with its log row', async () => {
    f.t.clock.set(new Date());
    const { time, slot } = soon();
    const s = await insightSubscription(f, owner, { channel_id: channel, schedule_time: time });
    assert.equal(s.next_run_at, slot.toISOString());
    assert.deepEqual(await tick(), { enqueued: 0, skipped: 0 });
    f.t.clock.set(new Date(slot.getTime() + 400));
    assert.deepEqual(await tick(), { enqueued: 1, skipped: 0 });
    assert.deepEqual(await tick(), { enqueued: 0, skipped: 0 });
    const before = f.receiver.received.length;
    await drain(f);
    const got = f.receiver.received.slice(before);
    assert.equal(got.length, 1);
    assert.equal(got[0].verified, true, got[0].verifyError);
    assert.equal(got[0].payload.type, 'insight.report');
    assert.equal(got[0].payload.subscription_id, s.id);
    assert.equal(got[0].payload.id, got[0].headers['webhook-id']);
    const rows = await logs(f, owner, `?subscription_id=${s.id}`);
    assert.equal(rows.length, 1);
    assert.deepEqual(
      { ...rows[0], id: undefined },
      {
        id: undefined,
        subscription_id: s.id,
        subscription_kind: 'insight',
        insight_name: s.insight_name,
        channel_id: channel,
        channel_type: 'webhook',
        sent_at: new Date(slot.getTime() + 400).toISOString(),
        status: 'success',
        error_message: null,
        attempt: 1,
      },
    );
    const after = (await call(f.t, owner, 'GET', '/api/v1/notifications/subscriptions')).data.find((x: any) => x.id === s.id);
    assert.equal(after.next_run_at, new Date(slot.getTime() + 86_400_000).toISOString());
    await drain(f);
    assert.equal(f.receiver.received.length, before + 1);
  });

  test('an inactive subscription sends nothing, also when switched off after its slot was queued', async () => {
    f.t.clock.set(new Date());
    const { time, slot } = soon();
    const a = await insightSubscription(f, owner, { channel_id: channel, schedule_time: time });
    const b = await insightSubscription(f, owner, { channel_id: channel, schedule_time: time });
    await call(f.t, owner, 'PATCH', `/api/v1/notifications/subscriptions/${a.id}`, { is_active: false });
    f.t.clock.set(slot);
    assert.equal((await tick()).enqueued, 1);
    await call(f.t, owner, 'PATCH', `/api/v1/notifications/subscriptions/${b.id}`, { is_active: false });
    const before = f.receiver.received.length;
    const outcomes = await f.t.app.services.deliveryWorker.runOnce();
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['cancelled'],
    );
    assert.equal(f.receiver.received.length, before);
    assert.equal((await logs(f, owner, `?subscription_id=${b.id}`)).length, 0);
    await call(f.t, owner, 'PATCH', `/api/v1/notifications/subscriptions/${a.id}`, { is_active: true });
    await call(f.t, owner, 'PATCH', `/api/v1/notifications/subscriptions/${b.id}`, { is_active: true });
    // Switched back on after the slot: the next one is tomorrow, nothing is due now.
    assert.equal((await tick()).enqueued, 0);
  });

  test('a slot missed while down is sent once if under 6 h late; 6 h or later it is skipped', async () => {
    f.t.clock.set('2026-05-01T07:00:00.000Z');
    const recent = await insightSubscription(f, owner, { channel_id: channel });
    const old = await insightSubscription(f, owner, { channel_id: channel, schedule_time: '02:00', schedule: 'daily' });
    assert.equal(old.next_run_at, '2026-05-02T02:00:00.000Z');
    // Down until 5 h 59 min after recent's slot of May 2nd.
    f.t.clock.set(new Date(Date.parse('2026-05-02T08:00:00.000Z') + 6 * H - 60_000));
    const r = await tick();
    // recent: slot 2026-05-02T08:00 is 5 h 59 min late → sent; old: 2026-05-02T02:00 is 11 h 59 min late → skipped.
    assert.deepEqual(r, { enqueued: 1, skipped: 1 });
    assert.deepEqual(await tick(), { enqueued: 0, skipped: 0 });
    const list = (await call(f.t, owner, 'GET', '/api/v1/notifications/subscriptions')).data;
    assert.equal(list.find((x: any) => x.id === recent.id).next_run_at, '2026-05-03T08:00:00.000Z');
    assert.equal(list.find((x: any) => x.id === old.id).next_run_at, '2026-05-03T02:00:00.000Z');
    await drain(f);
    assert.equal((await logs(f, owner, `?subscription_id=${recent.id}`)).length, 1);
    assert.equal((await logs(f, owner, `?subscription_id=${old.id}`)).length, 0);
  });

  test('down for days: only the latest slot is sent, once', async () => {
    f.t.clock.set('2026-06-01T07:00:00.000Z');
    const s = await insightSubscription(f, owner, { channel_id: channel });
    f.t.clock.set('2026-06-05T09:00:00.000Z');
    assert.deepEqual(await tick(), { enqueued: 1, skipped: 0 });
    await drain(f);
    const rows = await logs(f, owner, `?subscription_id=${s.id}`);
    assert.equal(rows.length, 1);
    const list = (await call(f.t, owner, 'GET', '/api/v1/notifications/subscriptions')).data;
    assert.equal(list.find((x: any) => x.id === s.id).next_run_at, '2026-06-06T08:00:00.000Z');
  });

  test('a dashboard report goes to each of its channels once, logged under the dashboard name', async () => {
    f.t.clock.set(new Date());
    const { time, slot } = soon();
    const d = await dashboard(f, owner, 'Board report');
    for (const [i, code] of ['revenue', 'orders_count'].entries()) {
      const w = await call(f.t, owner, 'POST', `/api/v1/dashboards/${d}/widgets`, {
        title: `W${i}`,
        widget_type: 'chart',
        data_source: 'live_insight',
        insight_code: code,
        granularity: 'month',
      });
      assert.equal(w.statusCode, 201, w.body);
    }
    const second = await webhookChannel(f, owner, '/second');
    const sub = await call(f.t, owner, 'POST', `/api/v1/dashboards/${d}/subscriptions`, {
      dashboard_id: d,
      dashboard_name: 'x',
      channel_ids: [channel, second],
      schedule: 'daily',
      schedule_time: time,
    });
    assert.equal(sub.statusCode, 201, sub.body);
    f.t.clock.set(new Date(slot.getTime() + 1000));
    assert.deepEqual(await tick(), { enqueued: 2, skipped: 0 });
    const before = [f.receiver.received.length, receivedBy(f, second).length];
    await drain(f);
    const got = [...receivedBy(f, channel, before[0]), ...receivedBy(f, second, before[1])];
    const states = await f.t.db.query('SELECT channel_id, status, attempt, last_error FROM deliveries WHERE subscription_id = $1', [
      sub.data.id,
    ]);
    assert.deepEqual(
      got.map((g) => g.path),
      ['/hook', '/second'],
      JSON.stringify(states),
    );
    for (const g of got) {
      assert.equal(g.verified, true);
      assert.equal(g.payload.type, 'dashboard.report');
      assert.equal(g.payload.dashboard_name, 'Board report');
      assert.equal(g.payload.widgets.length, 2);
    }
    const rows = await logs(f, owner, `?subscription_id=${sub.data.id}`);
    assert.equal(rows.length, 2);
    assert.ok(rows.every((r) => r.insight_name === 'Board report' && r.subscription_kind === 'dashboard' && r.status === 'success'));
    assert.deepEqual(rows.map((r) => r.channel_id).sort(), [channel, second].sort());
  });
});
