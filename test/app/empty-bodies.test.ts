// Actions without parameters (channel test, both send-now endpoints) take no body or an empty
// object, and name an unknown field; the OpenAPI document says the body is optional.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, type TestApp } from '../helpers/app.ts';

describe('actions that take no parameters', () => {
  let t: TestApp;
  let owner: string;
  let channelId: string;
  let insightSub: string;
  let dashboardSub: string;
  before(async () => {
    t = await buildTestApp();
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    // No INSIGHTS_EGRESS_ALLOW: the test message is refused by the egress guard (502), which is
    // enough to tell an accepted request from a refused body (400).
    const ch = await call(t, owner, 'POST', '/api/v1/notifications/channels', {
      channel_type: 'webhook',
      config: { webhook_url: 'https://127.0.0.1:9/hook' },
    });
    channelId = ch.data.id;
    insightSub = (
      await call(t, owner, 'POST', '/api/v1/notifications/subscriptions', {
        insight_code: 'revenue',
        channel_id: channelId,
        schedule: 'daily',
        granularity: 'day',
      })
    ).data.id;
    const dash = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Board' });
    dashboardSub = (
      await call(t, owner, 'POST', `/api/v1/dashboards/${dash.data.id}/subscriptions`, {
        dashboard_id: dash.data.id,
        dashboard_name: 'Board',
        channel_ids: [channelId],
        schedule: 'daily',
        schedule_time: '08:00',
      })
    ).data.id;
  });
  after(() => t.close());

  const cases = () =>
    [
      ['/api/v1/notifications/channels/{id}/test', `/api/v1/notifications/channels/${channelId}/test`, 502],
      ['/api/v1/notifications/subscriptions/{id}/send', `/api/v1/notifications/subscriptions/${insightSub}/send`, 202],
      ['/api/v1/dashboards/subscriptions/{subId}/send', `/api/v1/dashboards/subscriptions/${dashboardSub}/send`, 202],
    ] as const;

  test('no body, an empty JSON body and {} are accepted; an unknown field is a 400 naming it', async () => {
    for (const [, url, ok] of cases()) {
      assert.equal((await call(t, owner, 'POST', url)).statusCode, ok, `${url} without a body`);
      const empty = await t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: owner, 'content-type': 'application/json' },
        payload: '',
      });
      assert.equal(empty.statusCode, ok, `${url} with an empty JSON body`);
      assert.equal((await call(t, owner, 'POST', url, {})).statusCode, ok, `${url} with {}`);
      const bad = await call(t, owner, 'POST', url, { force: true });
      assert.equal(bad.statusCode, 400, url);
      assert.ok(
        bad.data.errors.some((e: { path: string }) => e.path === '/body/force'),
        url,
      );
      assert.equal((await call(t, owner, 'POST', url, [])).statusCode, 400, `${url} with an array`);
    }
  });

  test('the OpenAPI document marks their bodies optional', async () => {
    const doc = (await call(t, undefined, 'GET', '/api/v1/openapi.json')).data;
    for (const [path] of cases()) assert.equal(doc.paths[path].post.requestBody.required, false, path);
  });
});
