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

function assertLimited(res: Awaited<ReturnType<typeof call>>, what: string): void {
  assert.equal(res.statusCode, 429, `${what}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /application\/problem\+json/);
  assert.equal(res.data.code, 'RATE_LIMITED');
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

describe('failed authentications per address', () => {
  test('over the limit: 429 with Retry-After for every credential from the address, others unaffected, over after the minute', async () => {
    const t = await buildTestApp({ env: { INSIGHTS_AUTH_FAILURE_LIMIT: '3' } });
    try {
      const good = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
      const from = (remoteAddress: string, authorization: string | undefined) =>
        t.app.inject({ method: 'GET', url: '/api/v1/dashboards/', remoteAddress, headers: authorization ? { authorization } : {} });
      // Successes do not count.
      for (let i = 0; i < 5; i++) assert.equal((await from('203.0.113.7', good)).statusCode, 200);
      for (const bad of ['Svc ins_nope1', 'Bearer not.a.jwt', undefined]) assert.equal((await from('203.0.113.7', bad)).statusCode, 401);
      for (const h of ['Svc ins_nope2', good]) {
        const res = await from('203.0.113.7', h);
        assert.equal(res.statusCode, 429, res.body);
        assert.match(String(res.headers['content-type']), /application\/problem\+json/);
        const problem = JSON.parse(res.body);
        assert.equal(problem.code, 'RATE_LIMITED');
        assert.match(problem.detail, /failed authentications/);
        assert.ok(Number(res.headers['retry-after']) >= 1 && Number(res.headers['retry-after']) <= 60);
      }
      assert.equal((await from('198.51.100.9', good)).statusCode, 200, 'another address is unaffected');
      assert.equal((await from('198.51.100.9', 'Svc ins_nope')).statusCode, 401);
      // Public routes stay open.
      assert.equal((await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '203.0.113.7' })).statusCode, 200);
      t.clock.advance(61_000);
      assert.equal((await from('203.0.113.7', good)).statusCode, 200, 'the next minute starts afresh');
    } finally {
      await t.close();
    }
  });
});
