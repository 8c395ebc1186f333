import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, generateKeyPair, exportJWK } from 'jose';
import { buildTestApp, call, JWT_SECRET, type TestApp } from '../helpers/app.ts';

const secret = new TextEncoder().encode(JWT_SECRET);
const jwt = (claims: Record<string, unknown>, exp: string | number = '1h', alg = 'HS256') =>
  new SignJWT(claims).setProtectedHeader({ alg }).setIssuedAt().setExpirationTime(exp).sign(secret);

describe('authentication and API tokens', () => {
  let t: TestApp;
  let owner: string;
  before(async () => {
    t = await buildTestApp();
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
  });
  after(() => t.close());

  test('no credentials: 401 problem with WWW-Authenticate', async () => {
    const res = await call(t, undefined, 'GET', '/api/v1/auth/tokens');
    assert.equal(res.statusCode, 401);
    assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
    assert.match(res.headers['www-authenticate'] as string, /Svc realm="insights", Bearer/);
    assert.equal(res.data.code, 'UNAUTHENTICATED');
  });

  test('unknown token and unknown scheme are 401', async () => {
    assert.equal((await call(t, 'Svc ins_nope', 'GET', '/api/v1/auth/tokens')).statusCode, 401);
    assert.equal((await call(t, 'Basic abc', 'GET', '/api/v1/auth/tokens')).statusCode, 401);
  });

  test('create, list masked, revoke takes effect at once', async () => {
    const created = await call(t, owner, 'POST', '/api/v1/auth/tokens', {
      name: 'ci',
      user_id: 'max',
      role: 'member',
      email: 'Max@Acme.example',
    });
    assert.equal(created.statusCode, 201);
    assert.match(created.data.token, /^ins_/);
    assert.equal(created.data.email, 'max@acme.example');
    const member = `Svc ${created.data.token}`;
    assert.equal((await call(t, member, 'GET', '/api/v1/openapi.json')).statusCode, 200);

    const list = await call(t, owner, 'GET', '/api/v1/auth/tokens');
    assert.equal(list.statusCode, 200);
    const row = list.data.find((x: any) => x.id === created.data.id);
    assert.equal(row.token, undefined);
    assert.ok(!JSON.stringify(list.data).includes(created.data.token));
    assert.match(row.token_masked, /^ins_.{4}\*\*\*\*$/);

    // a member may not manage tokens
    assert.equal((await call(t, member, 'GET', '/api/v1/auth/tokens')).statusCode, 403);

    assert.equal((await call(t, owner, 'DELETE', `/api/v1/auth/tokens/${created.data.id}`)).statusCode, 204);
    assert.equal((await call(t, member, 'GET', '/api/v1/auth/tokens')).statusCode, 401);
  });

  test('never a role above the caller, tokens of another tenant are 404', async () => {
    const admin = await t.login({ tenant: 'acme', user: 'ada', role: 'admin' });
    const res = await call(t, admin, 'POST', '/api/v1/auth/tokens', { name: 'x', user_id: 'y', role: 'owner' });
    assert.equal(res.statusCode, 403);
    const other = await t.login({ tenant: 'globex', user: 'gus', role: 'owner' });
    const mine = await call(t, owner, 'POST', '/api/v1/auth/tokens', { name: 'x', user_id: 'y', role: 'member' });
    assert.equal((await call(t, other, 'DELETE', `/api/v1/auth/tokens/${mine.data.id}`)).statusCode, 404);
  });

  test("an admin may not revoke an owner's token (the owner keeps access), but may revoke an admin's or a member's", async () => {
    const admin = await t.login({ tenant: 'acme', user: 'ada', role: 'admin' });
    const ownerToken = await call(t, owner, 'POST', '/api/v1/auth/tokens', { name: 'laptop', user_id: 'olga', role: 'owner' });
    assert.equal(ownerToken.statusCode, 201);
    const res = await call(t, admin, 'DELETE', `/api/v1/auth/tokens/${ownerToken.data.id}`);
    assert.equal(res.statusCode, 403);
    assert.equal(res.data.code, 'FORBIDDEN');
    assert.match(res.data.detail, /role above your own \(admin\)/);
    const stillOwner = `Svc ${ownerToken.data.token}`;
    assert.equal((await call(t, stillOwner, 'GET', '/api/v1/auth/tokens')).statusCode, 200, 'the owner is not locked out');
    const list = await call(t, owner, 'GET', '/api/v1/auth/tokens');
    assert.equal(list.data.find((x: any) => x.id === ownerToken.data.id).revoked_at, null);

    for (const role of ['admin', 'member']) {
      const other = await call(t, owner, 'POST', '/api/v1/auth/tokens', { name: role, user_id: `u-${role}`, role });
      assert.equal((await call(t, admin, 'DELETE', `/api/v1/auth/tokens/${other.data.id}`)).statusCode, 204, role);
    }
    // An owner may revoke another owner's token.
    assert.equal((await call(t, owner, 'DELETE', `/api/v1/auth/tokens/${ownerToken.data.id}`)).statusCode, 204);
  });

  test('400 names every unknown and missing field', async () => {
    const res = await call(t, owner, 'POST', '/api/v1/auth/tokens', { name: 'x', role: 'member', foo: 1, bar: 2 });
    assert.equal(res.statusCode, 400);
    const paths = res.data.errors.map((e: any) => e.path).sort();
    assert.deepEqual(paths, ['/body/bar', '/body/foo', '/body/user_id']);
  });

  test('JWT: valid HS256 accepted, role case-insensitive', async () => {
    const token = await jwt({ sub: 'u1', tenant_id: 'acme', role: 'Admin', name: 'U One' });
    const res = await call(t, `Bearer ${token}`, 'GET', '/api/v1/auth/tokens');
    assert.equal(res.statusCode, 200);
  });

  test('JWT refusals: alg none, expired, wrong key, missing claims, no exp, RS256 without JWKS', async () => {
    const none =
      Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url') +
      '.' +
      Buffer.from(JSON.stringify({ sub: 'u', tenant_id: 'acme', role: 'owner', exp: Math.floor(Date.now() / 1000) + 60 })).toString(
        'base64url',
      ) +
      '.';
    const expired = await jwt({ sub: 'u', tenant_id: 'acme', role: 'owner' }, Math.floor(Date.now() / 1000) - 10);
    const wrongKey = await new SignJWT({ sub: 'u', tenant_id: 'acme', role: 'owner' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-that-is-32-bytes-long!!'));
    const noTenant = await jwt({ sub: 'u', role: 'owner' });
    const noSub = await jwt({ tenant_id: 'acme', role: 'owner' });
    const badRole = await jwt({ sub: 'u', tenant_id: 'acme', role: 'root' });
    const noExp = await new SignJWT({ sub: 'u', tenant_id: 'acme', role: 'owner' }).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    const { privateKey } = await generateKeyPair('RS256');
    const rs = await new SignJWT({ sub: 'u', tenant_id: 'acme', role: 'owner' })
      .setProtectedHeader({ alg: 'RS256' })
      .setExpirationTime('1h')
      .sign(privateKey);
    for (const [name, tok] of Object.entries({ none, expired, wrongKey, noTenant, noSub, badRole, noExp, rs, garbage: 'abc.def' })) {
      const res = await call(t, `Bearer ${tok}`, 'GET', '/api/v1/auth/tokens');
      assert.equal(res.statusCode, 401, name);
      assert.match(res.headers['www-authenticate'] as string, /Bearer/, name);
    }
    void exportJWK;
  });

  test('the first-start owner token is made once per database, and works', async () => {
    const token = await t.app.services.tokens.createFirstOwnerToken();
    assert.match(token ?? '', /^ins_/);
    assert.equal(await t.app.services.tokens.createFirstOwnerToken(), undefined);
    const me = await call(t, `Svc ${token}`, 'GET', '/api/v1/auth/tokens');
    assert.equal(me.statusCode, 200);
  });
});

describe('JWKS (RS256/ES256)', () => {
  test('a token signed by a key of the JWKS is accepted; HS256 forged with the public key is refused', async () => {
    const http = await import('node:http');
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    const server = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const t = await buildTestApp({ env: { INSIGHTS_JWT_JWKS_URL: `http://127.0.0.1:${port}/jwks.json`, INSIGHTS_JWT_SECRET: '' } });
    try {
      const good = await new SignJWT({ sub: 'u', tenant_id: 'acme', role: 'owner' })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setExpirationTime('1h')
        .sign(privateKey);
      assert.equal((await call(t, `Bearer ${good}`, 'GET', '/api/v1/auth/tokens')).statusCode, 200);
      const forged = await new SignJWT({ sub: 'u', tenant_id: 'acme', role: 'owner' })
        .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(JSON.stringify(jwk)));
      assert.equal((await call(t, `Bearer ${forged}`, 'GET', '/api/v1/auth/tokens')).statusCode, 401);
    } finally {
      await t.close();
      server.close();
    }
  });
});
