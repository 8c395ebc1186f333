// `insights rollups build` and `status` as real processes on a warehouse holding rows no rollup
// can bucket (committed by an older version): the build succeeds for the other tenants and both
// commands name the tenant left out and why (docs/rollups.md, "When a rollup cannot be built").
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import { EMBEDDED_ONLY, migratedDataDir, runCli, seedTinyWarehouse } from '../../helpers/process.ts';

test('rollups build leaves out a tenant with times of year 1 and 9999, and rollups status reports it', {
  skip: EMBEDDED_ONLY,
}, async () => {
  const dir = await migratedDataDir('insights-rollups-cli-');
  try {
    await seedTinyWarehouse(dir);
    const warehouse = await DuckDbWarehouse.open(path.join(dir, 'warehouse.duckdb'));
    await warehouse.exec(`INSERT INTO orders VALUES
      (99100001, 'far', 1, TIMESTAMP '9999-12-31 23:00:00', 'DE', 'web', 'completed', 1, 10.00, 0),
      (99100002, 'far', 1, TIMESTAMP '0001-01-01 00:00:00', 'DE', 'web', 'completed', 1, 20.00, 0)`);
    await warehouse.close();
    const build = await runCli(['rollups', 'build'], { INSIGHTS_DATA_DIR: dir });
    // Before: RangeError: Invalid time value, exit 1, no rollup built for anyone.
    assert.equal(build.code, 0, build.stderr);
    assert.match(
      build.stdout,
      /orders\.daily: built for 2 tenants in [\d.]+ s\n {2}far: left out, rows outside 1900-01-01…2200-12-31 \(earliest 0001-01-01, latest 9999-12-31\)/,
    );
    const status = await runCli(['rollups', 'status'], { INSIGHTS_DATA_DIR: dir });
    assert.equal(status.code, 0, status.stderr);
    assert.match(
      status.stdout,
      / {2}acme: [\d,]+ rows, built \S+, current\n {2}demo: [\d,]+ rows, built \S+, current\n {2}far: problem \(1 attempt, last \S+\): rows outside/,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
