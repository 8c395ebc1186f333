// Reads side by side, fair between tenants (src/warehouse/read-lanes.ts and each engine's query()):
// one tenant's slow reads never hold another tenant's fast one. Asserted by order and overlap.
import assert from 'node:assert/strict';
import os from 'node:os';
import { test } from 'node:test';
import { ReadLanes } from '../../src/warehouse/read-lanes.ts';
import { DuckDbWarehouse } from '../../src/warehouse/duckdb/duckdb.ts';
import type { ReadOptions, Warehouse } from '../../src/warehouse/warehouse.ts';
import { buildTestApp, call } from '../helpers/app.ts';
import { clickhouseSkip, testClickHouseWarehouse } from '../helpers/clickhouse.ts';
import { postgresWarehouseUrl, testPostgresWarehouse, testWarehouse } from '../helpers/warehouse.ts';

/** A read that ends when told to, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  return { read: () => (log.push(`start ${name}`), done.then(() => log.push(`end ${name}`))), open };
}

test('a tenant holds at most all slots but one; waiting reads go out tenant by tenant, each in order', async () => {
  const lanes = new ReadLanes(3);
  const log: string[] = [];
  const a = [1, 2, 3, 4].map((i) => gate(log, `a${i}`));
  const runsA = a.map((g) => lanes.run('a', g.read));
  await Promise.resolve();
  assert.deepEqual(log, ['start a1', 'start a2'], 'tenant a alone takes size − 1 slots');
  const b = gate(log, 'b1');
  const runB = lanes.run('b', b.read);
  await Promise.resolve();
  assert.deepEqual(log.at(-1), 'start b1', "b's read starts at once on the slot a may not take");
  const c = gate(log, 'c1');
  const runC = lanes.run('c', c.read);
  a[0].open();
  await runsA[0];
  await new Promise((r) => setImmediate(r));
  // The freed slot goes to c (never served) before a's third read.
  assert.ok(log.indexOf('start c1') > log.indexOf('end a1') && !log.includes('start a3'), log.join(', '));
  for (const g of [b, c, ...a.slice(1)]) g.open();
  await Promise.all([runB, runC, ...runsA]);
  assert.ok(log.indexOf('start a3') < log.indexOf('start a4'), "a tenant's reads start in the order they came");
  assert.equal(lanes.queued, 0);
});

const SLOW = 'SELECT count(*) AS n FROM range(400000000) t(i) WHERE i % 7 = 3';
const FAST = 'SELECT 42 AS n';

/**
 * Tenant A floods the warehouse with slow reads, then tenant B asks a fast one: B's answer comes
 * before any of A's (`ahead`: before all but that many of A's, where the server itself runs one
 * query at a time), and never after A's reads that were still waiting.
 */
async function fastBesideSlow(
  query: (sql: string, tenant: string) => Promise<unknown>,
  slow: string,
  fast: string,
  floods: number,
  ahead = 0,
) {
  const done: string[] = [];
  const slowReads = Array.from({ length: floods }, (_, i) => query(slow, 'a').then(() => done.push(`a${i}`)));
  await new Promise((r) => setTimeout(r, 50));
  await query(fast, 'b');
  done.push('b');
  await Promise.all(slowReads);
  assert.ok(done.indexOf('b') <= ahead, `b's fast read answered before a's slow ones ended: ${done.join(', ')}`);
}

test("DuckDB: a slow read of tenant A does not delay tenant B's fast one (the pool's connections, A's turn capped)", async () => {
  const wh = await DuckDbWarehouse.open(':memory:', { memoryLimit: '256MB', threads: 2 });
  try {
    // More slow reads than connections: B still finds one.
    await fastBesideSlow((sql, tenant) => wh.query(sql, [], { tenant }), SLOW, FAST, 5);
  } finally {
    await wh.close();
  }
});

/**
 * Every read of a tenant's data a request makes names the caller's tenant (QueryRunner passes the
 * query's tenant along; nothing is taken from the request's context): executes of every kind,
 * semantic queries, a dimension's values, chat's spans and filter values. Reads that name no
 * tenant are the service's own (versions, rollup state) and carry no tenant's value.
 */
