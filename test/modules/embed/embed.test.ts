// Embedded analytics through the HTTP API (docs/embedding.md): embedding keys, and embed tokens on
// every path they open — two tenants, two viewers with different attributes, a token for dashboard
// A on B, tampered, expired, alg none and wrong-key tokens, locked filters overridden in the query
// or the body, chat asked about another country. Every refusal is a problem and carries no rows.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { rowAccessModel } from '../../helpers/row-access.ts';

let t: TestApp;
let demoOwner: string;
let acmeOwner: string;
const keys: Record<string, { id: string; secret: string }> = {};
const dash: Record<string, { id: string; widget: string }> = {};

async function sign(key: { id: string; secret: string }, claims: Record<string, unknown>, exp: string | number = '10m'): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', kid: key.id })
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(key.secret));
}

async function as(token: string, method: 'GET' | 'POST', url: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await t.app.inject({ method, url, headers, payload: body === undefined ? undefined : JSON.stringify(body) });
  return Object.assign(res, { data: res.body ? JSON.parse(res.body) : undefined });
}

/** A refusal: a problem document of that status, with no rows anywhere in it. */
function refused(res: { statusCode: number; headers: Record<string, unknown>; body: string; data: any }, status: number, code?: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /application\/problem\+json/);
  if (code) assert.equal(res.data.code, code);
  assert.ok(!/"rows"/.test(res.body), 'no rows in a refusal');
}

const countries = (rows: Record<string, unknown>[]) => [...new Set(rows.map((r) => r.country))].sort();
const FROM = new Date(Date.now() - 700 * 86400_000).toISOString().slice(0, 10);

async function dashboardWith(owner: string, name: string): Promise<{ id: string; widget: string }> {
  const d = await call(t, owner, 'POST', '/api/v1/dashboards/', { name });
  const w = await call(t, owner, 'POST', `/api/v1/dashboards/${d.data.id}/widgets`, {
    title: 'By country',
    widget_type: 'chart',
    data_source: 'live_insight',
    insight_code: 'revenue_by_country',
  });
  assert.equal(w.statusCode, 201, w.body);
  return { id: d.data.id, widget: w.data.id };
}

before(async () => {
  t = await buildTestApp({ deps: { model: rowAccessModel() } });
  demoOwner = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });
  acmeOwner = await t.login({ tenant: 'acme', user: 'owner', role: 'owner' });
  for (const [tenant, owner] of [
    ['demo', demoOwner],
    ['acme', acmeOwner],
  ] as const) {
    const k = await call(t, owner, 'POST', '/api/v1/embed/keys', {
      name: `${tenant} app`,
      allowed_origins: ['https://app.example.com', 'http://localhost:5173'],
    });
    assert.equal(k.statusCode, 201, k.body);
    keys[tenant] = { id: k.data.id, secret: k.data.secret };
  }
  dash.a = await dashboardWith(demoOwner, 'A');
  dash.b = await dashboardWith(demoOwner, 'B');
  dash.acme = await dashboardWith(acmeOwner, 'Acme');
});
after(() => t.close());

