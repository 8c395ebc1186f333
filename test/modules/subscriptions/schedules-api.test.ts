// timezone and cron through the API and the scheduler, with the injected clock across DST.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../../helpers/app.ts';
import { ManualClock } from '../../../src/lib/clock.ts';
import { ENQUEUE_AHEAD_MS } from '../../../src/jobs/scheduler.ts';
import {
  buildNotifyApp,
  dashboard,
  drain,
  insightSubscription,
  switchAllOff,
  webhookChannel,
  type NotifyFixture,
} from '../../helpers/notify.ts';

const BASE = '/api/v1/notifications/subscriptions';

describe('time zones and cron through the API', () => {
  let f: NotifyFixture;
  let owner: string;
  let channel: string;
  let dash: string;
  before(async () => {
    f = await buildNotifyApp({ clock: new ManualClock(new Date('2026-03-28T12:00:00.000Z')) });
    owner = await f.t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    channel = await webhookChannel(f, owner);
    dash = await dashboard(f, owner);
  });
  after(() => f.close());
  const tick = () => f.t.app.services.scheduler.tick();
  const slotsOf = async (id: string) =>
    (await f.t.db.query<{ slot_at: Date }>('SELECT slot_at FROM deliveries WHERE subscription_id = $1 ORDER BY slot_at', [id])).map((d) =>
      d.slot_at.toISOString(),
    );
  const nextRunAt = async (id: string) => (await call(f.t, owner, 'GET', BASE)).data.find((x: any) => x.id === id).next_run_at;

  test('unknown zones and bad cron expressions are 400s naming the field', async () => {
    const insight = async (body: Record<string, unknown>, path: string) => {
      const res = await call(f.t, owner, 'POST', BASE, {
        insight_code: 'revenue',
        channel_id: channel,
        schedule: 'daily',
        granularity: 'month',
        ...body,
      });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.ok(
        res.data.errors.some((e: any) => e.path === path),
        `${path} in ${res.body}`,
      );
      return res.data;
    };
    const p = await insight({ timezone: 'Mars/Olympus' }, '/body/timezone');
    assert.match(p.detail, /Mars\/Olympus/);
    await insight({ timezone: '+01:00' }, '/body/timezone');
    await insight({ timezone: '' }, '/body/timezone');
    await insight({ cron: '61 * * * *' }, '/body/cron');
    await insight({ cron: '0 0 0 9 * *' }, '/body/cron');
    await insight({ cron: '0 0 30 2 *' }, '/body/cron');
    await insight({ cron: '* *' }, '/body/cron');
    await insight({ cron: 7 }, '/body/cron');
    const dashboardBody = {
      dashboard_id: dash,
      dashboard_name: 'Sales',
      channel_ids: [channel],
      schedule: 'daily',
      schedule_time: '07:00',
    };
    for (const [body, path] of [
      [{ timezone: 'Europe/Berlinn' }, '/body/timezone'],
      [{ cron: 'every day' }, '/body/cron'],
      [{ attach_pdf: 'yes' }, '/body/attach_pdf'],
    ] as const) {
      const res = await call(f.t, owner, 'POST', `/api/v1/dashboards/${dash}/subscriptions`, { ...dashboardBody, ...body });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.ok(
        res.data.errors.some((e: any) => e.path === path),
        `${path} in ${res.body}`,
      );
    }
  });

  test('schedule_time is read in the zone; next_run_at is UTC; the spring-forward slot runs at 03:00 CEST, once', async () => {
    await switchAllOff(f, owner);
    f.t.clock.set('2026-03-28T12:00:00.000Z');
    const s = await insightSubscription(f, owner, { channel_id: channel, schedule_time: '02:30', timezone: 'Europe/Berlin' });
    assert.equal(s.timezone, 'Europe/Berlin');
    assert.equal(s.schedule_time, '02:30');
    assert.equal(s.next_run_at, '2026-03-29T01:00:00.000Z');
    // Default time 08:00 is local too.
    const d = await insightSubscription(f, owner, { channel_id: channel, timezone: 'America/New_York' });
    // 08:00 EDT is 12:00 UTC, which is now: the next one is tomorrow's.
    assert.equal(d.next_run_at, '2026-03-29T12:00:00.000Z');
    await call(f.t, owner, 'PATCH', `${BASE}/${d.id}`, { is_active: false });

    f.t.clock.set('2026-03-29T01:00:00.500Z');
    assert.equal((await tick()).enqueued, 1);
    assert.equal(await nextRunAt(s.id), '2026-03-30T00:30:00.000Z');
    f.t.clock.set('2026-03-30T00:30:00.100Z');
    assert.equal((await tick()).enqueued, 1);
    assert.deepEqual(await slotsOf(s.id), ['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
  });

  test('fall back: a repeated local time runs once (America/New_York 01:30 on Nov 1)', async () => {
    await switchAllOff(f, owner);
    f.t.clock.set('2026-10-31T12:00:00.000Z');
    const s = await insightSubscription(f, owner, { channel_id: channel, schedule_time: '01:30', timezone: 'America/New_York' });
    assert.equal(s.next_run_at, '2026-11-01T05:30:00.000Z');
    for (const at of ['2026-11-01T05:30:00.200Z', '2026-11-01T06:30:00.200Z', '2026-11-01T07:00:00.000Z']) {
      f.t.clock.set(at);
      await tick();
    }
    assert.deepEqual(await slotsOf(s.id), ['2026-11-01T05:30:00.000Z']);
    assert.equal(await nextRunAt(s.id), '2026-11-02T06:30:00.000Z');
  });

  test('Lord Howe: a time in the 30-minute gap runs at 02:30 LHDT', async () => {
    await switchAllOff(f, owner);
    f.t.clock.set('2026-10-03T00:00:00.000Z');
    const s = await insightSubscription(f, owner, { channel_id: channel, schedule_time: '02:15', timezone: 'Australia/Lord_Howe' });
    assert.equal(s.next_run_at, '2026-10-03T15:30:00.000Z');
    f.t.clock.set('2026-10-03T15:30:00.000Z');
    assert.equal((await tick()).enqueued, 1);
    assert.equal(await nextRunAt(s.id), '2026-10-04T15:15:00.000Z');
  });

  test('cron decides the slots in the zone; schedule stays as sent; both kinds', async () => {
    await switchAllOff(f, owner);
    f.t.clock.set('2026-11-20T12:00:00.000Z'); // a Friday
    const s = await insightSubscription(f, owner, {
      channel_id: channel,
      schedule: 'weekly',
      cron: '0 9 * * 1-5',
      timezone: 'America/New_York',
    });
    assert.equal(s.schedule, 'weekly');
    assert.equal(s.schedule_day_of_week, 1);
    assert.equal(s.cron, '0 9 * * 1-5');
    assert.equal(s.next_run_at, '2026-11-20T14:00:00.000Z');
    const res = await call(f.t, owner, 'POST', `/api/v1/dashboards/${dash}/subscriptions`, {
      dashboard_id: dash,
      dashboard_name: 'Sales',
      channel_ids: [channel],
      schedule: 'monthly',
      schedule_time: '07:00',
      schedule_day_of_month: 1,
      cron: '30 2 * * *',
      timezone: 'Europe/Berlin',
      attach_pdf: false,
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual([res.data.schedule, res.data.schedule_time, res.data.schedule_day_of_month], ['monthly', '07:00', 1]);
    assert.deepEqual([res.data.cron, res.data.timezone, res.data.attach_pdf], ['30 2 * * *', 'Europe/Berlin', false]);
    assert.equal(res.data.next_run_at, '2026-11-21T01:30:00.000Z');
    // Friday 14:00 UTC, then Monday (the weekend has no slot).
    f.t.clock.set('2026-11-20T14:00:00.300Z');
    await tick();
    assert.equal(await nextRunAt(s.id), '2026-11-23T14:00:00.000Z');
    assert.deepEqual(await slotsOf(s.id), ['2026-11-20T14:00:00.000Z']);
    // Re-activation starts from the next slot of the cron expression.
    await call(f.t, owner, 'PATCH', `${BASE}/${s.id}`, { is_active: false });
    f.t.clock.set('2026-11-24T15:00:00.000Z');
    const on = await call(f.t, owner, 'PATCH', `${BASE}/${s.id}`, { is_active: true });
    assert.equal(on.data.next_run_at, '2026-11-25T14:00:00.000Z');
  });

  test('the background loop enqueues ahead of the slot; the delivery still waits for it, and a switch-off cancels it', async () => {
    await switchAllOff(f, owner);
    f.t.clock.set('2026-12-01T06:59:50.000Z');
    await drain(f); // what earlier tests enqueued
    const s = await insightSubscription(f, owner, { channel_id: channel, schedule_time: '07:00' });
    const off = await insightSubscription(f, owner, { channel_id: channel, schedule_time: '07:00' });
    assert.equal((await f.t.app.services.scheduler.tick(ENQUEUE_AHEAD_MS)).enqueued, 2);
    const rows = await f.t.db.query<{ run_at: Date; status: string }>('SELECT run_at, status FROM deliveries WHERE subscription_id = $1', [
      s.id,
    ]);
    assert.deepEqual(
      rows.map((r) => [r.run_at.toISOString(), r.status]),
      [['2026-12-01T07:00:00.000Z', 'pending']],
    );
    assert.equal(await nextRunAt(s.id), '2026-12-02T07:00:00.000Z');
    assert.equal((await f.t.app.services.deliveryWorker.runOnce()).length, 0, 'not before its slot');
    await call(f.t, owner, 'PATCH', `${BASE}/${off.id}`, { is_active: false });
    f.t.clock.set('2026-12-01T07:00:00.000Z');
    const outcomes = await f.t.app.services.deliveryWorker.runOnce();
    assert.deepEqual(outcomes.map((o) => o.status).sort(), ['cancelled', 'succeeded']);
  });
});
