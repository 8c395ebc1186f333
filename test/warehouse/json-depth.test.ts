// DuckDB's JSON reader recurses per nesting level and crashes the whole process (SIGSEGV) on a file
// nested tens of thousands of levels deep: such a file is refused, naming its line, before DuckDB
// reads it — on the CLI's path (the loader) as on the API's (the upload stream, test/plugins/deep-bodies).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, test } from 'node:test';
import { DuckDbWarehouse } from '../../src/warehouse/duckdb.ts';
import { LoadError } from '../../src/warehouse/load.ts';
import { MAX_DATA_DEPTH } from '../../src/warehouse/json-depth.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-json-depth-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a JSON file nested 100 000 levels deep is a bad row naming its line; the process lives and a flat file loads', async () => {
  const wh = await DuckDbWarehouse.open(path.join(dir, 'w.duckdb'), { memoryLimit: '128MB', threads: 1 });
  try {
    const deep = path.join(dir, 'deep.ndjson');
    fs.writeFileSync(deep, `{"a": 1}\n{"a": ${'['.repeat(100_000)}${']'.repeat(100_000)}}\n`);
    await assert.rejects(
      wh.load({ table: 'events', tenantId: 'acme', mode: 'append', file: { path: deep, format: 'ndjson' } }),
      (err: unknown) => err instanceof LoadError && err.kind === 'row' && err.where.line === 2 && /more than 64 levels/.test(err.message),
    );
    const gz = path.join(dir, 'deep.json.gz');
    fs.writeFileSync(gz, zlib.gzipSync('['.repeat(MAX_DATA_DEPTH + 1) + ']'.repeat(MAX_DATA_DEPTH + 1)));
    await assert.rejects(wh.load({ table: 'events', tenantId: 'acme', mode: 'append', file: { path: gz, format: 'json' } }), LoadError);
    const flat = path.join(dir, 'flat.json');
    fs.writeFileSync(
      flat,
      JSON.stringify([
        { a: 1, b: 'x' },
        { a: 2, b: 'y' },
      ]),
    );
    const loaded = await wh.load({ table: 'events', tenantId: 'acme', mode: 'append', file: { path: flat, format: 'json' } });
    assert.equal(loaded.rowsLoaded, 2);
  } finally {
    await wh.close();
  }
});