describe('embedding keys', () => {
  test('the secret is shown once; lists are masked and per tenant; members may not manage keys', async () => {
    const list = await call(t, demoOwner, 'GET', '/api/v1/embed/keys');
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list.data.map((k: { id: string }) => k.id),
      [keys.demo.id],
    );
    assert.ok(!list.body.includes(keys.demo.secret) && !list.body.includes(keys.demo.secret.slice(8)));
    assert.match(list.data[0].secret_masked, /^esk_.{4}\*\*\*\*$/);
    const member = await t.login({ tenant: 'demo', user: 'm', role: 'member' });
    refused(await call(t, member, 'POST', '/api/v1/embed/keys', { name: 'x', allowed_origins: ['https://a.example'] }), 403, 'FORBIDDEN');
    refused(await call(t, member, 'GET', '/api/v1/embed/keys'), 403, 'FORBIDDEN');
    refused(await call(t, acmeOwner, 'DELETE', `/api/v1/embed/keys/${keys.demo.id}`), 404, 'NOT_FOUND');
    for (const origin of [
      'https://a.example/path',
      'http://a.example',
      'not a url',
      'https://a.example/',
      // Wildcards and malformed hosts, which a frame-ancestors list would read as a wildcard or a second source.
      'https://*',
      'https://*:8443',
      'https://*.a.example',
      "https://a.example'",
      'https://a.example,b',
      'https://a_b.example',
      'https://-a.example',
    ]) {
      const bad = await call(t, demoOwner, 'POST', '/api/v1/embed/keys', { name: 'x', allowed_origins: [origin] });
      refused(bad, 400, 'VALIDATION_FAILED');
      assert.equal(bad.data.errors[0].path, '/body/allowed_origins/0');
    }
  });

  test('rotation: a new secret at once, the old one for the grace period; revocation: nothing verifies at once', async () => {
    const k = await call(t, demoOwner, 'POST', '/api/v1/embed/keys', { name: 'rotating', allowed_origins: ['https://a.example'] });
    const old = { id: k.data.id, secret: k.data.secret };
    const rotated = await call(t, demoOwner, 'POST', `/api/v1/embed/keys/${old.id}/rotate`);
    assert.equal(rotated.statusCode, 200, rotated.body);
    assert.notEqual(rotated.data.secret, old.secret);
    assert.ok(rotated.data.previous_secret_valid_until);
    const fresh = { id: old.id, secret: rotated.data.secret };
    const claims = { sub: 'v', resource: `dashboard:${dash.a.id}`, attributes: { country: 'DE' } };
    assert.equal((await as(await sign(fresh, claims), 'GET', `/api/v1/embed/dashboards/${dash.a.id}`)).statusCode, 200);
    assert.equal(
      (await as(await sign(old, claims), 'GET', `/api/v1/embed/dashboards/${dash.a.id}`)).statusCode,
      200,
      'the old secret in its grace',
    );
    t.clock.advance(25 * 3600_000);
    try {
      refused(
        await as(await sign(old, claims, Math.floor(t.clock.now().getTime() / 1000) + 600), 'GET', `/api/v1/embed/dashboards/${dash.a.id}`),
        401,
        'UNAUTHENTICATED',
      );
      const token = await sign(fresh, claims, Math.floor(t.clock.now().getTime() / 1000) + 600);
      assert.equal((await as(token, 'GET', `/api/v1/embed/dashboards/${dash.a.id}`)).statusCode, 200);
      assert.equal((await call(t, demoOwner, 'DELETE', `/api/v1/embed/keys/${old.id}`)).statusCode, 204);
      refused(await as(token, 'GET', `/api/v1/embed/dashboards/${dash.a.id}`), 401, 'UNAUTHENTICATED');
    } finally {
      t.clock.advance(-25 * 3600_000);
    }
  });
});

