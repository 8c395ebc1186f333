// The embedded system of record's memory choices (docs/footprint.md): a new data dir is created
// by a child process, and PostgreSQL runs with small shared buffers.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { PGliteDb } from '../../src/db/index.ts';

test('a new data dir is initialized, reopened, and runs with 8MB of shared buffers', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-pglite-'));
  try {
    const dataDir = path.join(dir, 'pgdata');
    let db = await PGliteDb.open({ dataDir });
    assert.ok(fs.existsSync(path.join(dataDir, 'PG_VERSION')));
    assert.deepEqual(await db.query('SHOW shared_buffers'), [{ shared_buffers: '8MB' }]);
    await db.exec('CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)');
    await db.close();
    db = await PGliteDb.open({ dataDir });
    assert.deepEqual(await db.query('SELECT n FROM kept'), [{ n: 7 }]);
    await db.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
