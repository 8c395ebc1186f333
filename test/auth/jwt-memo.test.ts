// Verified JWTs are remembered (the cached-hit path of execute depends on it) but never past their
// exp, and a token that failed is never remembered.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SignJWT } from 'jose';
import { JwtRejected, JwtVerifier } from '../../src/auth/jwt.ts';

const secret = new TextEncoder().encode('a-secret-of-at-least-thirty-two-bytes!!');

test('a remembered token still expires at its exp; a refused one is refused again', async () => {
  const verifier = new JwtVerifier({ secret });
  // Two whole seconds ahead at least: jose refuses a token once the current whole second reaches
  // exp, so "+1" left anywhere from 0 to 1,000 ms and failed on a slow machine.
  const exp = Math.floor(Date.now() / 1000) + 3;
  const token = await new SignJWT({ tenant_id: 'demo', role: 'ADMIN' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('u')
    .setExpirationTime(exp)
    .sign(secret);
  const first = await verifier.verify(token);
  assert.deepEqual(first, { tenantId: 'demo', userId: 'u', name: 'u', email: null, role: 'admin' });
  first.tenantId = 'changed';
  assert.equal((await verifier.verify(token)).tenantId, 'demo', 'callers get copies');
  await new Promise((r) => setTimeout(r, exp * 1000 - Date.now() + 50));
  await assert.rejects(verifier.verify(token), JwtRejected);

  const other = await new SignJWT({ tenant_id: 'demo', role: 'owner' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('u')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('another-secret-of-at-least-32-bytes!!'));
  await assert.rejects(verifier.verify(other), JwtRejected);
  await assert.rejects(verifier.verify(other), JwtRejected);
});
