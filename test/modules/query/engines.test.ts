// POST /api/v1/query on examples/subscriptions (three cubes: invoices → accounts → plans), its
// files loaded through the data API as a user would, on DuckDB, PostgreSQL and ClickHouse: every
// answer equal to SQL written by hand here over the very files (read by a DuckDB of the test's
// own), with no insight declared for any of these questions.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { loadModel } from '../../../src/semantic/model.ts';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import type { Warehouse } from '../../../src/warehouse/warehouse.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { clickhouseSkip, emptyClickHouseWarehouse } from '../../helpers/clickhouse.ts';
import { ROOT } from '../../helpers/process.ts';
import { emptyPostgresWarehouse, PGliteWarehouse } from '../../helpers/warehouse.ts';

const EXAMPLE = path.join(ROOT, 'examples/subscriptions');
const FILES = { plans: 'plans.csv', accounts: 'accounts.csv', invoices: 'invoices.ndjson' } as const;
const clock = new ManualClock(new Date('2026-11-21T09:30:00Z'));

// The hand-written side: the files as they are, in a DuckDB that has nothing to do with the service.
let hand: DuckDbWarehouse;
before(async () => {
  hand = await DuckDbWarehouse.open(':memory:');
  for (const [table, file] of Object.entries(FILES)) {
    const f = path.join(EXAMPLE, file);
    await hand.exec(`CREATE TABLE ${table} AS SELECT * FROM ${file.endsWith('.csv') ? `read_csv_auto('${f}')` : `read_json_auto('${f}')`}`);
  }
});
after(() => hand?.close());

const sql = async (text: string) =>
  (await hand.query(text)).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, norm(v)])));
const norm = (v: unknown) => (typeof v === 'number' ? Math.round(v * 100) / 100 : typeof v === 'bigint' ? Number(v) : v);
const rowsOf = (res: { data: any }) =>
  (res.data.data.rows as Record<string, unknown>[]).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, norm(v)])));

/** The rows as the data API would store them (tenant saas), for a warehouse that cannot load files. */
async function insertRows(warehouse: Warehouse, table: string, rows: Record<string, unknown>[]) {
  const cols = Object.keys(rows[0]);
  const type = (c: string) =>
    /_at$/.test(c) ? 'date' : typeof rows.find((r) => r[c] !== null)?.[c] === 'number' ? 'double precision' : 'text';
  const lit = (v: unknown) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
  await warehouse.exec(`CREATE TABLE ${table} (tenant_id text, ${cols.map((c) => `${c} ${type(c)}`).join(', ')})`);
  await warehouse.exec(`INSERT INTO ${table} VALUES ${rows.map((r) => `('saas', ${cols.map((c) => lit(r[c])).join(', ')})`).join(', ')}`);
}

const ENGINES: { name: string; open: () => Promise<Warehouse>; skip?: string | false }[] = [
  { name: 'DuckDB', open: () => DuckDbWarehouse.open(':memory:') },
  { name: 'PostgreSQL', open: () => emptyPostgresWarehouse() },
  { name: 'ClickHouse', open: () => emptyClickHouseWarehouse({ demo: false }), skip: clickhouseSkip },
];

