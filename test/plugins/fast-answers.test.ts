// Repeated executes answered from memory before routing (src/plugins/fast-answers.ts): over a real
// socket (inject() never reaches the server's listener), the early answer must be the answer
// Fastify gives to the same request, byte for byte and header for header, and must still do what
// every request is owed: authentication, revocation at once, the per-caller rate limit, tenant and
// attribute scoping, metrics.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import { buildTestApp, call, type TestApp } from '../helpers/app.ts';
import { rowAccessModel } from '../helpers/row-access.ts';

const FROM = new Date(Date.now() - 700 * 86400_000).toISOString().slice(0, 10);
const URL_ = `/api/v1/insights/revenue/execute?granularity=month&date_from=${FROM}`;

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
}

async function get(origin: string, authorization: string, url = URL_) {
  const res = await request(origin + url, { headers: { authorization } });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
}

/** The headers an answer is made of, without the ones that differ request by request. */
function stable(headers: Record<string, unknown>): Record<string, unknown> {
  const { date: _d, 'x-ratelimit-remaining': _r, 'x-ratelimit-reset': _t, connection: _c, 'keep-alive': _k, ...rest } = headers;
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)]));
}

describe('early answers on the demo model', () => {
  let t: TestApp;
  let origin: string;
  before(async () => {
    t = await buildTestApp({ env: { INSIGHTS_RATE_LIMIT: '6' } });
    origin = await listen(t);
  });
  after(() => t.close());

  test('a repeated execute is answered early with the bytes and headers Fastify gives it', async () => {
    const auth = await t.login({ tenant: 'acme', user: 'ann', role: 'member' });
    const first = await get(origin, auth);
    assert.equal(first.status, 200, first.body);
    assert.equal(JSON.parse(first.body).data.cached, false);
    const early = t.app.fastAnswers.answered;
    const second = await get(origin, auth);
    assert.equal(t.app.fastAnswers.answered, early + 1, 'answered before routing');
    // The same request through Fastify's whole life cycle (inject never reaches the early path).
    const routed = await call(t, auth, 'GET', URL_);
    assert.equal(t.app.fastAnswers.answered, early + 1);
    assert.equal(second.status, 200);
    assert.equal(second.body, routed.body);
    assert.equal(JSON.parse(second.body).data.cached, true);
    assert.deepEqual(stable(second.headers), stable(routed.headers as Record<string, unknown>));
    assert.deepEqual(Object.keys(second.headers).slice(0, 5), Object.keys(routed.headers).slice(0, 5), 'same order');
    assert.equal(second.headers['x-ratelimit-remaining'], '4');
    assert.equal(String(routed.headers['x-ratelimit-remaining']), '3', 'one counter for both paths');
  });

  test("another tenant's caller never gets the cached answer; a revoked token is refused at once", async () => {
    const ann = await t.login({ tenant: 'acme', user: 'ann2', role: 'owner' });
    const bob = await t.login({ tenant: 'globex', user: 'bob', role: 'member' });
    const a = await get(origin, ann);
    await get(origin, ann);
    const b = await get(origin, bob);
    assert.equal(b.status, 200);
    assert.notEqual(b.body, a.body);
    assert.equal(JSON.parse(b.body).data.cached, false, "not ann's cached answer");
    assert.equal(b.body.replace('"cached":false', '"cached":true'), (await call(t, bob, 'GET', URL_)).body);

    const tokens = await call(t, ann, 'GET', '/api/v1/auth/tokens');
    const mine = tokens.data.find((x: { user_id: string }) => x.user_id === 'ann2');
    assert.equal((await call(t, ann, 'DELETE', `/api/v1/auth/tokens/${mine.id}`)).statusCode, 204);
    const after = await get(origin, ann);
    assert.equal(after.status, 401, after.body);
  });

  test('the rate limit counts early answers, and the caller over it gets the 429', async () => {
    const auth = await t.login({ tenant: 'acme', user: 'cy', role: 'member' });
    const early = t.app.fastAnswers.answered;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await get(origin, auth)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
    assert.equal(t.app.fastAnswers.answered - early, 5);
  });

  test('early answers are counted in the metrics', async () => {
    const metrics = await call(t, undefined, 'GET', '/metrics');
    const line = metrics.body
      .split('\n')
      .find((l) => l.startsWith('http_requests_total{') && l.includes('route="/api/v1/insights/:code/execute"') && l.includes('"200"'));
    // Every 200 of this file so far: 2 + 2 + 1 (inject) + 6, and the two of the first test's inject.
    assert.ok(line, metrics.body);
    const routedOrEarly = Number(line.split(' ').pop());
    assert.ok(routedOrEarly >= 11, line);
    assert.ok(t.app.fastAnswers.answered >= 7);
  });

  test('a new day is not answered from the day before', async () => {
    const auth = await t.login({ tenant: 'acme', user: 'dee', role: 'member' });
    await get(origin, auth);
    const early = t.app.fastAnswers.answered;
    t.clock.advance(86_400_000);
    const next = await get(origin, auth);
    assert.equal(next.status, 200);
    assert.equal(t.app.fastAnswers.answered, early);
    assert.equal(JSON.parse(next.body).data.cached, false, "not yesterday's answer");
    assert.equal(next.body.replace('"cached":false', '"cached":true'), (await call(t, auth, 'GET', URL_)).body);
  });
});

