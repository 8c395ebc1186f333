// The ClickHouse warehouse: the DDL it issues on one server and on a cluster (exact SQL), and, on
// the chdb-backed server over real HTTP, start-up errors naming their setting, values sent apart
// from the SQL, the tables it lists and the settings every request carries.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../../src/config/index.ts';
import { StartupError } from '../../../src/lib/startup.ts';
import { clickhouseWarehouseDdl, createTable, DEMO_TABLES, deleteRows, splitStatements } from '../../../src/warehouse/clickhouse/ddl.ts';
import { clickhouseRollupDdl } from '../../../src/warehouse/clickhouse/rollups.ts';
import type { ClickHouseWarehouse } from '../../../src/warehouse/clickhouse/clickhouse.ts';
import { openWarehouse } from '../../../src/warehouse/open.ts';
import { clickHouseStandIn } from '../../fakes/clickhouse-server.ts';
import { clickhouseSkip, testClickHouseWarehouse } from '../../helpers/clickhouse.ts';

const orders = DEMO_TABLES.find((t) => t.name === 'orders')!;
const ORDER_COLUMNS =
  '("order_id" Int64, "tenant_id" LowCardinality(String), "customer_id" Int64, "ordered_at" DateTime64(6), "country" LowCardinality(String), ' +
  '"channel" LowCardinality(String), "status" LowCardinality(String), ' +
  '"items" Int32, "revenue" Decimal(12, 2), "discount" Decimal(12, 2))';

test('one server: MergeTree ordered by (tenant, time), partitioned by month', () => {
  assert.deepEqual(createTable({ database: 'shop' }, orders), [
    `CREATE TABLE IF NOT EXISTS "orders" ${ORDER_COLUMNS} ENGINE = MergeTree PARTITION BY toYYYYMM("ordered_at") ORDER BY ("tenant_id", "ordered_at")`,
  ]);
  assert.equal(deleteRows({ database: 'shop' }, 'orders', `tenant_id = $1`), `DELETE FROM "orders" WHERE tenant_id = $1`);
  // A table without a time column is not partitioned.
  assert.match(
    clickhouseWarehouseDdl({ database: 'shop' }).find((s) => s.includes('"products"'))!,
    /ENGINE = MergeTree ORDER BY \("tenant_id", "product_id"\)$/,
  );
});

test('a cluster: every statement ON CLUSTER, ReplicatedMergeTree shards behind a Distributed table sharded by the tenant', async () => {
  const t = { database: 'shop', cluster: 'analytics' };
  assert.deepEqual(createTable(t, orders), [
    `CREATE TABLE IF NOT EXISTS "orders_local" ON CLUSTER "analytics" ${ORDER_COLUMNS} ` +
      `ENGINE = ReplicatedMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}') PARTITION BY toYYYYMM("ordered_at") ORDER BY ("tenant_id", "ordered_at")`,
    `CREATE TABLE IF NOT EXISTS "orders" ON CLUSTER "analytics" AS "orders_local" ENGINE = Distributed("analytics", "shop", "orders_local", cityHash64("tenant_id"))`,
  ]);
  // Deletes go to the shards' local tables (a Distributed table takes none).
  assert.equal(deleteRows(t, 'orders', `tenant_id = $1`), `DELETE FROM "orders_local" ON CLUSTER "analytics" WHERE tenant_id = $1`);
  // Every DDL statement of the warehouse is ON CLUSTER.
  for (const sql of clickhouseWarehouseDdl(t)) assert.match(sql, /^CREATE TABLE IF NOT EXISTS "\w+" ON CLUSTER "analytics" /);

  // Rollups: built aside on every shard, swapped in with EXCHANGE TABLES on every replica.
  const ddl = clickhouseRollupDdl(t);
  const select = 'SELECT "orders"."tenant_id" AS "__tenant", … FROM "orders" WHERE … GROUP BY 1, 2';
  assert.deepEqual(
    (await ddl.createAs('"insights_rollups"."orders__daily__building"', select, ['1970-01-01', '1970-01-01'])).map((s) => s.sql),
    [
      `CREATE TABLE "insights_rollups__orders__daily__building_local" ON CLUSTER "analytics" ENGINE = ReplicatedMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}') ` +
        `ORDER BY ("__tenant", "__bucket") SETTINGS allow_nullable_key = 1 EMPTY AS ${select}`,
      `CREATE TABLE "insights_rollups__orders__daily__building" ON CLUSTER "analytics" AS "insights_rollups__orders__daily__building_local" ` +
        `ENGINE = Distributed("analytics", "shop", "insights_rollups__orders__daily__building_local", cityHash64("__tenant"))`,
      `INSERT INTO "insights_rollups__orders__daily__building" ${select}`,
    ],
  );
  const swap = ddl
    .replace('"insights_rollups"."orders__daily__building"', '"insights_rollups"."orders__daily"', '"orders__daily"', select, [])
    .map((s) => s.sql);
  assert.deepEqual(swap.slice(2), [
    `EXCHANGE TABLES "insights_rollups__orders__daily__building_local" AND "insights_rollups__orders__daily_local" ON CLUSTER "analytics"`,
    `DROP TABLE IF EXISTS "insights_rollups__orders__daily__building" ON CLUSTER "analytics" SYNC`,
    `DROP TABLE IF EXISTS "insights_rollups__orders__daily__building_local" ON CLUSTER "analytics" SYNC`,
  ]);
  assert.equal(
    ddl.delete('"insights_rollups"."orders__daily"', '"__tenant" = $1', ['demo']).sql,
    `DELETE FROM "insights_rollups__orders__daily_local" ON CLUSTER "analytics" WHERE "__tenant" = $1`,
  );
});

