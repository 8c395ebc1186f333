import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../../helpers/app.ts';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildNotifyApp, insightSubscription, webhookChannel, type NotifyFixture } from '../../helpers/notify.ts';

const BASE = '/api/v1/notifications/subscriptions';

describe('insight subscriptions', () => {
  let f: NotifyFixture;
  let owner: string;
  let member: string;
  let member2: string;
  let other: string;
  let channel: string;
  let memberChannel: string;
  before(async () => {
    f = await buildNotifyApp({ clock: new ManualClock(new Date('2026-03-10T09:15:00.000Z')) });
    owner = await f.t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    member = await f.t.login({ tenant: 'acme', user: 'max', role: 'member' });
    member2 = await f.t.login({ tenant: 'acme', user: 'mia', role: 'member' });
    other = await f.t.login({ tenant: 'globex', user: 'gus', role: 'owner' });
    channel = await webhookChannel(f, owner);
    memberChannel = await webhookChannel(f, member);
  });
  after(() => f.close());

  test('create: defaults 08:00 UTC, next_run_at, names from the catalog and the channel', async () => {
    const s = await insightSubscription(f, owner, { channel_id: channel, country: 'DE' });
    assert.deepEqual(Object.keys(s).sort(), [
      'channel_id',
      'channel_type',
      'compare',
      'condition',
      'country',
      'created_at',
      'cron',
      'filters',
      'granularity',
      'id',
      'insight_code',
      'insight_name',
      'is_active',
      'last_checked_at',
      'last_condition_met',
      'next_run_at',
      'notify',
      'schedule',
      'schedule_day_of_month',
      'schedule_day_of_week',
      'schedule_time',
      'timezone',
    ]);
    assert.equal(s.timezone, 'UTC');
    assert.equal(s.cron, null);
    assert.equal(s.condition, null);
    assert.equal(s.notify, 'every_time');
    assert.equal(s.insight_code, 'revenue');
    assert.ok(s.insight_name.length > 0 && s.insight_name !== 'revenue');
    assert.equal(s.channel_type, 'webhook');
    assert.equal(s.schedule_time, '08:00');
    assert.equal(s.country, 'DE');
    assert.equal(s.is_active, true);
    assert.equal(s.created_at, '2026-03-10T09:15:00.000Z');
    // 09:15 is past today's 08:00.
    assert.equal(s.next_run_at, '2026-03-11T08:00:00.000Z');

    const weekly = await insightSubscription(f, owner, { channel_id: channel, schedule: 'weekly' });
    assert.equal(weekly.schedule_day_of_week, 1);
    assert.equal(weekly.next_run_at, '2026-03-16T08:00:00.000Z');
    const monthly = await insightSubscription(f, owner, {
      channel_id: channel,
      schedule: 'monthly',
      schedule_day_of_month: 31,
      schedule_time: '23:30',
    });
    assert.equal(monthly.next_run_at, '2026-03-31T23:30:00.000Z');
    const first = await insightSubscription(f, owner, { channel_id: channel, schedule: 'monthly' });
    assert.equal(first.schedule_day_of_month, 1);
    assert.equal(first.next_run_at, '2026-04-01T08:00:00.000Z');

    const list = await call(f.t, owner, 'GET', BASE);
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list.data.slice(0, 4).map((x: any) => x.id),
      [first.id, monthly.id, weekly.id, s.id],
    );
  });

  test('validation: every bad field is named', async () => {
    const bad = async (body: Record<string, unknown>, path: string) => {
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
    };
    await bad({ insight_code: 'nope' }, '/body/insight_code');
    await bad({ granularity: 'hour' }, '/body/granularity');
    await bad({ channel_id: 'no-such-channel' }, '/body/channel_id');
    await bad({ schedule: 'hourly' }, '/body/schedule');
    await bad({ schedule_time: '24:00' }, '/body/schedule_time');
    await bad({ schedule_time: '8:00' }, '/body/schedule_time');
    await bad({ schedule_day_of_week: 2 }, '/body/schedule_day_of_week');
    await bad({ schedule: 'weekly', schedule_day_of_week: 7 }, '/body/schedule_day_of_week');
    await bad({ schedule: 'weekly', schedule_day_of_month: 3 }, '/body/schedule_day_of_month');
    await bad({ schedule: 'monthly', schedule_day_of_month: 0 }, '/body/schedule_day_of_month');
    await bad({ country: 'germany' }, '/body/country');
    await bad({ extra: 1 }, '/body/extra');
    // Another tenant's channel is no channel at all.
    const foreign = await call(f.t, other, 'POST', BASE, {
      insight_code: 'revenue',
      channel_id: channel,
      schedule: 'daily',
      granularity: 'month',
    });
    assert.equal(foreign.statusCode, 400);
    assert.equal(foreign.data.errors[0].path, '/body/channel_id');
  });

  test('toggle returns the full object; off clears next_run_at, on resumes from the next slot', async () => {
    const s = await insightSubscription(f, owner, { channel_id: channel });
    const off = await call(f.t, owner, 'PATCH', `${BASE}/${s.id}`, { is_active: false });
    assert.equal(off.statusCode, 200);
    assert.deepEqual(off.data, { ...s, is_active: false, next_run_at: null });
    f.t.clock.advance(2 * 86_400_000);
    const on = await call(f.t, owner, 'PATCH', `${BASE}/${s.id}`, { is_active: true });
    assert.equal(on.statusCode, 200);
    assert.equal(on.data.is_active, true);
    assert.equal(on.data.next_run_at, '2026-03-13T08:00:00.000Z');
    f.t.clock.advance(-2 * 86_400_000);
    assert.equal((await call(f.t, owner, 'PATCH', `${BASE}/${s.id}`, {})).statusCode, 400);
    assert.equal((await call(f.t, owner, 'PATCH', `${BASE}/${s.id}`, { is_active: 'yes' })).statusCode, 400);
  });

  test('roles: members see and manage only their own; another tenant gets 404', async () => {
    const mine = await insightSubscription(f, member, { channel_id: memberChannel });
    const ownerSub = await insightSubscription(f, owner, { channel_id: channel });
    const memberList = (await call(f.t, member, 'GET', BASE)).data.map((x: any) => x.id);
    assert.deepEqual(memberList, [mine.id]);
    assert.equal((await call(f.t, member2, 'GET', BASE)).data.length, 0);
    assert.ok((await call(f.t, owner, 'GET', BASE)).data.some((x: any) => x.id === mine.id));
    assert.equal((await call(f.t, member, 'PATCH', `${BASE}/${ownerSub.id}`, { is_active: false })).statusCode, 404);
    assert.equal((await call(f.t, member2, 'DELETE', `${BASE}/${mine.id}`)).statusCode, 404);
    assert.equal((await call(f.t, member2, 'POST', `${BASE}/${mine.id}/send`, {})).statusCode, 404);
    assert.equal((await call(f.t, other, 'PATCH', `${BASE}/${mine.id}`, { is_active: false })).statusCode, 404);
    assert.equal((await call(f.t, other, 'DELETE', `${BASE}/${mine.id}`)).statusCode, 404);
    assert.equal((await call(f.t, other, 'GET', BASE)).data.length, 0);
    // A member may not send to a channel that is not theirs.
    const res = await call(f.t, member, 'POST', BASE, {
      insight_code: 'revenue',
      channel_id: channel,
      schedule: 'daily',
      granularity: 'month',
    });
    assert.equal(res.statusCode, 400);
    // The owner manages the member's subscription.
    assert.equal((await call(f.t, owner, 'PATCH', `${BASE}/${mine.id}`, { is_active: false })).data.is_active, false);
    assert.equal((await call(f.t, member, 'DELETE', `${BASE}/${mine.id}`)).statusCode, 204);
    assert.equal((await call(f.t, member, 'DELETE', `${BASE}/${mine.id}`)).statusCode, 404);
  });

  test('deleting the channel deletes its insight subscriptions', async () => {
    const ch = await webhookChannel(f, owner, '/doomed');
    const s = await insightSubscription(f, owner, { channel_id: ch });
    assert.equal((await call(f.t, owner, 'DELETE', `/api/v1/notifications/channels/${ch}`)).statusCode, 204);
    assert.ok(!(await call(f.t, owner, 'GET', BASE)).data.some((x: any) => x.id === s.id));
  });
});
