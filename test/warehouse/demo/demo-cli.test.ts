// `insights demo seed` as a real process: fills an empty warehouse (migrating first), refuses
// clearly while another process holds the data dir, and re-seeds only the tenants it is given.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { lockDataDir } from '../../../src/db/lock.ts';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import { EMBEDDED_ONLY, migratedDataDir, runCli } from '../../helpers/process.ts';

test('demo seed into an empty warehouse, refusal under the lock, per-tenant re-seed', { skip: EMBEDDED_ONLY }, async () => {
  // Migrated from the PGlite test template (initdb costs seconds) when there is one; the command
  // migrates first either way (its child process always uses the embedded database).
  const dir = await migratedDataDir('insights-demo-');
  try {
    const first = await runCli(['demo', 'seed', '--rows', '900'], { INSIGHTS_DATA_DIR: dir });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /Seeded 900 orders \(demo: 540, acme: 360\) into the duckdb warehouse/);
    assert.match(
      first.stdout,
      /Rollup orders\.daily: built in [\d.]+ s\.\nRollup order_items\.daily_by_product: built in [\d.]+ s\./,
      'a seed rebuilds the rollups',
    );
    assert.ok(fs.existsSync(path.join(dir, 'warehouse.duckdb')));
    const status = await runCli(['rollups', 'status'], { INSIGHTS_DATA_DIR: dir });
    assert.equal(status.code, 0, status.stderr);
    assert.match(
      status.stdout,
      /^orders\.daily \("insights_rollups"\."orders__daily", day, partitions by month\)\n {2}acme: [\d,]+ rows, built \S+, current\n {2}demo: [\d,]+ rows, built \S+, current\n/,
    );
    const unknown = await runCli(['rollups', 'build', '--rollup', 'nope'], { INSIGHTS_DATA_DIR: dir });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /the model has no rollup nope \(it has: orders\.daily, order_items\.daily_by_product\)/);

    // Another process holds the data dir (as a running server does).
    const lock = lockDataDir(dir);
    try {
      const refused = await runCli(['demo', 'seed'], { INSIGHTS_DATA_DIR: dir });
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /in use by another process \(pid \d+\)/);
    } finally {
      lock.release();
    }

    const again = await runCli(['demo', 'seed', '--rows', '120', '--tenants', 'demo'], { INSIGHTS_DATA_DIR: dir });
    assert.equal(again.code, 0, again.stderr);
    const rebuilt = await runCli(['rollups', 'build', '--rollup', 'orders.daily'], { INSIGHTS_DATA_DIR: dir });
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.match(rebuilt.stdout, /^orders\.daily: built for 2 tenants in [\d.]+ s\n$/);
    const wh = await DuckDbWarehouse.open(path.join(dir, 'warehouse.duckdb'));
    try {
      const counts = await wh.query('SELECT tenant_id, count(*) AS n FROM orders GROUP BY 1 ORDER BY 1');
      assert.deepEqual(counts, [
        { tenant_id: 'acme', n: 360 },
        { tenant_id: 'demo', n: 120 },
      ]);
      const [span] = await wh.query(
        "SELECT CAST(max(ordered_at) AS DATE) - CAST(min(ordered_at) AS DATE) AS days FROM orders WHERE tenant_id = 'acme'",
      );
      assert.ok(Number(span.days) > 600, 'two years of data');
    } finally {
      await wh.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