for (const engine of ENGINES) {
  describe(`the semantic query on ${engine.name}`, { skip: engine.skip }, () => {
    let t: TestApp;
    let auth: string;
    const query = (body: unknown, as = auth) => call(t, as, 'POST', '/api/v1/query', body);

    before(async () => {
      const warehouse = await engine.open();
      t = await buildTestApp({ clock, deps: { warehouse, model: loadModel(path.join(EXAMPLE, 'model.yml')) } });
      auth = await t.login({ tenant: 'saas', user: 'owner', role: 'owner' });
      for (const [table, file] of Object.entries(FILES)) {
        // PGlite (no PostgreSQL server, as in CI's offline run) cannot COPY from a stream: the rows go in as SQL.
        if (warehouse instanceof PGliteWarehouse) {
          await insertRows(warehouse, table, await hand.query(`SELECT * FROM ${table}`));
          continue;
        }
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/v1/data/${table}`,
          headers: { authorization: auth, 'content-type': file.endsWith('.csv') ? 'text/csv' : 'application/x-ndjson' },
          payload: fs.readFileSync(path.join(EXAMPLE, file)),
        });
        assert.equal(res.statusCode, 200, res.body);
      }
    });
    after(async () => {
      await t?.close();
      await t?.warehouse.close();
    });

    test('a measure of each of two cubes, grouped by a dimension of one of them', async () => {
      const res = await query({ measures: ['invoices.mrr', 'accounts.churned_accounts'], dimensions: ['accounts.industry'] });
      assert.equal(res.statusCode, 200, res.body);
      const expected = await sql(`
        SELECT a.industry AS "accounts.industry", coalesce(m.mrr, 0) AS "invoices.mrr", count(*) FILTER (WHERE a.churned_at IS NOT NULL) AS "accounts.churned_accounts"
        FROM accounts a LEFT JOIN (SELECT x.industry, sum(i.amount) AS mrr FROM invoices i JOIN accounts x ON x.account_id = i.account_id GROUP BY 1) m ON m.industry = a.industry
        GROUP BY a.industry, m.mrr ORDER BY 2 DESC, 1`);
      assert.deepEqual(rowsOf(res), expected);
      assert.equal(res.data.data.total_rows, expected.length);
      assert.deepEqual(
        res.data.data.columns.map((c: { name: string; type: string }) => [c.name, c.type]),
        [
          ['accounts.industry', 'string'],
          ['invoices.mrr', 'money'],
          ['accounts.churned_accounts', 'integer'],
        ],
      );
    });

    test('a condition on a measure holds after aggregation, with order, limit and offset', async () => {
      const body = {
        measures: ['invoices.mrr'],
        dimensions: ['accounts.company'],
        filters: [{ member: 'invoices.mrr', operator: 'gt', values: [1000] }],
        order: [{ member: 'invoices.mrr', direction: 'desc' }],
        limit: 3,
        offset: 2,
      };
      const res = await query(body);
      assert.equal(res.statusCode, 200, res.body);
      const all = await sql(`
        SELECT a.company AS "accounts.company", sum(i.amount) AS "invoices.mrr" FROM invoices i JOIN accounts a ON a.account_id = i.account_id
        GROUP BY 1 HAVING sum(i.amount) > 1000 ORDER BY 2 DESC, 1`);
      assert.ok(all.length > 5, 'enough rows to page through');
      assert.deepEqual(rowsOf(res), all.slice(2, 5));
      assert.equal(res.data.data.total_rows, all.length);
      // Past the last row: no rows, and still the count of those there are.
      const past = await query({ ...body, offset: all.length + 5 });
      assert.deepEqual(past.data.data.rows, []);
      assert.equal(past.data.data.total_rows, all.length);
    });

    test('not_equals and contains on dimensions of joined cubes', async () => {
      const res = await query({
        measures: ['invoices.mrr', 'invoices.invoices'],
        dimensions: ['plans.plan'],
        filters: [
          { member: 'plans.plan', operator: 'not_equals', values: ['Starter'] },
          { member: 'accounts.company', operator: 'contains', values: ['LABS'] },
        ],
      });
      assert.equal(res.statusCode, 200, res.body);
      const expected = await sql(`
        SELECT p.plan AS "plans.plan", sum(i.amount) AS "invoices.mrr", count(*) AS "invoices.invoices"
        FROM invoices i JOIN accounts a ON a.account_id = i.account_id JOIN plans p ON p.plan_id = a.plan_id
        WHERE p.plan <> 'Starter' AND lower(a.company) LIKE '%labs%' GROUP BY 1 ORDER BY 2 DESC, 1`);
      assert.ok(expected.length > 0);
      assert.deepEqual(rowsOf(res), expected);
    });

    test('between on a time dimension: both days whole', async () => {
      const res = await query({
        measures: ['invoices.mrr'],
        dimensions: ['plans.plan'],
        filters: [{ member: 'invoices.invoiced_at', operator: 'between', values: ['2025-07-01', '2025-12-31'] }],
      });
      assert.equal(res.statusCode, 200, res.body);
      const expected = await sql(`
        SELECT p.plan AS "plans.plan", sum(i.amount) AS "invoices.mrr"
        FROM invoices i JOIN accounts a ON a.account_id = i.account_id JOIN plans p ON p.plan_id = a.plan_id
        WHERE CAST(i.invoiced_at AS DATE) BETWEEN DATE '2025-07-01' AND DATE '2025-12-31' GROUP BY 1 ORDER BY 2 DESC, 1`);
      assert.deepEqual(rowsOf(res), expected);
    });

    test('by month with compare: every month of the window, each beside the same month a year before', async () => {
      const res = await query({
        measures: ['invoices.mrr'],
        time: { dimension: 'invoices.invoiced_at', granularity: 'month', date_from: '2026-01-01', date_to: '2026-06-30' },
        filters: [{ member: 'accounts.industry', operator: 'equals', values: ['Healthcare'] }],
        compare: 'previous_year',
      });
      assert.equal(res.statusCode, 200, res.body);
      const month = async (from: string, to: string) =>
        new Map(
          (
            await sql(`
          SELECT strftime(CAST(i.invoiced_at AS DATE), '%Y-%m-01') AS m, sum(i.amount) AS mrr FROM invoices i JOIN accounts a ON a.account_id = i.account_id
          WHERE a.industry = 'Healthcare' AND CAST(i.invoiced_at AS DATE) BETWEEN DATE '${from}' AND DATE '${to}' GROUP BY 1`)
          ).map((r) => [r.m as string, r.mrr as number]),
        );
      const now = await month('2026-01-01', '2026-06-30');
      const before = await month('2025-01-01', '2025-06-30');
      const expected = ['01', '02', '03', '04', '05', '06'].map((mm) => ({
        'invoices.invoiced_at': `2026-${mm}-01`,
        'invoices.mrr': now.get(`2026-${mm}-01`) ?? 0,
        'invoices.mrr.previous': before.get(`2025-${mm}-01`) ?? 0,
      }));
      assert.deepEqual(rowsOf(res), expected);
      assert.deepEqual(res.data.data.query.time, {
        dimension: 'invoices.invoiced_at',
        granularity: 'month',
        date_from: '2026-01-01',
        date_to: '2026-06-30',
      });
    });

    test('another tenant asks the same and sees none of these rows', async () => {
      const other = await t.login({ tenant: 'other', user: 'o', role: 'member' });
      const res = await query({ measures: ['invoices.mrr'], dimensions: ['accounts.industry'] }, other);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.data.data.rows, []);
    });
  });
}
