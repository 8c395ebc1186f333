// The data API on a PostgreSQL warehouse (COPY … FROM STDIN), in a schema of its own on the local
// server: WAREHOUSE_TEST_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { test } from 'node:test';
import { ROOT, childEnv } from '../../helpers/process.ts';
import { testPostgresWarehouse } from '../../helpers/warehouse.ts';
import { cancelledLoadTest, dataApiTests } from './support.ts';

const url = process.env.WAREHOUSE_TEST_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

const unreachable = await reachable();
if (unreachable) {
  console.log(`# skipped: no PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//')} (${unreachable})`);
  test('the data API on PostgreSQL', { skip: `no PostgreSQL reachable: ${unreachable}` }, () => {});
} else {
  dataApiTests((now) => testPostgresWarehouse(now, 600, undefined, url), { INSIGHTS_DATA_MAX_BYTES: '2000' });
  cancelledLoadTest('PostgreSQL', (now) => testPostgresWarehouse(now, 600, undefined, url));

  test('insights data load into WAREHOUSE_URL: COPY, append and replace per tenant, a bad row refused', async () => {
    const schema = `wh_cli_${Math.random().toString(16).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-data-pg-'));
    const warehouseUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const load = (file: string, content: string, tenant: string, mode = 'append') => {
      fs.writeFileSync(path.join(dir, file), content);
      const env = { ...childEnv({ INSIGHTS_DATA_DIR: dir }), WAREHOUSE_URL: warehouseUrl };
      return spawnSync(
        process.execPath,
        [
          path.join(ROOT, 'bin/insights.js'),
          'data',
          'load',
          '--table',
          'plans',
          '--file',
          path.join(dir, file),
          '--tenant',
          tenant,
          '--mode',
          mode,
        ],
        { cwd: ROOT, env, encoding: 'utf8' },
      );
    };
    try {
      const first = load('a.csv', 'plan,price,since\nbasic,10,2026-01-01\npro,99.5,2026-02-01\n', 'demo');
      assert.equal(first.status, 0, first.stderr);
      assert.match(first.stdout, /Loaded 2 rows .* into plans for tenant demo \(append, table created\) in the postgres warehouse/);
      assert.equal(load('b.csv', 'plan,price,since\nteam,300,2026-03-01\n', 'acme').status, 0);
      const replaced = load('c.csv', 'since,plan,price\n2026-04-01,solo,5\n', 'demo', 'replace');
      assert.equal(replaced.status, 0, replaced.stderr);
      const bad = load('d.csv', 'plan,price,since\nx,1,2026-01-01\ny,cheap,2026-01-01\n', 'acme', 'replace');
      assert.equal(bad.status, 1);
      assert.match(bad.stderr, /Line 3, column price: "cheap" is not a valid DOUBLE/);
      const { rows } = await admin.query(
        `SELECT tenant_id, plan, price::float8 AS price, since::text AS since FROM ${schema}.plans ORDER BY tenant_id, plan`,
      );
      assert.deepEqual(rows, [
        { tenant_id: 'acme', plan: 'team', price: 300, since: '2026-03-01' },
        { tenant_id: 'demo', plan: 'solo', price: 5, since: '2026-04-01' },
      ]);
      const { rows: types } = await admin.query(
        `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'plans' ORDER BY ordinal_position`,
        [schema],
      );
      assert.deepEqual(
        types.map((r) => `${r.column_name} ${r.data_type}`),
        ['plan text', 'price double precision', 'since date', 'tenant_id text'],
      );
    } finally {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
