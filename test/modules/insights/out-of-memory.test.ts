// A question that needs more memory than the embedded warehouse's ceiling (docs/footprint.md, "The
// burst ceiling"). Found on 100 M demo orders: top_products, top_categories and new_customers
// answered 500 under the default 128 MB ceiling ("Out of Memory Error: failed to pin block").
// Here a derived cube's string_agg, which DuckDB cannot spill to disk, needs ~70 MB against a
// 32 MB ceiling: under a 1 GB burst ceiling the answer comes, the ceiling goes back afterwards;
// with no room to burst the API answers 503 naming the setting, never 500.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { modelFromText } from '../../../src/semantic/model.ts';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

const ROWS = 1_500_000;
const MODEL = `
cubes:
  - name: notes
    sql_table: notes
    tenant_column: shop
    dimensions:
      - { name: written_at, type: time, sql: written_at }
  - name: note_lengths
    sql: "SELECT shop, min(written_at) AS written_at, length(string_agg(body, ',')) AS total_length FROM {notes} GROUP BY shop"
    tenant_column: shop
    measures:
      - { name: total_length, type: max, sql: total_length }
    dimensions:
      - { name: written_at, type: time, sql: written_at }
insights:
  - code: total_length
    kind: kpi
    measures: [note_lengths.total_length]
    time_dimension: note_lengths.written_at
`;

let dir: string;
/** Files of FILE_ROWS rows each (~20 MB: a load reads a file through buffers of up to 32 MB). */
const files: string[] = [];
const FILE_ROWS = 300_000;
let expected: number;

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-oom-'));
  let length = 0;
  for (let i = 0; i < ROWS; i += FILE_ROWS) {
    let text = 'written_at,body\n';
    for (let j = i; j < i + FILE_ROWS; j++) {
      const body = `note ${j} ${'x'.repeat(60)}`;
      length += body.length + 1;
      text += `2025-0${1 + (j % 9)}-1${j % 10} 12:00:00,${body}\n`;
    }
    files.push(path.join(dir, `notes-${i}.csv`));
    fs.writeFileSync(files.at(-1)!, text);
  }
  expected = length - 1;
});

after(() => fs.rmSync(dir, { recursive: true, force: true }));

async function appWith(memoryBurst: string): Promise<TestApp> {
  const warehouse = await DuckDbWarehouse.open(':memory:', { memoryLimit: '64MB', memoryBurst, threads: 1 });
  const t = await buildTestApp({ deps: { warehouse, model: modelFromText(MODEL, 'oom.yml') } });
  for (const file of files) {
    const loaded = await warehouse.load({
      table: 'notes',
      file: { path: file, format: 'csv' },
      tenantId: 'acme',
      mode: 'append',
      tenantColumn: 'shop',
    });
    assert.equal(loaded.rowsLoaded, FILE_ROWS);
  }
  return t;
}

const ask = (t: TestApp, auth: string) =>
  call(t, auth, 'GET', '/api/v1/insights/total_length/execute?date_from=2025-01-01&date_to=2025-12-31');

test('a question beyond the ceiling is answered under the burst ceiling, and the ceiling goes back', async () => {
  const t = await appWith('1GB');
  try {
    const auth = await t.login({ tenant: 'acme', user: 'u1', role: 'member' });
    const res = await ask(t, auth);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.data.rows[0].value, expected);
    const [{ limit }] = await t.warehouse.query(`SELECT current_setting('memory_limit') AS limit`);
    assert.match(String(limit), /^61\.\d MiB$/, 'the ordinary 64MB ceiling is back');
  } finally {
    await t.close();
    await t.warehouse.close();
  }
});

test('with no room to burst the answer is a 503 problem naming the setting, not a 500', async () => {
  const t = await appWith('64MB');
  try {
    const auth = await t.login({ tenant: 'acme', user: 'u1', role: 'member' });
    const res = await ask(t, auth);
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(res.data.code, 'SERVICE_UNAVAILABLE');
    assert.match(res.data.detail, /ran out of memory answering insight total_length.*INSIGHTS_DUCKDB_MEMORY_BURST/);
  } finally {
    await t.close();
    await t.warehouse.close();
  }
});
