// JWT time claims: exp, nbf and iat must be finite NumericDates (JSON's 1e309 parses to Infinity,
// which jose alone accepts as a token that never expires), and exp may lie at most
// INSIGHTS_JWT_MAX_TTL ahead. Tokens are signed with the server's own secret, so only these rules
// can refuse them. Claims with a NUL are refused too (they would reach SQL as tenant or creator).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { buildTestApp, call, JWT_SECRET, type TestApp } from '../helpers/app.ts';
import { loadConfig } from '../../src/config/index.ts';

/** Signs a payload given as raw JSON text, so numbers like 1e309 reach the server as written. */
function hs256(payloadJson: string, secret = JWT_SECRET): string {
  const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64url');
  const input = `${b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64(payloadJson)}`;
  return `${input}.${crypto.createHmac('sha256', secret).update(input).digest('base64url')}`;
}

const now = () => Math.floor(Date.now() / 1000);
const claims = (times: string) => `{"sub":"u1","tenant_id":"acme","role":"owner",${times}}`;

describe('JWT time claims', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { INSIGHTS_JWT_MAX_TTL: '2h' } });
  });
  after(() => t.close());

  const status = async (token: string) => {
    const res = await call(t, `Bearer ${token}`, 'GET', '/api/v1/dashboards/');
    return { code: res.statusCode, detail: res.data?.detail as string | undefined };
  };

  test('a token valid for less than the maximum lifetime is accepted', async () => {
    assert.equal((await status(hs256(claims(`"exp":${now() + 3600},"iat":${now()},"nbf":${now() - 5}`)))).code, 200);
  });

  test('exp, nbf or iat of 1e309 (Infinity) is refused with 401', async () => {
    for (const times of [
      '"exp":1e309',
      `"exp":${now() + 60},"nbf":-1e309`,
      `"exp":${now() + 60},"iat":1e309`,
      `"exp":${now() + 60},"iat":-1e309`,
    ]) {
      const r = await status(hs256(claims(times)));
      assert.equal(r.code, 401, times);
    }
    const r = await status(hs256(claims('"exp":1e309')));
    assert.match(r.detail!, /exp/);
  });

  test('an exp further ahead than INSIGHTS_JWT_MAX_TTL is refused; just inside it is accepted', async () => {
    const far = await status(hs256(claims(`"exp":${now() + 2 * 3600 + 120}`)));
    assert.equal(far.code, 401);
    assert.match(far.detail!, /more than the 7200 s allowed/);
    assert.equal((await status(hs256(claims(`"exp":${now() + 2 * 3600 - 120}`)))).code, 200);
    assert.equal((await status(hs256(claims(`"exp":1e300`)))).code, 401);
  });

  test('a claim with a NUL is refused with 401, before it reaches a query', async () => {
    for (const c of ['sub', 'tenant_id', 'name', 'email']) {
      const payload = JSON.parse(claims(`"exp":${now() + 60}`));
      payload[c] = 'a\u0000b';
      const r = await status(hs256(JSON.stringify(payload)));
      assert.equal(r.code, 401, c);
      assert.match(r.detail!, new RegExp(`${c} claim contains a NUL`));
    }
  });
});

test('INSIGHTS_JWT_MAX_TTL: 24h by default; 90m, 3600s, 2d accepted; anything else stops start-up naming it', () => {
  assert.equal(loadConfig({}).jwt.maxTtlSeconds, 86_400);
  assert.equal(loadConfig({ INSIGHTS_JWT_MAX_TTL: '90m' }).jwt.maxTtlSeconds, 5400);
  assert.equal(loadConfig({ INSIGHTS_JWT_MAX_TTL: '3600s' }).jwt.maxTtlSeconds, 3600);
  assert.equal(loadConfig({ INSIGHTS_JWT_MAX_TTL: '600' }).jwt.maxTtlSeconds, 600);
  assert.equal(loadConfig({ INSIGHTS_JWT_MAX_TTL: '2d' }).jwt.maxTtlSeconds, 172_800);
  for (const bad of ['forever', '1.5h', '-1h', '0', '1y', '400d']) {
    assert.throws(() => loadConfig({ INSIGHTS_JWT_MAX_TTL: bad }), /INSIGHTS_JWT_MAX_TTL/, bad);
  }
});
