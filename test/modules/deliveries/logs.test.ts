import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../../helpers/app.ts';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildNotifyApp, drain, insightSubscription, webhookChannel, type NotifyFixture } from '../../helpers/notify.ts';

describe('delivery logs: paging, filters, visibility', () => {
  let f: NotifyFixture;
  let owner: string;
  let member: string;
  let other: string;
  let ownerSub: any;
  let memberSub: any;
  before(async () => {
    f = await buildNotifyApp({ clock: new ManualClock(new Date()) });
    owner = await f.t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    member = await f.t.login({ tenant: 'acme', user: 'max', role: 'member' });
    other = await f.t.login({ tenant: 'globex', user: 'gus', role: 'owner' });
    const ch = await webhookChannel(f, owner);
    const mch = await webhookChannel(f, member, '/max');
    ownerSub = await insightSubscription(f, owner, { channel_id: ch });
    memberSub = await insightSubscription(f, member, { channel_id: mch });
    // 4 sends of the owner's (one fails for good), 2 of the member's.
    f.receiver.answerNext({ status: 404 });
    for (let i = 0; i < 4; i++) {
      assert.equal((await call(f.t, owner, 'POST', `/api/v1/notifications/subscriptions/${ownerSub.id}/send`, {})).statusCode, 202);
      await drain(f);
      f.t.clock.advance(1000);
    }
    for (let i = 0; i < 2; i++) {
      assert.equal((await call(f.t, member, 'POST', `/api/v1/notifications/subscriptions/${memberSub.id}/send`)).statusCode, 202);
      await drain(f);
      f.t.clock.advance(1000);
    }
  });
  after(() => f.close());

  test('newest first, limit/cursor paging announced in a Link header', async () => {
    const all = (await call(f.t, owner, 'GET', '/api/v1/notifications/logs')).data;
    assert.equal(all.length, 6);
    const times = all.map((r: any) => r.sent_at);
    assert.deepEqual(times, [...times].sort().reverse());
    const seen: string[] = [];
    let url = '/api/v1/notifications/logs?limit=4';
    for (let pages = 0; url; pages++) {
      assert.ok(pages < 5);
      const res = await call(f.t, owner, 'GET', url);
      assert.equal(res.statusCode, 200);
      seen.push(...res.data.map((r: any) => r.id));
      const link = res.headers.link as string | undefined;
      url = link ? /<([^>]+)>; rel="next"/.exec(link)![1] : '';
    }
    assert.deepEqual(
      seen,
      all.map((r: any) => r.id),
    );
    assert.equal((await call(f.t, owner, 'GET', '/api/v1/notifications/logs?limit=6')).headers.link, undefined);
    assert.equal((await call(f.t, owner, 'GET', '/api/v1/notifications/logs?limit=0')).statusCode, 400);
    assert.equal((await call(f.t, owner, 'GET', '/api/v1/notifications/logs?status=maybe')).statusCode, 400);
  });

  test('filters: status and subscription_id, combined with paging', async () => {
    const failed = (await call(f.t, owner, 'GET', '/api/v1/notifications/logs?status=failed')).data;
    assert.equal(failed.length, 1);
    assert.equal(failed[0].subscription_id, ownerSub.id);
    assert.match(failed[0].error_message, /404/);
    const ok = (await call(f.t, owner, 'GET', `/api/v1/notifications/logs?status=success&subscription_id=${ownerSub.id}`)).data;
    assert.equal(ok.length, 3);
    const page = await call(f.t, owner, 'GET', `/api/v1/notifications/logs?subscription_id=${memberSub.id}&limit=1`);
    assert.equal(page.data.length, 1);
    assert.match(page.headers.link as string, new RegExp(`subscription_id=${memberSub.id}`));
  });

  test('members see the logs of their own subscriptions; other tenants none', async () => {
    const mine = (await call(f.t, member, 'GET', '/api/v1/notifications/logs')).data;
    assert.equal(mine.length, 2);
    assert.ok(mine.every((r: any) => r.subscription_id === memberSub.id));
    assert.equal((await call(f.t, member, 'GET', `/api/v1/notifications/logs?subscription_id=${ownerSub.id}`)).data.length, 0);
    assert.equal((await call(f.t, other, 'GET', '/api/v1/notifications/logs')).data.length, 0);
  });

  test('logs stay when the subscription is deleted', async () => {
    assert.equal((await call(f.t, owner, 'DELETE', `/api/v1/notifications/subscriptions/${ownerSub.id}`)).statusCode, 204);
    assert.equal((await call(f.t, owner, 'GET', `/api/v1/notifications/logs?subscription_id=${ownerSub.id}`)).data.length, 4);
  });
});
