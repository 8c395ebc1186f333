// JWT identity claims over HTTP follow the CLI's rules: tenant_id is 1-100 characters of a small
// alphabet, sub is bounded printable text without surrounding spaces; and a header or payload that
// repeats a name is refused, since verifiers that keep different duplicates read one signed token
// as two callers. Tokens are signed with the server's own secret, so only these rules can refuse them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { buildTestApp, call, JWT_SECRET, type TestApp } from '../helpers/app.ts';
import { repeatedName } from '../../src/auth/jwt.ts';
import { runCli } from '../helpers/process.ts';

/** Signs header and payload given as raw JSON text, so repeated names reach the server as written. */
function hs256(payloadJson: string, headerJson = '{"alg":"HS256","typ":"JWT"}'): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64url');
  const input = `${b64(headerJson)}.${b64(payloadJson)}`;
  return `${input}.${crypto.createHmac('sha256', JWT_SECRET).update(input).digest('base64url')}`;
}

const exp = () => Math.floor(Date.now() / 1000) + 600;
const token = (claims: Record<string, unknown>) => hs256(JSON.stringify({ role: 'owner', exp: exp(), ...claims }));

describe('JWT identity claims', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const status = async (jwt: string) => {
    const res = await call(t, `Bearer ${jwt}`, 'GET', '/api/v1/dashboards/');
    return { code: res.statusCode, detail: String(res.data?.detail ?? '') };
  };

  test('tenant_id: spaces, quotes, 10 KB or other characters are refused; the CLI alphabet is accepted', async () => {
    for (const tenant of ['demo ', ' demo', "demo' OR '1'='1", 'x'.repeat(10_000), 'x'.repeat(101), 'dé', 'a/b', 'a b']) {
      const r = await status(token({ sub: 'u1', tenant_id: tenant }));
      assert.equal(r.code, 401, JSON.stringify(tenant.slice(0, 20)));
      assert.match(r.detail, /tenant_id claim must be 1-100 characters of A-Z, a-z, 0-9, _, \. and -/);
    }
    for (const tenant of ['demo', 'acme-eu.2', 'A_b', 'x'.repeat(100)])
      assert.equal((await status(token({ sub: 'u1', tenant_id: tenant }))).code, 200, tenant);
  });

  test("sub: surrounding spaces, control characters or over 200 characters are refused; an identity provider's subjects are accepted", async () => {
    for (const sub of ['u1 ', ' u1', 'a\tb', 'a\nb', 'x'.repeat(201), 'x'.repeat(10_000)]) {
      const r = await status(token({ sub, tenant_id: 'acme' }));
      assert.equal(r.code, 401, JSON.stringify(sub.slice(0, 20)));
      assert.match(r.detail, /sub claim must be 1-200 characters/);
    }
    for (const sub of [
      'auth0|5f7c8ec7c33c6c004bbafe82',
      'ann@acme.example',
      '0191d5a4-7c3e-7bbb-8f1e-000000000001',
      'Jürgen Kraus',
      'x'.repeat(200),
    ]) {
      assert.equal((await status(token({ sub, tenant_id: 'acme' }))).code, 200, sub);
    }
  });

  test('a payload that repeats a claim is refused, whichever copy a parser would keep', async () => {
    const e = exp();
    for (const payload of [
      `{"sub":"u1","tenant_id":"acme","tenant_id":"globex","role":"owner","exp":${e}}`,
      `{"sub":"u1","tenant_id":"acme","role":"member","role":"owner","exp":${e}}`,
      `{"sub":"u1","sub":"u2","tenant_id":"acme","role":"owner","exp":${e}}`,
      // The same name spelled with an escape is the same name.
      `{"sub":"u1","tenant_id":"acme","tenant\\u005fid":"globex","role":"owner","exp":${e}}`,
      `{"sub":"u1","tenant_id":"acme","role":"owner","exp":${e},"exp":${e + 60}}`,
    ]) {
      const r = await status(hs256(payload));
      assert.equal(r.code, 401, payload);
      assert.match(r.detail, /the payload repeats the name "(tenant_id|role|sub|exp)"/);
    }
    const header = await status(hs256(`{"sub":"u1","tenant_id":"acme","role":"owner","exp":${e}}`, '{"alg":"HS256","alg":"HS256"}'));
    assert.equal(header.code, 401);
    assert.match(header.detail, /the header repeats the name "alg"/);
    // The same name in two different objects is no repetition.
    assert.equal(
      (await status(hs256(`{"sub":"u1","tenant_id":"acme","role":"owner","exp":${e},"ctx":{"sub":"x","n":[{"sub":1},{"sub":2}]}}`))).code,
      200,
    );
  });

  test('repeatedName reads strings with escaped quotes and deep nesting without recursion', () => {
    assert.equal(repeatedName('{"a":"x\\"y","b":{"a":1},"a":2}'), 'a');
    assert.equal(repeatedName('{"a":"\\\\","b":"\\""}'), undefined);
    assert.equal(repeatedName('['.repeat(100_000) + ']'.repeat(100_000)), undefined);
    assert.equal(repeatedName('{"k":'.repeat(50_000) + '{"z":1,"z":2}' + '}'.repeat(50_000)), 'z');
  });
});

test('the CLI mints no JWT and no token that the server would refuse', async () => {
  const env = { INSIGHTS_JWT_SECRET: JWT_SECRET };
  const bad = await runCli(['jwt', '--tenant', "demo' OR '1'='1", '--user', 'ann', '--role', 'owner'], env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--tenant must be 1-100 characters/);
  const badUser = await runCli(['jwt', '--tenant', 'demo', '--user', 'x'.repeat(201), '--role', 'owner'], env);
  assert.equal(badUser.code, 2);
  assert.match(badUser.stderr, /--user must be 1-200 characters/);
  const ok = await runCli(['jwt', '--tenant', 'demo', '--user', 'ann', '--role', 'owner'], env);
  assert.equal(ok.code, 0, ok.stderr);
});
