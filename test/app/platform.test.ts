// The HTTP conventions every route shares, checked on the dashboard routes: content types, body
// limits, malformed JSON, rate limits, health, metrics, the OpenAPI document and the error table.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { buildTestApp, call, type TestApp } from '../helpers/app.ts';
import { ERROR_CODES } from '../../src/lib/errors.ts';

/** Every endpoint of the API contract (docs/product.md §1), word for word. */
const CONTRACT_ENDPOINTS: [string, string][] = [
  ['POST', '/api/v1/ai/chat'],
  ['GET', '/api/v1/insights/{code}/execute'],
  ['GET', '/api/v1/ai/connectors'],
  ['POST', '/api/v1/ai/connectors'],
  ['DELETE', '/api/v1/ai/connectors/{provider}'],
  ['POST', '/api/v1/ai/connectors/test'],
  ['GET', '/api/v1/dashboards/'],
  ['POST', '/api/v1/dashboards/'],
  ['GET', '/api/v1/dashboards/{id}'],
  ['PATCH', '/api/v1/dashboards/{id}'],
  ['DELETE', '/api/v1/dashboards/{id}'],
  ['GET', '/api/v1/dashboards/{id}/widgets'],
  ['POST', '/api/v1/dashboards/{id}/widgets'],
  ['PATCH', '/api/v1/dashboards/{id}/widgets/{wid}'],
  ['DELETE', '/api/v1/dashboards/{id}/widgets/{wid}'],
  ['POST', '/api/v1/dashboards/{id}/widgets/{wid}/refresh'],
  ['GET', '/api/v1/dashboards/subscriptions'],
  ['GET', '/api/v1/dashboards/{id}/subscriptions'],
  ['POST', '/api/v1/dashboards/{id}/subscriptions'],
  ['PATCH', '/api/v1/dashboards/subscriptions/{subId}'],
  ['DELETE', '/api/v1/dashboards/subscriptions/{subId}'],
  ['GET', '/api/v1/notifications/channels'],
  ['POST', '/api/v1/notifications/channels'],
  ['PATCH', '/api/v1/notifications/channels/{id}'],
  ['DELETE', '/api/v1/notifications/channels/{id}'],
  ['POST', '/api/v1/notifications/channels/{id}/test'],
  ['GET', '/api/v1/notifications/subscriptions'],
  ['POST', '/api/v1/notifications/subscriptions'],
  ['PATCH', '/api/v1/notifications/subscriptions/{id}'],
  ['DELETE', '/api/v1/notifications/subscriptions/{id}'],
  ['GET', '/api/v1/notifications/logs'],
];
/** The ones this part of the service provides; the rest are checked once they exist. */
const MINE = CONTRACT_ENDPOINTS.filter(
  ([, p]) => p.startsWith('/api/v1/dashboards') && !p.includes('subscriptions') && !p.endsWith('/refresh'),
);

const shape = (p: string) => p.replace(/\{[^}]+\}/g, '{}');

