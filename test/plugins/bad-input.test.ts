// Bad input at the edge: NUL bytes anywhere, malformed ids in paths, bad percent-encoding and
// over-long path segments. Each is a 4xx problem document with a code of the error table, and
// none reaches the database (PostgreSQL refuses 0x00 in text, which used to surface as a 500).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, type TestApp } from '../helpers/app.ts';

const ID = '0197abcd-0000-7000-8000-00000000beef';

/** Every route with a path parameter, with `{}` where the malformed value goes. */
const PATH_ROUTES: [string, string][] = [
  ['GET', '/api/v1/dashboards/{}'],
  ['PATCH', '/api/v1/dashboards/{}'],
  ['DELETE', '/api/v1/dashboards/{}'],
  ['GET', '/api/v1/dashboards/{}/widgets'],
  ['POST', '/api/v1/dashboards/{}/widgets'],
  ['PATCH', `/api/v1/dashboards/${ID}/widgets/{}`],
  ['DELETE', `/api/v1/dashboards/{}/widgets/${ID}`],
  ['POST', `/api/v1/dashboards/${ID}/widgets/{}/refresh`],
  ['GET', '/api/v1/dashboards/{}/subscriptions'],
  ['POST', '/api/v1/dashboards/{}/subscriptions'],
  ['PATCH', '/api/v1/dashboards/subscriptions/{}'],
  ['DELETE', '/api/v1/dashboards/subscriptions/{}'],
  ['POST', '/api/v1/dashboards/subscriptions/{}/send'],
  ['PATCH', '/api/v1/notifications/channels/{}'],
  ['DELETE', '/api/v1/notifications/channels/{}'],
  ['POST', '/api/v1/notifications/channels/{}/test'],
  ['PATCH', '/api/v1/notifications/subscriptions/{}'],
  ['DELETE', '/api/v1/notifications/subscriptions/{}'],
  ['POST', '/api/v1/notifications/subscriptions/{}/send'],
  ['DELETE', '/api/v1/auth/tokens/{}'],
  ['GET', '/api/v1/insights/{}/execute'],
  ['PATCH', '/api/v1/ai/connectors/{}'],
  ['DELETE', '/api/v1/ai/connectors/{}'],
];

describe('bad input at the edge', () => {
  let t: TestApp;
  let owner: string;
  before(async () => {
    t = await buildTestApp();
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
  });
  after(() => t.close());

  const send = (method: string, url: string, body?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: owner, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });

  test('a NUL in any path parameter is a 400 naming the parameter, on every route', async () => {
    for (const [method, route] of PATH_ROUTES) {
      for (const value of ['%00', 'nul%00nul', 'a%00b']) {
        const res = await send(method, route.replace('{}', value));
        assert.equal(res.statusCode, 400, `${method} ${route} ${value}: ${res.body}`);
        assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
        const p = JSON.parse(res.body);
        assert.equal(p.code, 'VALIDATION_FAILED');
        assert.match(p.errors[0].path, /^\/params\/(id|wid|subId|code|provider)$/, `${method} ${route}`);
        assert.match(p.errors[0].message, /NUL/);
      }
    }
  });

  test('an id that is not a UUIDv7 names nothing: 404 naming the parameter, for every id route', async () => {
    for (const [method, route] of PATH_ROUTES) {
      if (route.includes('/insights/') || route.includes('/connectors/')) continue;
      for (const value of ['nope', '1', ID.toUpperCase(), '00000000-0000-0000-0000-000000000000', 'x'.repeat(100)]) {
        const res = await send(method, route.replace('{}', value));
        assert.equal(res.statusCode, 404, `${method} ${route} ${value}: ${res.body}`);
        const p = JSON.parse(res.body);
        assert.equal(p.code, 'NOT_FOUND');
        assert.match(p.errors?.[0]?.path, /^\/params\//, `${method} ${route} ${value}: ${res.body}`);
      }
    }
  });

  test('a NUL in a body value, a body key or a query value is a 400 naming the field', async () => {
    let res = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'a\u0000b' });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.data.errors, [{ path: '/body/name', message: 'must not contain a NUL character' }]);

    res = await call(t, owner, 'POST', '/api/v1/dashboards/', {
      name: 'ok',
      global_filter_presets: [{ name: 'p', filters: { country: 'F\u0000R' } }],
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.data.errors[0].path, '/body/global_filter_presets/0/filters/country');

    res = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'ok', ['x\u0000']: 1 });
    assert.equal(res.statusCode, 400);
    assert.match(res.data.errors[0].message, /NUL character in its name/);

    res = await call(t, owner, 'POST', '/api/v1/ai/chat', { message: 'revenue\u0000' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.data.errors[0].path, '/body/message');

    res = await call(t, owner, 'GET', '/api/v1/insights/revenue/execute?country=F%00R');
    assert.equal(res.statusCode, 400);
    assert.equal(res.data.errors[0].path, '/query/country');

    res = await call(t, owner, 'GET', '/api/v1/notifications/logs?cursor=a%00');
    assert.equal(res.statusCode, 400);
    assert.equal(res.data.errors[0].path, '/query/cursor');
  });

  test('a path that is not valid percent-encoded UTF-8 is a 400 BAD_URL problem', async () => {
    for (const bad of ['%zz', '%c0%ae', '%', '%e0%80', '%ED%A0%80', '%ff']) {
      for (const url of [`/api/v1/dashboards/${bad}`, `/api/v1/dashboards/${bad}/widgets`, `/api/v1/insights/${bad}/execute?x=1`]) {
        const res = await send('GET', url);
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
        const p = JSON.parse(res.body);
        assert.equal(p.code, 'BAD_URL');
        assert.ok(!('error' in p) && !('message' in p), res.body);
      }
    }
  });

  test('an over-long path segment is a 404 problem whose detail does not echo the whole URL', async () => {
    const res = await send('GET', `/api/v1/dashboards/${'x'.repeat(5000)}`);
    assert.equal(res.statusCode, 404);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    const p = JSON.parse(res.body);
    assert.equal(p.code, 'NOT_FOUND');
    assert.ok(p.detail.length < 300, p.detail);
  });

  test('an unknown route is a ROUTE_NOT_FOUND problem, with or without credentials', async () => {
    for (const auth of [owner, undefined]) {
      const res = await call(t, auth, 'GET', '/api/v1/nothing-here');
      assert.equal(res.statusCode, 404);
      assert.equal(res.data.code, 'ROUTE_NOT_FOUND');
    }
  });

  test('a well-formed id that does not exist is still a plain 404', async () => {
    const res = await call(t, owner, 'GET', `/api/v1/dashboards/${ID}`);
    assert.equal(res.statusCode, 404);
    assert.equal(res.data.code, 'NOT_FOUND');
    assert.equal(res.data.errors, undefined);
  });
});
