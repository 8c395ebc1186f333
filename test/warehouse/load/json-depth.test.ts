// DuckDB's JSON reader recurses per nesting level and crashes the whole process (SIGSEGV) on a file
// nested tens of thousands of levels deep: such a file is refused, naming its line, before DuckDB
// reads it — on the CLI's path (the loader) as on the API's (the upload stream, test/plugins/deep-bodies).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, test } from 'node:test';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import { LoadError } from '../../../src/warehouse/load/rules.ts';
import { JsonDepth, MAX_DATA_DEPTH } from '../../../src/warehouse/load/json-depth.ts';
import { RecordCounter } from '../../../src/modules/data/data.upload.ts';

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

/** The scan byte by byte, as written before it skipped runs: what the one-pass scanners must agree with. */
function reference(bytes: Buffer) {
  let depth = 0;
  let line = 1;
  let records = 0;
  let tooDeepAt: number | undefined;
  let inString = false;
  let escaped = false;
  let array: boolean | undefined;
  // Non-blank lines (NDJSON rows) and CSV records (line breaks outside quotes).
  let lines = 0;
  let lineHasData = false;
  let csvRecords = 0;
  let quoted = false;
  let csvLineHasData = false;
  for (const c of bytes) {
    if (c === 0x0a) {
      line++;
      if (lineHasData) lines++;
      lineHasData = false;
    } else if (c !== 0x0d && c !== 0x20 && c !== 0x09) lineHasData = true;
    if (c === 0x22) {
      quoted = !quoted;
      csvLineHasData = true;
    } else if (c === 0x0a) {
      if (!quoted) {
        if (csvLineHasData) csvRecords++;
        csvLineHasData = false;
      }
    } else if (c !== 0x0d && c !== 0x20 && c !== 0x09) csvLineHasData = true;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      array ??= c === 0x5b;
      if (c === 0x7b && depth === (array ? 1 : 0)) records++;
      if (++depth > MAX_DATA_DEPTH && tooDeepAt === undefined) tooDeepAt = line;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return {
    depth,
    line,
    records,
    tooDeepAt,
    lines: lines + (lineHasData ? 1 : 0),
    csv: Math.max(0, csvRecords + (csvLineHasData ? 1 : 0) - 1),
  };
}

test('the one-pass scanners count and measure as a byte-by-byte scan does, however the data is cut into chunks', () => {
  // Strings with escapes, raw line breaks, blank lines and deep nesting, from a fixed seed.
  let seed = 38;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pieces = ['{', '}', '[', ']', '"', '\\', '\\"', '\n', '\r\n', ' ', '\t', 'a', '1', ',', ':', '{"k": "v\\\\"}', '\n\n'];
  for (let round = 0; round < 300; round++) {
    const length = Math.floor(random() * 400);
    let text = round % 3 === 0 ? '[' : '';
    for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
    if (round % 50 === 0) text += '['.repeat(MAX_DATA_DEPTH + 2);
    const bytes = Buffer.from(text);
    const depth = new JsonDepth();
    const csv = new RecordCounter();
    for (let at = 0; at < bytes.length; ) {
      const next = Math.min(bytes.length, at + 1 + Math.floor(random() * 40));
      depth.push(bytes.subarray(at, next));
      csv.push(bytes.subarray(at, next));
      at = next;
    }
    const want = reference(bytes);
    const got = {
      depth: depth.depth,
      line: depth.line,
      records: depth.records,
      tooDeepAt: depth.tooDeepAt,
      lines: depth.totalLines(),
      csv: csv.total(),
    };
    assert.deepEqual(got, want, JSON.stringify(text));
  }
});
