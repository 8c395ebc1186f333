// Embed tokens signed with RS256/ES256 through an embedding key's JWKS URL (docs/embedding.md):
// the JWKS is fetched through the egress guard over HTTPS (a loopback server trusted by the test's
// guard), the JWK's kid is the embedding key's id, and a key without a JWKS URL refuses them.
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { EgressGuard } from '../../../src/adapters/egress.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { loopbackCertificate } from '../../fakes/webhook-receiver.ts';

let t: TestApp;
let server: https.Server;
let jwks: unknown = { keys: [] };
let fetched = 0;

before(async () => {
  const { cert, key } = await loopbackCertificate();
  server = https.createServer({ cert, key }, (_req, res) => {
    fetched++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t = await buildTestApp({ deps: { egress: new EgressGuard(['127.0.0.0/8'], { ca: cert }) } });
});
after(async () => {
  await t.close();
  server.close();
});

test("ES256 through the key's JWKS verifies; a key pair not in the JWKS, or a key without a JWKS URL, is refused", async () => {
  const owner = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  const withJwks = await call(t, owner, 'POST', '/api/v1/embed/keys', {
    name: 'jwks',
    allowed_origins: ['https://a.example'],
    jwks_url: url,
  });
  assert.equal(withJwks.statusCode, 201, withJwks.body);
  const plain = await call(t, owner, 'POST', '/api/v1/embed/keys', { name: 'hs only', allowed_origins: ['https://a.example'] });
  const d = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'D' });
  const ours = await generateKeyPair('ES256');
  const stranger = await generateKeyPair('ES256');
  jwks = { keys: [{ ...(await exportJWK(ours.publicKey)), kid: withJwks.data.id, alg: 'ES256' }] };
  const sign = (kid: string, key: CryptoKey) =>
    new SignJWT({ resource: `dashboard:${d.data.id}` })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setSubject('v')
      .setExpirationTime('5m')
      .sign(key);
  const get = (token: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1/embed/dashboards/${d.data.id}`, headers: { authorization: `Bearer ${token}` } });
  assert.equal((await get(await sign(withJwks.data.id, ours.privateKey))).statusCode, 200);
  assert.equal((await get(await sign(withJwks.data.id, stranger.privateKey))).statusCode, 401);
  assert.equal((await get(await sign(plain.data.id, ours.privateKey))).statusCode, 401, 'no JWKS URL: only HS256');
  // A JWKS key takes only asymmetric tokens: its secret signs nothing it accepts.
  const hs = await new SignJWT({ resource: `dashboard:${d.data.id}` })
    .setProtectedHeader({ alg: 'HS256', kid: withJwks.data.id })
    .setSubject('v')
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(withJwks.data.secret));
  const refused = await get(hs);
  assert.equal(refused.statusCode, 401, refused.body);
  assert.match(JSON.parse(refused.body).detail, /only RS256 or ES256/);
  assert.equal(fetched, 1, 'the JWKS is fetched once and kept');
  const http = await call(t, owner, 'POST', '/api/v1/embed/keys', {
    name: 'x',
    allowed_origins: ['https://a.example'],
    jwks_url: 'http://127.0.0.1/jwks.json',
  });
  assert.equal(http.statusCode, 400);
});
