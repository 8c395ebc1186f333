// API tokens are answered from memory once verified (tokens.cache.ts), and every change to
// api_tokens empties that memory at once: through the API, by hand in SQL, and on PostgreSQL from
// another instance sharing the database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { buildApp } from '../../src/app.ts';
import type { Db } from '../../src/db/index.ts';
import { PostgresDb } from '../../src/db/postgres.ts';
import { loadConfig } from '../../src/config/index.ts';
import { SecretBox } from '../../src/lib/secrets.ts';
import { buildTestApp, call, JWT_SECRET, type TestApp } from '../helpers/app.ts';
import { freshDb, usingPostgres } from '../helpers/db.ts';
import { testWarehouse } from '../helpers/warehouse.ts';

/** Counts the token lookups the app sends to its database. */
function countingLookups(db: Db): { count: () => number } {
  let n = 0;
  const query = db.query.bind(db);
  db.query = ((sql: string, params?: unknown[]) => {
    if (sql.includes('FROM api_tokens WHERE token_hash')) n++;
    return query(sql, params);
  }) as Db['query'];
  return { count: () => n };
}

/**
 * The status of the first request answered after a change to api_tokens has been announced. PGlite
 * announces before the statement returns: the very next request must see it. PostgreSQL delivers
 * the announcement to the listening connection right after the commit, a network hop later: the
 * request is repeated (letting the event loop read the socket) for up to 2 s.
 */
async function statusAfterChange(get: () => Promise<{ statusCode: number }>): Promise<number> {
  let status = (await get()).statusCode;
  const until = Date.now() + 2000;
  while (usingPostgres && status === 200 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 5));
    status = (await get()).statusCode;
  }
  return status;
}

describe('verified API tokens in memory', () => {
  let t: TestApp;
  let lookups: { count: () => number };
  before(async () => {
    t = await buildTestApp();
    lookups = countingLookups(t.db);
  });
  after(() => t.close());

  test('a token is looked up once, then answered from memory', async () => {
    const auth = await t.login({ tenant: 'acme', user: 'mia', role: 'member' });
    const before = lookups.count();
    for (let i = 0; i < 5; i++) assert.equal((await call(t, auth, 'GET', '/api/v1/insights')).statusCode, 200);
    assert.equal(lookups.count() - before, 1);
  });

  test('unknown tokens are not remembered', async () => {
    const before = lookups.count();
    for (let i = 0; i < 3; i++) assert.equal((await call(t, 'Svc ins_unknown', 'GET', '/api/v1/insights')).statusCode, 401);
    assert.equal(lookups.count() - before, 3);
  });

  test('a token revoked by hand in SQL stops working at once', async () => {
    const auth = await t.login({ tenant: 'acme', user: 'max', role: 'member' });
    assert.equal((await call(t, auth, 'GET', '/api/v1/insights')).statusCode, 200);
    await t.db.query("UPDATE api_tokens SET revoked_at = now() WHERE user_id = 'max'");
    assert.equal(await statusAfterChange(() => call(t, auth, 'GET', '/api/v1/insights')), 401);
  });

  test('a token deleted by hand stops working at once', async () => {
    const auth = await t.login({ tenant: 'acme', user: 'del', role: 'member' });
    assert.equal((await call(t, auth, 'GET', '/api/v1/insights')).statusCode, 200);
    await t.db.query("DELETE FROM api_tokens WHERE user_id = 'del'");
    assert.equal(await statusAfterChange(() => call(t, auth, 'GET', '/api/v1/insights')), 401);
  });

  test('a token revoked through the API stops working at once', async () => {
    const owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    const created = await call(t, owner, 'POST', '/api/v1/auth/tokens', { name: 'ci', user_id: 'ci', role: 'member' });
    const member = `Svc ${created.data.token}`;
    assert.equal((await call(t, member, 'GET', '/api/v1/insights')).statusCode, 200);
    assert.equal((await call(t, owner, 'DELETE', `/api/v1/auth/tokens/${created.data.id}`)).statusCode, 204);
    assert.equal((await call(t, member, 'GET', '/api/v1/insights')).statusCode, 401);
  });
});

describe('two instances on one PostgreSQL', { skip: !usingPostgres && 'needs DATABASE_URL' }, () => {
  test('a revocation on one instance stops the token on the other at once', async () => {
    const { db, schema, close } = await freshDb();
    const url = process.env.DATABASE_URL!;
    const other = new PostgresDb(url, { schema, max: 2 });
    const config = loadConfig({ INSIGHTS_DATA_DIR: '/nonexistent-test-data-dir', INSIGHTS_JWT_SECRET: JWT_SECRET });
    const warehouse = await testWarehouse(new Date());
    const deps = { config, clock: { now: () => new Date() }, secrets: new SecretBox(crypto.randomBytes(32)), logger: false, warehouse };
    const a = await buildApp({ ...deps, db });
    const b = await buildApp({ ...deps, db: other });
    try {
      const { token, view } = await a.services.tokens.create({ tenantId: 'acme', name: 'x', userId: 'eve', role: 'member' });
      const get = (app: typeof a) => app.inject({ method: 'GET', url: '/api/v1/insights', headers: { authorization: `Svc ${token}` } });
      assert.equal((await get(a)).statusCode, 200);
      assert.equal((await get(b)).statusCode, 200);
      const lookups = countingLookups(other);
      assert.equal((await get(b)).statusCode, 200);
      assert.equal(lookups.count(), 0, 'instance b answers from memory');
      // Revoked through instance a: the announcement reaches b as the revocation commits.
      assert.equal(await a.services.tokens.revoke(view.id), true);
      assert.equal(await statusAfterChange(() => get(b)), 401);
      assert.ok(lookups.count() >= 1, 'instance b looked the token up again');
    } finally {
      await a.close();
      await b.close();
      await other.close();
      await warehouse.close();
      await close();
    }
  });
});