test("a request's warehouse reads take its caller's tenant's turn, and read only that tenant's rows", async () => {
  const inner = await testWarehouse(new Date());
  const seen: { sql: string; params: unknown[]; tenant?: string }[] = [];
  const recording = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver);
      return (sql: string, params: unknown[] = [], options: ReadOptions = {}) => {
        seen.push({ sql, params, tenant: options.tenant });
        return target.query(sql, params, options);
      };
    },
  }) as Warehouse;
  const t = await buildTestApp({ deps: { warehouse: recording } });
  try {
    const as = {
      demo: await t.login({ tenant: 'demo', user: 'd', role: 'member' }),
      acme: await t.login({ tenant: 'acme', user: 'a', role: 'member' }),
    };
    for (const [tenant, auth] of Object.entries(as)) {
      seen.length = 0;
      const requests: ['GET' | 'POST', string, unknown?][] = [
        ['GET', '/api/v1/insights/revenue/execute?granularity=month'],
        ['GET', '/api/v1/insights/customer_retention/execute'],
        ['GET', '/api/v1/insights/top_products/execute?limit=3'],
        ['POST', '/api/v1/query', { measures: ['orders.revenue'], dimensions: ['orders.country'] }],
        ['GET', '/api/v1/model/dimensions/orders.country/values'],
        ['POST', '/api/v1/ai/chat', { message: 'revenue by country' }],
      ];
      for (const [method, url, body] of requests) {
        const res = await call(t, auth, method, url, body);
        assert.equal(res.statusCode, 200, `${method} ${url}: ${res.body}`);
      }
      // The service's own tables are insights_*; every other read is of the tenants' data.
      const ofData = seen.filter((r) => !/insights_/.test(r.sql));
      assert.ok(ofData.length >= requests.length, `reads of the tenant's data: ${ofData.length}`);
      for (const r of ofData) {
        assert.equal(r.tenant, tenant, `read in ${tenant}'s turn: ${r.sql.slice(0, 120)}`);
        assert.ok(r.params.includes(tenant), `bound to ${tenant}'s rows: ${r.sql.slice(0, 120)}`);
        assert.ok(!r.params.includes(tenant === 'demo' ? 'acme' : 'demo'), `no other tenant's rows: ${r.sql.slice(0, 120)}`);
      }
    }
  } finally {
    await t.close();
  }
});

test("PostgreSQL: a slow read of tenant A does not delay tenant B's fast one", {
  skip: !postgresWarehouseUrl && 'no DATABASE_URL',
}, async () => {
  const wh = await testPostgresWarehouse(new Date(), 10);
  try {
    await fastBesideSlow((sql, tenant) => wh.query(sql, [], { tenant }), 'SELECT pg_sleep(1.5) AS n', FAST, 6);
  } finally {
    await wh.close();
  }
});

// The stand-in server (chdb) runs one query at a time, so B's read goes right after A's reads in
// flight (at most all slots but one: the cores), ahead of A's that wait; a real server runs them at once.
test("ClickHouse: tenant B's fast read does not wait behind tenant A's queued slow ones", { skip: clickhouseSkip }, async () => {
  const wh = await testClickHouseWarehouse(new Date(), 10);
  try {
    await fastBesideSlow(
      (sql, tenant) => wh.query(sql, [], { tenant }),
      'SELECT count() AS n FROM numbers(300000000) WHERE number % 7 = 3',
      FAST,
      6,
      os.cpus().length,
    );
  } finally {
    await wh.close();
  }
});

test('a prepared read sees the table as it is now, after it was dropped and made again with other columns', async () => {
  const wh = await DuckDbWarehouse.open(':memory:');
  try {
    await wh.exec('CREATE TABLE t AS SELECT 1 AS x');
    const read = () => wh.query('SELECT * FROM t');
    assert.deepEqual(await read(), [{ x: 1 }]);
    await wh.exec("DROP TABLE t; CREATE TABLE t AS SELECT 'two' AS y, 2 AS z");
    // Every connection of the pool may hold the earlier statement: ask more often than there are.
    for (let i = 0; i < 6; i++) assert.deepEqual(await read(), [{ y: 'two', z: 2 }]);
    assert.deepEqual(await wh.query('SELECT $1::INTEGER + 1 AS n', [41]), [{ n: 42 }]);
    assert.deepEqual(await wh.query('SELECT $1::INTEGER + 1 AS n', [1]), [{ n: 2 }], 'the same text with other parameters');
  } finally {
    await wh.close();
  }
});
