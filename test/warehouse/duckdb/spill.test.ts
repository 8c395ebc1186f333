// Where an in-memory DuckDB spills: a folder of its own in the process's temp directory,
// removed at close; never `.tmp` in the working directory (DuckDB's default), where CI's container
// build once read a spill file while the PostgreSQL pass was writing it (docs/footprint.md).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import { withStagingReader } from '../../../src/warehouse/load/prepare.ts';
import { processTempDir } from '../../../src/lib/temp-dir.ts';

// Sorting a few million wide rows under a 64 MB limit has to spill.
const SPILLING = 'SELECT count(*) AS n FROM (SELECT i, md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS s FROM range(3000000) t(i) ORDER BY s)';

function inTempCwd<T>(work: (cwd: string) => Promise<T>): Promise<T> {
  const before = process.cwd();
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'spill-cwd-'));
  process.chdir(cwd);
  return work(cwd).finally(() => {
    process.chdir(before);
    fs.rmSync(cwd, { recursive: true, force: true });
  });
}

test('the in-memory warehouse spills into a folder of its own, gone after close, not into the working directory', async () => {
  await inTempCwd(async (cwd) => {
    const warehouse = await DuckDbWarehouse.open(':memory:', { memoryLimit: '64MB', threads: 1 });
    const [{ dir }] = await warehouse.query("SELECT current_setting('temp_directory') AS dir");
    const spill = String(dir);
    assert.ok(spill.startsWith(processTempDir() + path.sep), `spills to ${spill}, inside the process's temp directory`);
    const [{ n }] = await warehouse.query(SPILLING);
    assert.equal(Number(n), 3_000_000);
    assert.deepEqual(fs.readdirSync(cwd), [], 'nothing written to the working directory');
    await warehouse.close();
    assert.equal(fs.existsSync(spill), false, 'the spill folder is removed at close');
  });
});

test("a load's staging reader spills into a folder of its own, gone after the load, not into the working directory", async () => {
  await inTempCwd(async (cwd) => {
    const spill = await withStagingReader(async (conn) => {
      await conn.run("SET memory_limit = '64MB'; SET threads = 1");
      const dir = String((await conn.runAndReadAll("SELECT current_setting('temp_directory')")).getRows()[0][0]);
      assert.ok(dir.startsWith(processTempDir() + path.sep), `spills to ${dir}, inside the process's temp directory`);
      const rows = (await conn.runAndReadAll(SPILLING)).getRows();
      assert.equal(Number(rows[0][0]), 3_000_000);
      return dir;
    });
    assert.deepEqual(fs.readdirSync(cwd), [], 'nothing written to the working directory');
    assert.equal(fs.existsSync(spill), false, 'the spill folder is removed after the load');
  });
});
