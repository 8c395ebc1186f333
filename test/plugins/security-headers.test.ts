// Headers every response carries: X-Content-Type-Options: nosniff on the API's answers (routed,
// answered early from memory, errors), and the API docs page neither frameable nor running
// anything but its own scripts (docs/security.md).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let owner: string;
let origin: string;

before(async () => {
  t = await buildTestApp();
  owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
after(() => t.close());

test('API responses say X-Content-Type-Options: nosniff: successes, early answers, problems', async () => {
  const urls: [string, string | undefined, number][] = [
    ['/api/v1/dashboards/', owner, 200],
    ['/api/v1/insights/revenue_kpi/execute', owner, 200],
    // A repeat is answered from memory, before routing.
    ['/api/v1/insights/revenue_kpi/execute', owner, 200],
    ['/api/v1/dashboards/', undefined, 401],
    ['/api/v1/nothing-here', owner, 404],
    ['/api/v1/openapi.json', undefined, 200],
    ['/healthz', undefined, 200],
  ];
  for (const [url, authorization, status] of urls) {
    const res = await fetch(origin + url, { headers: authorization ? { authorization } : {} });
    await res.arrayBuffer();
    assert.equal(res.status, status, url);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', url);
  }
  assert.ok(t.app.fastAnswers.answered > 0, 'one was answered early');
});

test('/docs may not be framed and has a Content-Security-Policy', async () => {
  const res = await fetch(`${origin}/docs/`, { redirect: 'follow' });
  const html = await res.text();
  assert.equal(res.status, 200);
  assert.match(html, /swagger/i);
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /upgrade-insecure-requests/);
  assert.equal(res.headers.get('x-frame-options'), 'DENY');
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
});
