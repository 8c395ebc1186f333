// Moving to ClickHouse from the command line, as docs/clickhouse.md tells it: the same commands as
// on DuckDB with WAREHOUSE_URL=clickhouse://… set (real processes, over HTTP to the chdb-backed
// server): the demo seeded and its rollups built, files loaded per tenant, a bad row refused.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ClickHouseWarehouse } from '../../../src/warehouse/clickhouse/clickhouse.ts';
import { clickHouseStandIn } from '../../fakes/clickhouse-server.ts';
import { clickhouseSkip } from '../../helpers/clickhouse.ts';
import { EMBEDDED_ONLY, migratedDataDir, runCli } from '../../helpers/process.ts';

test('demo seed, data load (append, replace, a bad row) and rollups status on a ClickHouse WAREHOUSE_URL', {
  skip: clickhouseSkip || EMBEDDED_ONLY,
}, async () => {
  const server = await clickHouseStandIn();
  const url = (await server.urlFor(`cli_${process.pid}`)).replace('clickhouse://default@', 'clickhouse://insights:s3cret@');
  const dir = await migratedDataDir('insights-ch-cli-');
  const env = { INSIGHTS_DATA_DIR: dir, WAREHOUSE_URL: url };
  const warehouse = new ClickHouseWarehouse(url);
  try {
    const seeded = await runCli(['demo', 'seed', '--rows', '900'], env, 180_000);
    assert.equal(seeded.code, 0, seeded.stderr);
    assert.match(seeded.stdout, /Seeded 900 orders \(demo: 540, acme: 360\) into the clickhouse warehouse/);
    assert.match(seeded.stdout, /Rollup orders\.daily: built in [\d.]+ s\./);
    assert.deepEqual(await warehouse.query('SELECT count() AS n FROM orders'), [{ n: 900 }]);
    assert.ok(!fs.existsSync(path.join(dir, 'warehouse.duckdb')), 'no DuckDB file: the warehouse is ClickHouse');
    const status = await runCli(['rollups', 'status'], env, 60_000);
    assert.equal(status.code, 0, status.stderr);
    assert.match(
      status.stdout,
      /^orders\.daily \("insights_rollups"\."orders__daily", day, partitions by month\)\n {2}acme: [\d,]+ rows, built \S+, current\n {2}demo: [\d,]+ rows, built \S+, current\n/,
    );

    const load = (file: string, content: string, tenant: string, mode = 'append') => {
      fs.writeFileSync(path.join(dir, file), content);
      return runCli(['data', 'load', '--table', 'plans', '--file', path.join(dir, file), '--tenant', tenant, '--mode', mode], env, 120_000);
    };
    const first = await load('a.csv', 'plan,price,since\nbasic,10,2026-01-01\npro,99.5,2026-02-01\n', 'demo');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /Loaded 2 rows .* into plans for tenant demo \(append, table created\) in the clickhouse warehouse/);
    assert.equal((await load('b.csv', 'plan,price,since\nteam,300,2026-03-01\n', 'acme')).code, 0);
    assert.equal((await load('c.csv', 'since,plan,price\n2026-04-01,solo,5\n', 'demo', 'replace')).code, 0);
    const bad = await load('d.csv', 'plan,price,since\nx,1,2026-01-01\ny,cheap,2026-01-01\n', 'acme', 'replace');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /Line 3, column price: "cheap" is not a valid DOUBLE/);
    // A header as another tool exports it (vega-datasets' birdstrikes.csv): spaces, capitals, a $.
    // Before: the INSERT named the columns unquoted, a ClickHouse syntax error and a stack trace.
    // Its 14 years of strikes are 168 monthly partitions, over ClickHouse's 100 per INSERT by default.
    const months = Array.from(
      { length: 168 },
      (_, m) => `DENVER INTL,${m},${1990 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}-05 10:00:00`,
    );
    fs.writeFileSync(path.join(dir, 'strikes.csv'), `Airport Name,Cost Total $,Flight Date\n${months.join('\n')}\n`);
    const strikes = await runCli(
      ['data', 'load', '--table', 'strikes', '--file', path.join(dir, 'strikes.csv'), '--tenant', 'demo'],
      env,
      120_000,
    );
    assert.equal(strikes.code, 0, strikes.stderr);
    assert.match(strikes.stderr, /Sending to ClickHouse/, 'the progress names the warehouse it sends to');
    assert.deepEqual(
      await warehouse.query('SELECT count() AS n, sum("Cost Total $") AS c, uniqExact(toYYYYMM("Flight Date")) AS m FROM strikes'),
      [{ n: 168, c: 14028, m: 168 }],
    );
    const rows = await warehouse.query(`SELECT tenant_id, plan, price, toString(since) AS since FROM plans ORDER BY tenant_id, plan`);
    assert.deepEqual(rows, [
      { tenant_id: 'acme', plan: 'team', price: 300, since: '2026-03-01' },
      { tenant_id: 'demo', plan: 'solo', price: 5, since: '2026-04-01' },
    ]);
  } finally {
    await warehouse.exec(`DROP DATABASE IF EXISTS cli_${process.pid}`).catch(() => {});
    await warehouse.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