test('scripts split into statements outside quotes and comments', () => {
  assert.deepEqual(splitStatements(`SELECT ';'; -- a; comment\nSELECT "a;b" /* ; */; ;`), [`SELECT ';'`, `SELECT "a;b"`]);
});

test('INSIGHTS_CLICKHOUSE_CLUSTER needs a ClickHouse WAREHOUSE_URL', () => {
  assert.throws(() => loadConfig({ INSIGHTS_CLICKHOUSE_CLUSTER: 'analytics' }), /INSIGHTS_CLICKHOUSE_CLUSTER needs WAREHOUSE_URL/);
  assert.throws(
    () => loadConfig({ WAREHOUSE_URL: 'postgres://h/db', INSIGHTS_CLICKHOUSE_CLUSTER: 'analytics' }),
    /INSIGHTS_CLICKHOUSE_CLUSTER/,
  );
  assert.throws(
    () => loadConfig({ WAREHOUSE_URL: 'clickhouse://h:8123/db', INSIGHTS_CLICKHOUSE_CLUSTER: 'a b' }),
    /INSIGHTS_CLICKHOUSE_CLUSTER must be a cluster name/,
  );
  assert.equal(
    loadConfig({ WAREHOUSE_URL: 'clickhouse://h:8123/db', INSIGHTS_CLICKHOUSE_CLUSTER: 'analytics' }).clickhouseCluster,
    'analytics',
  );
});

test('an unreachable ClickHouse is a start-up error naming WAREHOUSE_URL, without the password', async () => {
  const err = await openWarehouse(loadConfig({ WAREHOUSE_URL: 'clickhouse://insights:s3cret@127.0.0.1:1/shop' })).catch((e: Error) => e);
  assert.ok(err instanceof StartupError);
  assert.equal(err.message, 'WAREHOUSE_URL: cannot use the database at 127.0.0.1:1/shop: connection refused');
});