/** On the row-access model: the app's origin, and API tokens of members who may see DE (ann) and FR (bob) only. */
async function countryCallers(t: TestApp): Promise<{ origin: string; ann: string; bob: string }> {
  const origin = await listen(t);
  const owner = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });
  const tokenWith = async (user: string, country: string) => {
    const res = await call(t, owner, 'POST', '/api/v1/auth/tokens', { name: user, user_id: user, role: 'member', attributes: { country } });
    assert.equal(res.statusCode, 201, res.body);
    return `Svc ${res.data.token}`;
  };
  return { origin, ann: await tokenWith('ann', 'DE'), bob: await tokenWith('bob', 'FR') };
}

test('callers with different attributes never share an early answer', async () => {
  const t = await buildTestApp({ deps: { model: rowAccessModel() } });
  try {
    const { origin, ann, bob } = await countryCallers(t);
    const url = `/api/v1/insights/revenue_by_country/execute?date_from=${FROM}`;
    await get(origin, ann, url);
    const a = await get(origin, ann, url);
    const b = await get(origin, bob, url);
    const countries = (body: string) => [...new Set(JSON.parse(body).data.rows.map((r: { country: string }) => r.country))];
    assert.deepEqual(countries(a.body), ['DE']);
    assert.deepEqual(countries(b.body), ['FR']);
  } finally {
    await t.close();
  }
});

test('after a load the early path answers the new data: the versions it reads in memory are forgotten by the load', async () => {
  const t = await buildTestApp();
  try {
    const origin = await listen(t);
    const owner = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
    const url = '/api/v1/insights/revenue/execute?granularity=month&country=DE&date_from=2026-03-01&date_to=2026-03-31';
    const total = (body: string) => (JSON.parse(body).data.rows as { revenue: number }[]).reduce((a, r) => a + Number(r.revenue), 0);
    const first = await get(origin, owner, url);
    assert.equal(first.status, 200, first.body);
    const early = t.app.fastAnswers.answered;
    const hit = await get(origin, owner, url);
    assert.equal(t.app.fastAnswers.answered, early + 1, 'the repeat is answered early');
    assert.equal(hit.body.length > 0 && JSON.parse(hit.body).data.cached, true);
    const csv =
      'order_id,customer_id,ordered_at,country,channel,status,items,revenue,discount\n' +
      '99000001,1,2026-03-10 10:00:00,DE,web,completed,1,1000.50,0\n99000002,2,2026-03-12 11:00:00,DE,mobile,completed,2,499.50,0\n';
    const load = await t.app.inject({
      method: 'POST',
      url: '/api/v1/data/orders',
      headers: { authorization: owner, 'content-type': 'text/csv' },
      payload: csv,
    });
    assert.equal(load.statusCode, 200, load.body);
    const after = await get(origin, owner, url);
    assert.equal(after.status, 200, after.body);
    assert.equal(JSON.parse(after.body).data.cached, false, 'not the answer from before the load');
    assert.equal(Math.round((total(after.body) - total(first.body)) * 100), 150000);
  } finally {
    await t.close();
  }
});

