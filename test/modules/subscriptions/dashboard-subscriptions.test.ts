import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../../helpers/app.ts';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildNotifyApp, dashboard, webhookChannel, type NotifyFixture } from '../../helpers/notify.ts';

describe('dashboard subscriptions', () => {
  let f: NotifyFixture;
  let owner: string;
  let admin: string;
  let member: string;
  let other: string;
  let dash: string;
  let ch1: string;
  let ch2: string;
  const body = (dashboardId: string, extra: Record<string, unknown> = {}) => ({
    dashboard_id: dashboardId,
    dashboard_name: 'whatever the client thinks',
    channel_ids: [ch1, ch2],
    schedule: 'weekly',
    schedule_time: '07:45',
    schedule_day_of_week: 5,
    ...extra,
  });
  before(async () => {
    f = await buildNotifyApp({ clock: new ManualClock(new Date('2026-01-30T12:00:00.000Z')) });
    owner = await f.t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    admin = await f.t.login({ tenant: 'acme', user: 'ada', role: 'admin' });
    member = await f.t.login({ tenant: 'acme', user: 'max', role: 'member', email: 'max@acme.example' });
    other = await f.t.login({ tenant: 'globex', user: 'gus', role: 'owner' });
    ch1 = await webhookChannel(f, owner, '/one');
    ch2 = await webhookChannel(f, owner, '/two');
    dash = await dashboard(f, owner, 'Weekly sales');
  });
  after(() => f.close());

  test('create, list all and per dashboard; the name follows renames', async () => {
    const res = await call(f.t, owner, 'POST', `/api/v1/dashboards/${dash}/subscriptions`, body(dash));
    assert.equal(res.statusCode, 201, res.body);
    const s = res.data;
    assert.deepEqual(Object.keys(s).sort(), [
      'attach_pdf',
      'channel_ids',
      'created_at',
      'cron',
      'dashboard_id',
      'dashboard_name',
      'id',
      'is_active',
      'next_run_at',
      'schedule',
      'schedule_day_of_month',
      'schedule_day_of_week',
      'schedule_time',
      'timezone',
    ]);
    assert.equal(s.timezone, 'UTC');
    assert.equal(s.attach_pdf, true);
    assert.equal(s.dashboard_name, 'Weekly sales');
    assert.deepEqual(s.channel_ids, [ch1, ch2]);
    assert.equal(s.schedule_day_of_month, null);
    // 2026-01-30 is a Friday, 12:00 is past 07:45: next Friday.
    assert.equal(s.next_run_at, '2026-02-06T07:45:00.000Z');

    assert.equal((await call(f.t, owner, 'PATCH', `/api/v1/dashboards/${dash}`, { name: 'Sales (renamed)' })).statusCode, 200);
    const all = await call(f.t, owner, 'GET', '/api/v1/dashboards/subscriptions');
    assert.equal(all.statusCode, 200);
    assert.equal(all.data.find((x: any) => x.id === s.id).dashboard_name, 'Sales (renamed)');
    const one = await call(f.t, owner, 'GET', `/api/v1/dashboards/${dash}/subscriptions`);
    assert.deepEqual(
      one.data.map((x: any) => x.id),
      [s.id],
    );
    assert.equal(one.data[0].dashboard_name, 'Sales (renamed)');
  });

  test('monthly on the 31st falls on February 28th; toggles return the full object', async () => {
    const res = await call(
      f.t,
      owner,
      'POST',
      `/api/v1/dashboards/${dash}/subscriptions`,
      body(dash, {
        schedule: 'monthly',
        schedule_day_of_week: undefined,
        schedule_day_of_month: 31,
        schedule_time: '00:00',
      }),
    );
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.data.next_run_at, '2026-01-31T00:00:00.000Z');
    f.t.clock.set('2026-02-01T00:00:00.000Z');
    const off = await call(f.t, owner, 'PATCH', `/api/v1/dashboards/subscriptions/${res.data.id}`, { is_active: false });
    assert.deepEqual(off.data, { ...res.data, dashboard_name: off.data.dashboard_name, is_active: false, next_run_at: null });
    const on = await call(f.t, owner, 'PATCH', `/api/v1/dashboards/subscriptions/${res.data.id}`, { is_active: true });
    assert.equal(on.statusCode, 200);
    assert.equal(on.data.next_run_at, '2026-02-28T00:00:00.000Z');
    f.t.clock.set('2026-01-30T12:00:00.000Z');
  });

  test('validation names the field', async () => {
    const bad = async (b: Record<string, unknown>, path: string, url = `/api/v1/dashboards/${dash}/subscriptions`) => {
      const res = await call(f.t, owner, 'POST', url, b);
      assert.equal(res.statusCode, 400, `${path}: ${res.body}`);
      assert.ok(
        res.data.errors.some((e: any) => e.path === path),
        `${path} in ${res.body}`,
      );
    };
    const other = await dashboard(f, owner, 'Other');
    await bad(body(other), '/body/dashboard_id');
    await bad(body(dash, { channel_ids: [ch1, 'missing'] }), '/body/channel_ids/1');
    await bad(body(dash, { channel_ids: [] }), '/body/channel_ids');
    await bad(body(dash, { schedule_day_of_week: undefined }), '/body/schedule_day_of_week');
    await bad(body(dash, { schedule: 'daily' }), '/body/schedule_day_of_week');
    await bad(body(dash, { schedule: 'monthly', schedule_day_of_week: undefined }), '/body/schedule_day_of_month');
    await bad(body(dash, { schedule_day_of_month: 3 }), '/body/schedule_day_of_month');
    await bad(
      body(dash, { schedule: 'monthly', schedule_day_of_week: undefined, schedule_day_of_month: 32 }),
      '/body/schedule_day_of_month',
    );
    await bad(body(dash, { schedule_time: undefined }), '/body/schedule_time');
    await bad(body(dash, { schedule_time: '12:60' }), '/body/schedule_time');
    await bad(body(dash, { dashboard_name: undefined }), '/body/dashboard_name');
  });

  test('roles: managers, or the dashboard creator; others 403 or 404', async () => {
    // A member cannot create dashboards, so the owner shares one with them: visible, not theirs.
    const shared = (await call(f.t, owner, 'POST', '/api/v1/dashboards', { name: 'Shared', is_shared: true })).data.id;
    const hidden = await dashboard(f, owner, 'Hidden');
    const memberCh = await webhookChannel(f, member, '/max');
    const asMember = { ...body(shared), channel_ids: [memberCh] };
    assert.equal((await call(f.t, member, 'POST', `/api/v1/dashboards/${shared}/subscriptions`, asMember)).statusCode, 403);
    assert.equal(
      (await call(f.t, member, 'POST', `/api/v1/dashboards/${hidden}/subscriptions`, { ...asMember, dashboard_id: hidden })).statusCode,
      404,
    );
    assert.equal((await call(f.t, member, 'GET', `/api/v1/dashboards/${shared}/subscriptions`)).statusCode, 403);
    const s = await call(f.t, admin, 'POST', `/api/v1/dashboards/${shared}/subscriptions`, body(shared));
    assert.equal(s.statusCode, 201);
    assert.equal((await call(f.t, member, 'PATCH', `/api/v1/dashboards/subscriptions/${s.data.id}`, { is_active: false })).statusCode, 403);
    assert.equal((await call(f.t, member, 'DELETE', `/api/v1/dashboards/subscriptions/${s.data.id}`)).statusCode, 403);
    assert.equal((await call(f.t, member, 'GET', '/api/v1/dashboards/subscriptions')).data.length, 0);
    assert.equal((await call(f.t, other, 'GET', '/api/v1/dashboards/subscriptions')).data.length, 0);
    assert.equal((await call(f.t, other, 'PATCH', `/api/v1/dashboards/subscriptions/${s.data.id}`, { is_active: false })).statusCode, 404);
    assert.equal((await call(f.t, other, 'POST', `/api/v1/dashboards/subscriptions/${s.data.id}/send`, {})).statusCode, 404);
    assert.equal((await call(f.t, other, 'GET', `/api/v1/dashboards/${shared}/subscriptions`)).statusCode, 404);
    assert.equal((await call(f.t, admin, 'DELETE', `/api/v1/dashboards/subscriptions/${s.data.id}`)).statusCode, 204);
    assert.equal((await call(f.t, admin, 'DELETE', `/api/v1/dashboards/subscriptions/${s.data.id}`)).statusCode, 404);
  });

  test('deleting a channel removes it; a subscription left with none is deactivated; deleting the dashboard deletes them', async () => {
    const d = await dashboard(f, owner, 'Cascade');
    const a = await webhookChannel(f, owner, '/a');
    const b = await webhookChannel(f, owner, '/b');
    const s = (await call(f.t, owner, 'POST', `/api/v1/dashboards/${d}/subscriptions`, body(d, { channel_ids: [a, b] }))).data;
    assert.equal((await call(f.t, owner, 'DELETE', `/api/v1/notifications/channels/${a}`)).statusCode, 204);
    let now = (await call(f.t, owner, 'GET', `/api/v1/dashboards/${d}/subscriptions`)).data[0];
    assert.deepEqual(now.channel_ids, [b]);
    assert.equal(now.is_active, true);
    assert.equal((await call(f.t, owner, 'DELETE', `/api/v1/notifications/channels/${b}`)).statusCode, 204);
    now = (await call(f.t, owner, 'GET', `/api/v1/dashboards/${d}/subscriptions`)).data[0];
    assert.deepEqual(now.channel_ids, []);
    assert.equal(now.is_active, false);
    assert.equal(now.next_run_at, null);
    assert.equal((await call(f.t, owner, 'PATCH', `/api/v1/dashboards/subscriptions/${s.id}`, { is_active: true })).statusCode, 400);
    assert.equal((await call(f.t, owner, 'DELETE', `/api/v1/dashboards/${d}`)).statusCode, 204);
    assert.ok(!(await call(f.t, owner, 'GET', '/api/v1/dashboards/subscriptions')).data.some((x: any) => x.id === s.id));
  });
});