describe('embed tokens', () => {
  const url = (d: { id: string; widget: string }, q = `?date_from=${FROM}`) =>
    `/api/v1/embed/dashboards/${d.id}/widgets/${d.widget}/data${q}`;

  test("two viewers of one dashboard see their own countries; the other tenant's viewer its own data", async () => {
    const de = await sign(keys.demo, { sub: 'ann', resource: `dashboard:${dash.a.id}`, attributes: { country: 'DE' } });
    const fr = await sign(keys.demo, { sub: 'bob', resource: `dashboard:${dash.a.id}`, attributes: { country: ['FR'] } });
    const page = await as(de, 'GET', `/api/v1/embed/dashboards/${dash.a.id}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.deepEqual(
      page.data.widgets.map((w: { id: string }) => w.id),
      [dash.a.widget],
    );
    const a = await as(de, 'GET', url(dash.a));
    assert.equal(a.statusCode, 200, a.body);
    assert.deepEqual(countries(a.data.data.rows), ['DE']);
    const b = await as(fr, 'GET', url(dash.a));
    assert.deepEqual(countries(b.data.data.rows), ['FR']);
    const acme = await as(
      await sign(keys.acme, { sub: 'ann', resource: `dashboard:${dash.acme.id}`, attributes: { country: 'DE' } }),
      'GET',
      url(dash.acme),
    );
    assert.equal(acme.statusCode, 200, acme.body);
    assert.notDeepEqual(acme.data.data.rows, a.data.data.rows, "acme's DE is not demo's");
    // Without the attribute: nothing, not everything.
    refused(
      await as(await sign(keys.demo, { sub: 'carl', resource: `dashboard:${dash.a.id}` }), 'GET', url(dash.a)),
      403,
      'ACCESS_ATTRIBUTE_MISSING',
    );
  });

  test("a token is good for its resource only: A on B, on another tenant's dashboard, dashboard on chat and back", async () => {
    const tokenA = await sign(keys.demo, { sub: 'ann', resource: `dashboard:${dash.a.id}`, attributes: { country: 'DE' } });
    refused(await as(tokenA, 'GET', `/api/v1/embed/dashboards/${dash.b.id}`), 403, 'FORBIDDEN');
    refused(await as(tokenA, 'GET', url(dash.b)), 403, 'FORBIDDEN');
    refused(await as(tokenA, 'POST', url(dash.b, ''), {}), 403, 'FORBIDDEN');
    refused(await as(tokenA, 'GET', url(dash.acme)), 403, 'FORBIDDEN');
    refused(await as(tokenA, 'POST', '/api/v1/embed/chat', { message: 'revenue by country' }), 403, 'FORBIDDEN');
    // The other tenant's dashboard named in a demo key's token: the tenant is the key's, so it is not found.
    refused(
      await as(
        await sign(keys.demo, { sub: 'ann', resource: `dashboard:${dash.acme.id}`, attributes: { country: 'DE' } }),
        'GET',
        url(dash.acme),
      ),
      404,
      'NOT_FOUND',
    );
    const chat = await sign(keys.demo, { sub: 'ann', resource: 'chat', attributes: { country: 'DE' } });
    refused(await as(chat, 'GET', `/api/v1/embed/dashboards/${dash.a.id}`), 403, 'FORBIDDEN');
    // An embed token opens nothing of the rest of the API.
    for (const path of ['/api/v1/insights/revenue/execute', `/api/v1/dashboards/${dash.a.id}`, '/api/v1/embed/keys']) {
      refused(await as(tokenA, 'GET', path), 401, 'UNAUTHENTICATED');
    }
  });

  test('tampered, expired, too long-lived, alg none, wrong key, unknown kid, no kid: 401 problems', async () => {
    const claims = { sub: 'ann', resource: `dashboard:${dash.a.id}`, attributes: { country: 'DE' } };
    const good = await sign(keys.demo, claims);
    const [h, p, s] = good.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, attributes: { country: 'FR' } })).toString('base64url')}.${s}`;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid: keys.demo.id })).toString('base64url')}.${p}.`;
    const now = Math.floor(Date.now() / 1000);
    const cases: Record<string, string> = {
      tampered,
      none,
      expired: await sign(keys.demo, claims, now - 60),
      'beyond 24 h': await sign(keys.demo, claims, now + 25 * 3600),
      'wrong key': await sign({ id: keys.demo.id, secret: crypto.randomBytes(32).toString('base64url') }, claims),
      "the other tenant's secret": await sign({ id: keys.demo.id, secret: keys.acme.secret }, claims),
      'unknown kid': await sign({ id: '01900000-0000-7000-8000-000000000000', secret: keys.demo.secret }, claims),
      'no kid': await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(keys.demo.secret)),
      'no resource': await sign(keys.demo, { sub: 'ann' }),
      'bad attributes': await sign(keys.demo, { ...claims, attributes: { country: [] } }),
      'not a jwt': 'abc.def',
    };
    for (const [what, token] of Object.entries(cases)) {
      const res = await as(token, 'GET', url(dash.a));
      refused(res, 401, 'UNAUTHENTICATED');
      assert.match(String(res.headers['www-authenticate']), /Bearer/, what);
    }
    refused(Object.assign(await t.app.inject({ method: 'GET', url: url(dash.a) }), { data: undefined }) as never, 401);
  });

  test('locked filters hold: overriding them in the query string or the body is refused; choosing the same is fine', async () => {
    const locked = await sign(keys.demo, {
      sub: 'ann',
      resource: `dashboard:${dash.a.id}`,
      filters: { country: 'DE' },
      attributes: { country: ['DE', 'FR'] },
    });
    const page = await as(locked, 'GET', `/api/v1/embed/dashboards/${dash.a.id}`);
    assert.deepEqual(page.data.locked_filters, { country: 'DE' });
    assert.ok(!page.data.widgets[0].filters.includes('country'));
    const ok = await as(locked, 'GET', url(dash.a));
    assert.deepEqual(countries(ok.data.data.rows), ['DE'], 'the locked filter narrows below the attributes');
    refused(await as(locked, 'GET', url(dash.a, `?date_from=${FROM}&country=FR`)), 403, 'FORBIDDEN');
    refused(await as(locked, 'GET', url(dash.a, '?country=DE&country=FR')), 403, 'FORBIDDEN');
    refused(await as(locked, 'POST', url(dash.a, ''), { filters: { country: 'FR' } }), 403, 'FORBIDDEN');
    refused(await as(locked, 'POST', url(dash.a, ''), { filters: { country: ['DE', 'FR'] } }), 403, 'FORBIDDEN');
    assert.equal((await as(locked, 'POST', url(dash.a, ''), { filters: { country: 'DE', date_from: FROM } })).statusCode, 200);
    // The locked value itself, as a query string sends it (a list of one), is no override.
    assert.equal((await as(locked, 'GET', url(dash.a, `?date_from=${FROM}&country=DE`))).statusCode, 200);
    // In any case, as the docs say; the locked value is the one applied.
    const lower = await as(locked, 'GET', url(dash.a, `?date_from=${FROM}&country=de`));
    assert.equal(lower.statusCode, 200, lower.body);
    assert.deepEqual(countries(lower.data.data.rows), ['DE']);
    assert.equal((await as(locked, 'POST', url(dash.a, ''), { filters: { country: 'De', date_from: FROM } })).statusCode, 200);
    refused(await as(locked, 'GET', url(dash.a, '?store=1')), 400, 'VALIDATION_FAILED');
    // Filter values: the unlocked filters only, read as the viewer.
    const lockedValues = await as(locked, 'GET', `/api/v1/embed/dashboards/${dash.a.id}/filter-values`);
    assert.equal(lockedValues.statusCode, 200, lockedValues.body);
    assert.equal(lockedValues.data.country, undefined);
    const open = await as(
      await sign(keys.demo, { sub: 'ann', resource: `dashboard:${dash.a.id}`, attributes: { country: 'DE' } }),
      'GET',
      `/api/v1/embed/dashboards/${dash.a.id}/filter-values`,
    );
    assert.deepEqual(open.data.country, ['DE'], 'no other country is offered');
    refused(await as(locked, 'GET', `/api/v1/embed/dashboards/${dash.b.id}/filter-values`), 403, 'FORBIDDEN');
    // Attributes bound rows even where no filter is locked: asking for another country is refused.
    const de = await sign(keys.demo, { sub: 'ann', resource: `dashboard:${dash.a.id}`, attributes: { country: 'DE' } });
    refused(await as(de, 'GET', url(dash.a, '?country=GB')), 403, 'FORBIDDEN');
  });

  test("chat answers within the viewer's attributes; asked about another country, it refuses", async () => {
    const chat = await sign(keys.demo, { sub: 'ann', resource: 'chat', attributes: { country: 'DE' } });
    const mine = await as(chat, 'POST', '/api/v1/embed/chat', { message: 'revenue by country last year' });
    assert.equal(mine.statusCode, 200, mine.body);
    assert.deepEqual(countries(mine.data.data.rows), ['DE']);
    refused(await as(chat, 'POST', '/api/v1/embed/chat', { message: 'revenue in France last month' }), 403);
    refused(
      await as(await sign(keys.demo, { sub: 'carl', resource: 'chat' }), 'POST', '/api/v1/embed/chat', { message: 'revenue by country' }),
      403,
      'ACCESS_ATTRIBUTE_MISSING',
    );
    refused(
      await as(await sign(keys.demo, { sub: 'ann', resource: 'chat', filters: { country: 'DE' } }), 'POST', '/api/v1/embed/chat', {
        message: 'revenue',
      }),
      401,
    );
  });
});

test("failed embed tokens count toward the address's failed authentications: 429 once exhausted", async () => {
  const small = await buildTestApp({ env: { INSIGHTS_AUTH_FAILURE_LIMIT: '3' } });
  try {
    const bad = { authorization: 'Bearer not.a.jwt' };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await small.app.inject({ method: 'GET', url: `/api/v1/embed/dashboards/${dash.a.id}`, headers: bad })).statusCode);
    assert.deepEqual(statuses, [401, 401, 401, 429, 429]);
  } finally {
    await small.close();
  }
});