describe('ClickHouse over HTTP', { skip: clickhouseSkip }, () => {
  let warehouse: ClickHouseWarehouse;
  before(async () => {
    warehouse = await testClickHouseWarehouse(new Date('2026-03-31T12:00:00Z'), 500);
  });
  after(async () => warehouse?.close());

  test('a wrong password, an unknown database, an unknown cluster: one line naming the setting', async () => {
    const server = await clickHouseStandIn();
    const at = new URL(await server.urlFor('startup_ok')).host;
    const open = (env: Record<string, string>) =>
      openWarehouse(loadConfig(env)).then(
        async (w) => (await w.close(), undefined),
        (e: Error) => e,
      );
    const wrong = await open({ WAREHOUSE_URL: `clickhouse://insights:nope@${at}/startup_ok` });
    assert.ok(wrong instanceof StartupError);
    assert.match(wrong.message, new RegExp(`^WAREHOUSE_URL: cannot use the database at ${at}/startup_ok: insights: Authentication failed`));
    assert.doesNotMatch(wrong.message, /nope/);
    assert.match(
      String(await open({ WAREHOUSE_URL: `clickhouse://insights:s3cret@${at}/no_such_db` })),
      /WAREHOUSE_URL: .*Database no_such_db does not exist/,
    );
    const cluster = await open({
      WAREHOUSE_URL: `clickhouse://insights:s3cret@${at}/startup_ok`,
      INSIGHTS_CLICKHOUSE_CLUSTER: 'analytics',
    });
    assert.equal(
      (cluster as Error).message,
      `INSIGHTS_CLICKHOUSE_CLUSTER: the ClickHouse server at ${at}/startup_ok knows no cluster "analytics" (see system.clusters)`,
    );
    // The right credentials open it and create the tables.
    assert.equal(await open({ WAREHOUSE_URL: `clickhouse://insights:s3cret@${at}/startup_ok` }), undefined);
  });

  test('values travel as param_pN beside the SQL, settings as URL parameters', async () => {
    const server = await clickHouseStandIn();
    const evil = "DE' OR 1=1 --";
    const before = server.requests.length;
    assert.deepEqual(await warehouse.query('SELECT count(*) AS n FROM orders WHERE country = $1', [evil]), [{ n: 0 }]);
    const sent = server.requests.slice(before).find((r) => r.query.includes('FROM orders'))!;
    assert.ok(!sent.query.includes(evil) && sent.query.includes('{p1:String}'), sent.query);
    assert.equal(sent.params.p1, "DE\\' OR 1=1 --");
    assert.equal(sent.settings.join_use_nulls, '1');
    assert.equal(sent.settings.session_timezone, 'UTC');
  });

  test("a tenant's data version costs one request, and a load's new version row is read", async () => {
    const server = await clickHouseStandIn();
    const seeded = await warehouse.version();
    assert.ok(seeded);
    // A write of this process forgets the memo; the next read is one request for both versions.
    await warehouse.query(`INSERT INTO warehouse_tenant_versions VALUES ('acme', 'v1', now64(6) - 1), ('acme', 'v2', now64(6))`);
    const before = server.requests.length;
    assert.equal(await warehouse.version('acme'), `${seeded}/v2`);
    assert.equal(server.requests.length - before, 1);
    assert.equal(await warehouse.version('demo'), `${seeded}/`);
    assert.equal(server.requests.length - before, 2);
    // Within the memo's 2 s: no request at all.
    assert.equal(await warehouse.version('acme'), `${seeded}/v2`);
    assert.equal(server.requests.length - before, 2);
    await warehouse.query(`DELETE FROM warehouse_tenant_versions WHERE tenant_id = 'acme'`);
    assert.equal(await warehouse.version('acme'), `${seeded}/`);
  });

  test('tables lists the tenant tables with canonical types; numbers, dates and timestamps read as on the other engines', async () => {
    const tables = await warehouse.tables();
    assert.deepEqual(tables.map((t) => t.name).sort(), ['customers', 'order_items', 'orders', 'products', 'web_sessions']);
    assert.deepEqual(tables.find((t) => t.name === 'orders')!.columns.slice(2, 4), [
      { name: 'ordered_at', type: 'TIMESTAMP' },
      { name: 'country', type: 'VARCHAR' },
    ]);
    const [row] = await warehouse.query(
      `SELECT count(*) AS n, sum(revenue) AS r, min(ordered_at) AS t, toDate32('2026-01-02') AS d, sum(revenue) FILTER (WHERE 1 = 0) AS none FROM orders WHERE tenant_id = $1`,
      ['demo'],
    );
    assert.equal(typeof row.n, 'number');
    assert.equal(typeof row.r, 'number');
    assert.match(String(row.t), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(row.d, '2026-01-02');
    assert.equal(row.none, null, 'an empty sum is NULL');
  });
});