describe('HTTP conventions', () => {
  let t: TestApp;
  let owner: string;
  before(async () => {
    t = await buildTestApp();
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
  });
  after(() => t.close());

  test('a body that is not JSON is 415; malformed JSON is 400', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/dashboards/',
        headers: { authorization: owner, 'content-type': type },
        payload: 'name=x',
      });
      assert.equal(res.statusCode, 415, type);
      assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
      assert.equal(res.json().code, 'UNSUPPORTED_MEDIA_TYPE');
    }
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/dashboards/',
      headers: { authorization: owner, 'content-type': 'application/json' },
      payload: '{"name": "x",',
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'MALFORMED_JSON');
    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/dashboards/x',
      headers: { authorization: owner, 'content-type': 'application/json' },
      payload: "{'name': 1}",
    });
    assert.equal(patch.statusCode, 400);
    assert.equal(patch.json().code, 'MALFORMED_JSON');
    const notObject = await call(t, owner, 'POST', '/api/v1/dashboards/', ['name']);
    assert.equal(notObject.statusCode, 400);
    assert.equal(notObject.data.code, 'VALIDATION_FAILED');
  });

  test('413 above 1 MiB on dashboard routes', async () => {
    const d = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'x' });
    const huge = 'y'.repeat(1024 * 1024 + 1);
    for (const [method, url] of [
      ['POST', '/api/v1/dashboards/'],
      ['PATCH', `/api/v1/dashboards/${d.data.id}`],
    ] as const) {
      const res = await call(t, owner, method, url, { name: 'x', description: huge });
      assert.equal(res.statusCode, 413, url);
      assert.equal(res.data.code, 'PAYLOAD_TOO_LARGE');
    }
  });

  test('unknown routes and methods are problem documents', async () => {
    const res = await call(t, owner, 'GET', '/api/v1/dashboardz');
    assert.equal(res.statusCode, 404);
    assert.equal(res.data.code, 'ROUTE_NOT_FOUND');
    const put = await call(t, owner, 'PUT', '/api/v1/dashboards/x', { name: 'x' });
    assert.ok([404, 405].includes(put.statusCode));
    assert.match(put.headers['content-type'] as string, /application\/problem\+json/);
  });

  test('/healthz and /readyz answer without credentials', async () => {
    const h = await call(t, undefined, 'GET', '/healthz');
    assert.equal(h.statusCode, 200);
    assert.deepEqual(h.data, { status: 'ok' });
    const r = await call(t, undefined, 'GET', '/readyz');
    assert.equal(r.statusCode, 200);
    assert.deepEqual(r.data, { status: 'ready' });
  });

  test('/metrics: Prometheus text with http_requests_total by route and status', async () => {
    await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'm1' });
    await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'm2' });
    await call(t, owner, 'GET', '/api/v1/dashboards/does-not-exist');
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^text\/plain/);
    assert.match(res.body, /# TYPE http_requests_total counter/);
    const created = /http_requests_total\{method="POST",route="\/api\/v1\/dashboards\/",status_code="201"\} (\d+)/.exec(res.body);
    assert.ok(created && Number(created[1]) >= 2, res.body.slice(0, 2000));
    assert.match(res.body, /http_requests_total\{method="GET",route="\/api\/v1\/dashboards\/:id",status_code="404"\} 1/);
    assert.match(res.body, /http_request_duration_seconds_bucket\{/);
  });

  test('the OpenAPI document lists every contract endpoint that exists, with its method; /docs is HTML', async () => {
    const res = await call(t, undefined, 'GET', '/api/v1/openapi.json');
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.openapi, '3.1.0');
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(res.data.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${shape(path)}`);
    }
    for (const [method, path] of MINE) {
      assert.ok(t.app.hasRoute({ method: method as 'GET', url: path.replace(/\{([^}]+)\}/g, ':$1') }), `${method} ${path} is served`);
    }
    let checked = 0;
    for (const [method, path] of CONTRACT_ENDPOINTS) {
      if (!t.app.hasRoute({ method: method as 'GET', url: path.replace(/\{([^}]+)\}/g, ':$1') })) continue;
      checked++;
      assert.ok(documented.has(`${method} ${shape(path)}`), `${method} ${path} is in the OpenAPI document`);
    }
    assert.ok(checked >= MINE.length);
    // The widget schema is documented with its enums.
    const widgetPost = res.data.paths['/api/v1/dashboards/{id}/widgets'].post;
    assert.ok(JSON.stringify(widgetPost).includes('live_insight'));

    const docs = await t.app.inject({ method: 'GET', url: '/docs' });
    const page = docs.statusCode === 302 ? await t.app.inject({ method: 'GET', url: docs.headers.location as string }) : docs;
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /text\/html/);
    assert.match(page.body, /<html/i);
  });

  test('docs/errors.md documents every code of ERROR_CODES with its status', () => {
    const md = fs.readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      const row = new RegExp(`^\\|\\s*\`?${code}\`?\\s*\\|\\s*${status}\\s*\\|\\s*\\S.*\\|\\s*$`, 'm');
      assert.match(md, row, `${code} (${status}) is documented in docs/errors.md`);
    }
  });
});

describe('rate limit', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { INSIGHTS_RATE_LIMIT: '3' } });
  });
  after(() => t.close());

  test('429 with Retry-After once a credential exceeds INSIGHTS_RATE_LIMIT per minute', async () => {
    const a = await t.login({ tenant: 'acme', user: 'a', role: 'owner' });
    const b = await t.login({ tenant: 'acme', user: 'b', role: 'owner' });
    for (let i = 0; i < 3; i++) assert.equal((await call(t, a, 'GET', '/api/v1/dashboards/')).statusCode, 200);
    const limited = await call(t, a, 'POST', '/api/v1/dashboards/', { name: 'x' });
    assert.equal(limited.statusCode, 429);
    assert.match(limited.headers['content-type'] as string, /application\/problem\+json/);
    assert.equal(limited.data.code, 'RATE_LIMITED');
    const retry = Number(limited.headers['retry-after']);
    assert.ok(Number.isInteger(retry) && retry > 0 && retry <= 60, String(limited.headers['retry-after']));
    // Nothing was written by the refused request, another credential has its own budget, health is exempt.
    assert.equal((await t.db.query('SELECT id FROM dashboards')).length, 0);
    assert.equal((await call(t, b, 'GET', '/api/v1/dashboards/')).statusCode, 200);
    for (let i = 0; i < 5; i++) assert.equal((await call(t, undefined, 'GET', '/healthz')).statusCode, 200);
  });
});