describe('early answers to POST /api/v1/query', () => {
  const QUERY = {
    measures: ['orders.revenue'],
    dimensions: ['orders.country'],
    time: { dimension: 'orders.ordered_at', date_from: FROM },
  };
  let t: TestApp;
  let origin: string;
  before(async () => {
    t = await buildTestApp({ env: { INSIGHTS_RATE_LIMIT: '100' } });
    origin = await listen(t);
  });
  after(() => t.close());

  const post = async (authorization: string, body: string, contentType = 'application/json') => {
    const res = await request(`${origin}/api/v1/query`, { method: 'POST', headers: { authorization, 'content-type': contentType }, body });
    return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
  };

  test('a repeated query is answered early with the bytes and headers Fastify gives it', async () => {
    const auth = await t.login({ tenant: 'acme', user: 'qa', role: 'member' });
    const body = JSON.stringify(QUERY);
    // The first request authenticates (the caller is not known yet), the second is read early but
    // not answered there (the body was never answered), the third is answered early.
    const first = await post(auth, body);
    assert.equal(first.status, 200, first.body);
    const early = t.app.fastAnswers.answered;
    const second = await post(auth, body);
    assert.equal(second.status, 200, second.body);
    assert.equal(t.app.fastAnswers.answered, early, 'routed: its body as sent was never answered');
    assert.equal(second.body, first.body);
    const third = await post(auth, body);
    assert.equal(t.app.fastAnswers.answered, early + 1, 'answered before routing');
    const routed = await call(t, auth, 'POST', '/api/v1/query', QUERY);
    assert.equal(t.app.fastAnswers.answered, early + 1);
    assert.equal(third.status, 200);
    assert.equal(third.body, routed.body);
    assert.equal(third.body, first.body);
    assert.deepEqual(stable(third.headers), stable(routed.headers as Record<string, unknown>));
    assert.deepEqual(Object.keys(third.headers).slice(0, 5), Object.keys(routed.headers).slice(0, 5), 'same order');

    // The same question spelled otherwise is routed, and answered the same from the cache.
    const spaced = await post(auth, JSON.stringify(QUERY, null, 2), 'application/json; charset=utf-8');
    assert.equal(spaced.status, 200, spaced.body);
    assert.equal(spaced.body, first.body);
    assert.equal(t.app.fastAnswers.answered, early + 1);
  });

  test('bodies read early and then routed are parsed and checked by Fastify as ever', async () => {
    const auth = await t.login({ tenant: 'acme', user: 'qb', role: 'member' });
    await post(auth, JSON.stringify(QUERY));
    const bad = await post(auth, JSON.stringify({ ...QUERY, measures: ['orders.nope'] }));
    assert.equal(bad.status, 400, bad.body);
    assert.match(bad.headers['content-type'] as string, /problem\+json/);
    const broken = await post(auth, '{"measures": [');
    assert.equal(broken.status, 400, broken.body);
    const text = await post(auth, JSON.stringify(QUERY), 'text/plain');
    assert.equal(text.status, 415, text.body);
    // A body answered before, sent with a type Fastify refuses, is not answered early.
    const early = t.app.fastAnswers.answered;
    await post(auth, JSON.stringify(QUERY));
    assert.equal(t.app.fastAnswers.answered, early + 1);
    assert.equal((await post(auth, JSON.stringify(QUERY), 'text/plain')).status, 415);
    assert.equal(t.app.fastAnswers.answered, early + 1);
  });

  test("another tenant's caller never gets the cached answer", async () => {
    const ann = await t.login({ tenant: 'acme', user: 'qc', role: 'member' });
    const bob = await t.login({ tenant: 'globex', user: 'qd', role: 'member' });
    const body = JSON.stringify({ measures: ['orders.orders'] });
    await post(ann, body);
    const a = await post(ann, body);
    await post(ann, body);
    const b = await post(bob, body);
    assert.equal(b.status, 200, b.body);
    assert.notEqual(b.body, a.body);
    assert.equal(b.body, (await call(t, bob, 'POST', '/api/v1/query', JSON.parse(body))).body);
  });
});

test('callers with different attributes never share an early query answer', async () => {
  const t = await buildTestApp({ deps: { model: rowAccessModel() } });
  try {
    const { origin, ann, bob } = await countryCallers(t);
    const body = JSON.stringify({
      measures: ['orders.revenue'],
      dimensions: ['orders.country'],
      time: { dimension: 'orders.ordered_at', date_from: FROM },
    });
    const post = async (authorization: string) =>
      (
        await request(`${origin}/api/v1/query`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body })
      ).body.text();
    const countries = (text: string) => [...new Set(JSON.parse(text).data.rows.map((r: Record<string, string>) => r['orders.country']))];
    for (let i = 0; i < 3; i++) assert.deepEqual(countries(await post(ann)), ['DE']);
    const early = t.app.fastAnswers.answered;
    assert.deepEqual(countries(await post(bob)), ['FR']);
    assert.deepEqual(countries(await post(ann)), ['DE']);
    assert.equal(t.app.fastAnswers.answered, early + 1, "ann's repeat early, bob's not from ann's answer");
  } finally {
    await t.close();
  }
});
