// The embedded warehouse's memory ceiling and threads: defaults that keep the footprint small, and
// a clear refusal naming the setting for anything DuckDB would misread.
import assert from 'node:assert/strict';
import os from 'node:os';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/index.ts';
import { DuckDbWarehouse } from '../../src/warehouse/duckdb/duckdb.ts';

test('defaults: 128MB and at most 4 threads', () => {
  const { duckdb } = loadConfig({});
  assert.equal(duckdb.memoryLimit, '128MB');
  assert.equal(duckdb.threads, Math.min(4, os.availableParallelism()));
});

test('the burst ceiling: 1GB by default, the ordinary one where that is higher, never below it', () => {
  assert.equal(loadConfig({}).duckdb.memoryBurst, '1GB');
  assert.equal(loadConfig({ INSIGHTS_DUCKDB_MEMORY_LIMIT: '2GB' }).duckdb.memoryBurst, '2GB');
  assert.equal(loadConfig({ INSIGHTS_DUCKDB_MEMORY_BURST: '4GB' }).duckdb.memoryBurst, '4GB');
  assert.equal(loadConfig({ INSIGHTS_DUCKDB_MEMORY_BURST: '128MB' }).duckdb.memoryBurst, '128MB');
  // Equal sizes written differently are no burst: the warehouse then does not try a second time.
  const same = loadConfig({ INSIGHTS_DUCKDB_MEMORY_LIMIT: '1GB', INSIGHTS_DUCKDB_MEMORY_BURST: '1024MB' }).duckdb;
  assert.equal(same.memoryBurst, same.memoryLimit);
  assert.throws(
    () => loadConfig({ INSIGHTS_DUCKDB_MEMORY_LIMIT: '512MB', INSIGHTS_DUCKDB_MEMORY_BURST: '256MB' }),
    (err: Error) =>
      err instanceof ConfigError && /INSIGHTS_DUCKDB_MEMORY_BURST.*at least INSIGHTS_DUCKDB_MEMORY_LIMIT \(512MB\)/.test(err.message),
  );
  assert.throws(
    () => loadConfig({ INSIGHTS_DUCKDB_MEMORY_BURST: 'more' }),
    (err: Error) => err instanceof ConfigError && /INSIGHTS_DUCKDB_MEMORY_BURST/.test(err.message),
  );
});

test('sizes in DuckDB syntax are accepted, anything else names the setting', () => {
  assert.equal(loadConfig({ INSIGHTS_DUCKDB_MEMORY_LIMIT: '1GB' }).duckdb.memoryLimit, '1GB');
  assert.equal(loadConfig({ INSIGHTS_DUCKDB_MEMORY_LIMIT: '512 MiB' }).duckdb.memoryLimit, '512MiB');
  assert.equal(loadConfig({ INSIGHTS_DUCKDB_THREADS: '1' }).duckdb.threads, 1);
  for (const bad of ['50%', 'lots', '256', '-1GB', '16MB']) {
    assert.throws(
      () => loadConfig({ INSIGHTS_DUCKDB_MEMORY_LIMIT: bad }),
      (err: Error) => err instanceof ConfigError && /INSIGHTS_DUCKDB_MEMORY_LIMIT/.test(err.message),
      bad,
    );
  }
  for (const bad of ['0', 'two', '1.5', '1000']) {
    assert.throws(
      () => loadConfig({ INSIGHTS_DUCKDB_THREADS: bad }),
      (err: Error) => err instanceof ConfigError && /INSIGHTS_DUCKDB_THREADS/.test(err.message),
      bad,
    );
  }
});

test('the warehouse opens with the configured ceiling and threads', async () => {
  const wh = await DuckDbWarehouse.open(
    ':memory:',
    loadConfig({ INSIGHTS_DUCKDB_MEMORY_LIMIT: '100MiB', INSIGHTS_DUCKDB_THREADS: '1' }).duckdb,
  );
  try {
    const rows = await wh.query("SELECT name, value FROM duckdb_settings() WHERE name IN ('memory_limit', 'threads') ORDER BY name");
    assert.deepEqual(rows, [
      { name: 'memory_limit', value: '100.0 MiB' },
      { name: 'threads', value: '1' },
    ]);
  } finally {
    await wh.close();
  }
});

test('reads at once: the thread pool libuv gives DuckDB but four, never fewer than its threads + 1', () => {
  const threads = Math.min(4, os.availableParallelism());
  // Node's own pool of four: as many as before, DuckDB's threads + 1.
  assert.equal(loadConfig({}).duckdb.readers, threads + 1);
  assert.equal(loadConfig({ UV_THREADPOOL_SIZE: '20' }).duckdb.readers, Math.max(threads + 1, 16));
  assert.equal(loadConfig({ UV_THREADPOOL_SIZE: '20', INSIGHTS_DUCKDB_THREADS: '1' }).duckdb.readers, 16);
  assert.equal(loadConfig({ UV_THREADPOOL_SIZE: '1024' }).duckdb.readers, 32);
  // What node itself would not take leaves node's default.
  assert.equal(loadConfig({ UV_THREADPOOL_SIZE: 'many' }).duckdb.readers, threads + 1);
});
