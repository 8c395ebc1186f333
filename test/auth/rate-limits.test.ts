// Rate limits are keyed on who the caller is (the API token's id, or a JWT's tenant and subject),
// after the Authorization header is parsed strictly: respelling the header (scheme case, extra
// spaces) or minting a fresh JWT gives no fresh allowance. Failed authentications are limited per
// client address: over the limit, 429 problems with Retry-After until the minute ends.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { buildTestApp, call, JWT_SECRET, type TestApp } from '../helpers/app.ts';

const secret = new TextEncoder().encode(JWT_SECRET);
const jwt = (claims: Record<string, unknown>, iat: number) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(iat).setExpirationTime('1h').sign(secret);

function assertLimited(res: { statusCode: number; body: string; headers: Record<string, unknown> }, what: string): void {
  assert.equal(res.statusCode, 429, `${what}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /application\/problem\+json/);
  assert.equal(JSON.parse(res.body).code, 'RATE_LIMITED');
  assert.match(String(res.headers['retry-after']), /^\d+$/);
}

describe('the per-caller limit', () => {
  const withApp = async (fn: (t: TestApp) => Promise<void>) => {
    const t = await buildTestApp({ env: { INSIGHTS_RATE_LIMIT: '5' } });
    try {
      await fn(t);
    } finally {
      await t.close();
    }
  };

  test('the same token respelled (scheme case, extra spaces) shares one allowance', () =>
    withApp(async (t) => {
      const auth = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
      const token = auth.slice('Svc '.length);
      const spellings = [`Svc ${token}`, `svc ${token}`, `SVC ${token}`, `Svc   ${token}`, `sVc  ${token}`];
      for (const h of spellings) assert.equal((await call(t, h, 'GET', '/api/v1/dashboards/')).statusCode, 200, h);
      for (const h of spellings) assertLimited(await call(t, h, 'GET', '/api/v1/dashboards/'), h);
      // Another caller of the same tenant has an allowance of its own.
      const other = await t.login({ tenant: 'acme', user: 'max', role: 'member' });
      assert.equal((await call(t, other, 'GET', '/api/v1/dashboards/')).statusCode, 200);
    }));

  test('fresh JWTs for the same tenant and subject share one allowance; another subject does not', () =>
    withApp(async (t) => {
      const now = Math.floor(Date.now() / 1000);
      for (let i = 0; i < 5; i++) {
        const res = await call(
          t,
          `Bearer ${await jwt({ sub: 'ann', tenant_id: 'acme', role: 'owner' }, now - i)}`,
          'GET',
          '/api/v1/dashboards/',
        );
        assert.equal(res.statusCode, 200);
      }
      assertLimited(
        await call(t, `Bearer ${await jwt({ sub: 'ann', tenant_id: 'acme', role: 'owner' }, now - 10)}`, 'GET', '/api/v1/dashboards/'),
        'a sixth JWT',
      );
      assert.equal(
        (await call(t, `Bearer ${await jwt({ sub: 'bob', tenant_id: 'acme', role: 'owner' }, now)}`, 'GET', '/api/v1/dashboards/'))
          .statusCode,
        200,
      );
      assert.equal(
        (await call(t, `Bearer ${await jwt({ sub: 'ann', tenant_id: 'globex', role: 'owner' }, now)}`, 'GET', '/api/v1/dashboards/'))
          .statusCode,
        200,
      );
    }));
});

describe('the Authorization header is parsed strictly', () => {
  test('tabs, a second credential or characters outside token68 are malformed (401)', async () => {
    const t = await buildTestApp();
    try {
      const auth = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
      const token = auth.slice('Svc '.length);
      for (const h of [`Svc\t${token}`, `Svc ${token} ${token}`, `Svc ${token},x`, `Svc "${token}"`, 'Svc', `${token}`]) {
        const res = await call(t, h, 'GET', '/api/v1/dashboards/');
        assert.equal(res.statusCode, 401, JSON.stringify(h));
      }
    } finally {
      await t.close();
    }
  });
});

describe('failed authentications per address and per credential', () => {
  test('over the limit: refusals from the address are 429s with Retry-After, a valid credential still passes, over after the minute', async () => {
    const t = await buildTestApp({ env: { INSIGHTS_AUTH_FAILURE_LIMIT: '3' } });
    try {
      const good = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
      const from = (remoteAddress: string, authorization: string | undefined) =>
        t.app.inject({ method: 'GET', url: '/api/v1/dashboards/', remoteAddress, headers: authorization ? { authorization } : {} });
      // Successes do not count.
      for (let i = 0; i < 5; i++) assert.equal((await from('203.0.113.7', good)).statusCode, 200);
      for (const bad of ['Svc ins_nope1', 'Bearer not.a.jwt', undefined]) assert.equal((await from('203.0.113.7', bad)).statusCode, 401);
      for (const h of ['Svc ins_nope2', undefined]) {
        const res = await from('203.0.113.7', h);
        assertLimited(res, String(h));
        assert.match(JSON.parse(res.body).detail, /failed authentications from your address/);
        assert.ok(Number(res.headers['retry-after']) >= 1 && Number(res.headers['retry-after']) <= 60);
      }
      // A valid credential is never held back by others' failures: the owner's token, a token never
      // used before from that address, and a JWT.
      assert.equal((await from('203.0.113.7', good)).statusCode, 200, 'the owner token passes');
      const fresh = await t.login({ tenant: 'acme', user: 'max', role: 'member' });
      assert.equal((await from('203.0.113.7', fresh)).statusCode, 200, 'a token first seen from the locked address passes');
      const bearer = `Bearer ${await jwt({ sub: 'ann', tenant_id: 'acme', role: 'owner' }, Math.floor(Date.now() / 1000))}`;
      assert.equal((await from('203.0.113.7', bearer)).statusCode, 200, 'a valid JWT passes');
      assert.equal((await from('198.51.100.9', good)).statusCode, 200, 'another address is unaffected');
      assert.equal((await from('198.51.100.9', 'Svc ins_nope')).statusCode, 401);
      // Public routes stay open.
      assert.equal((await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '203.0.113.7' })).statusCode, 200);
      t.clock.advance(61_000);
      assert.equal((await from('203.0.113.7', 'Svc ins_nope3')).statusCode, 401, 'the next minute starts afresh');
    } finally {
      await t.close();
    }
  });

  test('a credential refused over the limit is a 429 from any address, however the header is spelled', async () => {
    const t = await buildTestApp({ env: { INSIGHTS_AUTH_FAILURE_LIMIT: '3' } });
    try {
      const from = (remoteAddress: string, authorization: string) =>
        t.app.inject({ method: 'GET', url: '/api/v1/dashboards/', remoteAddress, headers: { authorization } });
      for (const ip of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) assert.equal((await from(ip, 'Svc ins_guess')).statusCode, 401);
      const res = await from('192.0.2.4', 'svc   ins_guess');
      assertLimited(res, 'the same credential from a fourth address');
      assert.match(JSON.parse(res.body).detail, /with this credential/);
      assert.equal((await from('192.0.2.4', 'Svc ins_other')).statusCode, 401, 'another credential from that address is looked at');
    } finally {
      await t.close();
    }
  });
});

describe('INSIGHTS_TRUST_PROXY', () => {
  const lockOut = async (t: TestApp, headers: Record<string, string>) => {
    for (let i = 0; i < 3; i++)
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/dashboards/',
        remoteAddress: '10.0.0.5',
        headers: { ...headers, authorization: `Svc ins_bad${i}` },
      });
    return t.app.inject({
      method: 'GET',
      url: '/api/v1/dashboards/',
      remoteAddress: '10.0.0.5',
      headers: { ...headers, authorization: 'Svc ins_bad9' },
    });
  };

  const next = (t: TestApp, client: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/v1/dashboards/',
      remoteAddress: '10.0.0.5',
      headers: { 'x-forwarded-for': client, authorization: 'Svc ins_first' },
    });

  test('unset: X-Forwarded-For is ignored, the peer is the address', async () => {
    const t = await buildTestApp({ env: { INSIGHTS_AUTH_FAILURE_LIMIT: '3' } });
    try {
      assert.equal((await lockOut(t, { 'x-forwarded-for': '203.0.113.1' })).statusCode, 429);
      // A forged header names another client, but the peer's failures are the ones counted.
      assert.equal((await next(t, '203.0.113.2')).statusCode, 429);
    } finally {
      await t.close();
    }
  });

  test("set to the proxy's address: each forwarded client has its own count", async () => {
    const t = await buildTestApp({ env: { INSIGHTS_AUTH_FAILURE_LIMIT: '3', INSIGHTS_TRUST_PROXY: '10.0.0.0/8' } });
    try {
      assert.equal((await lockOut(t, { 'x-forwarded-for': '203.0.113.1' })).statusCode, 429);
      assert.equal((await next(t, '203.0.113.2')).statusCode, 401, 'another client behind the proxy is not held back');
    } finally {
      await t.close();
    }
  });
});
