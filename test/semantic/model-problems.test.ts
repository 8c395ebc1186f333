// Every problem of a model at once: independent mistakes of different kinds — nodes of the wrong
// shape (the JSON Schema) and references to what does not exist — all reported in one run, each
// with file, line and path, in a single file and across a directory of files; and models a
// stranger writes from docs/model.md alone, with the mistakes people make, each message clear.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.ts';
import { InsightsService } from '../../src/modules/insights/insights.service.ts';
import { checkModel, modelFromText } from '../../src/semantic/model.ts';
import { probeModel } from '../../src/semantic/probe.ts';
import { DuckDbWarehouse } from '../../src/warehouse/duckdb/duckdb.ts';
import { ROOT } from '../helpers/process.ts';

const lineOf = (text: string, needle: string, from = 0) => text.split('\n').findIndex((l, i) => i >= from && l.includes(needle)) + 1;
const problems = (target: string) =>
  checkModel(target).issues.map((i) => `${path.basename(i.file)}:${i.line} ${i.path ? `${i.path}: ` : ''}${i.message}`);

const CUBES = `cubes:
  - name: orders
    sql_table: orders
    tenant_column: tenant_id
    joins:
      - { name: customers, relationship: one_to_many, sql: "{CUBE}.customer_id = {customers}.id" }
      - { name: shops, relationship: many_to_one, sql: "{CUBE}.shop_id = {shops}.id" }
    measures:
      - { name: revenue, type: summ, sql: amount }
      - { name: orders, type: count }
      - { name: aov, type: number, sql: "{revenue} / {order}" }
      - { name: margin, type: sum, sql: "{web}.margin" }
      - { name: refunds, type: count, filters: "{CUBE}.refunded" }
    dimensions:
      - { name: ordered_at, type: time, sql: ordered_at }
      - { name: Country, type: string, sql: country }
      - { name: channel, type: string }
  - name: customers
    sql_table: customers
    tenant_column: tenant_id
    measures: [{ name: customers, type: count }]
    dimensions: [{ name: signed_up_at, type: time, sql: signup_at }]
`;
const INSIGHTS = `insights:
  - code: revenue
    kind: timeseries
    measures: [orders.revenue]
    time_dimension: orders.ordered_at
    filters: [orders.country, orders.colour]
  - code: by_channel
    kind: breakdwn
    measures: [orders.orders, orders.profit]
    dimension: orders.channel
    time_dimension: orders.ordered_at
  - code: aov
    kind: timeseries
    measures: [aov]
    time_dimension: orders.created
  - code: signups
    kind: timeseries
    measures: [customer.customers]
    time_dimension: customers.signed_up_at
    granularity: month
`;

// What each mistake should say, by the line that holds it.
function expected(cubes: string, insights: string, cubesFile: string, insightsFile: string, offset = 0): string[] {
  const c = (needle: string, from = 0) => `${cubesFile}:${lineOf(cubes, needle, from)}`;
  const i = (needle: string, from = 0) => `${insightsFile}:${lineOf(insights, needle, from) + offset}`;
  return [
    `${c('one_to_many')} cubes[0].joins[0].relationship: must be many_to_one, not "one_to_many": declare the join on the cube of the many side (orders joins customers)`,
    `${c('name: shops')} cubes[0].joins[1].name: "shops" is not a cube`,
    `${c('summ')} cubes[0].measures[0].type: must be one of: count, count_distinct, sum, avg, min, max, number, not "summ" (did you mean sum?)`,
    `${c('{order}')} cubes[0].measures[2].sql: {order} is not a measure (did you mean orders?)`,
    `${c('{web}')} cubes[0].measures[3].sql: {web} is not a cube`,
    `${c('refunded')} cubes[0].measures[4].filters: must be a list (lines starting with "- ", or [a, b])`,
    `${c('Country')} cubes[0].dimensions[1].name: "Country" is not a name of lower-case letters, digits and _ (such as country)`,
    `${c('name: channel')} cubes[0].dimensions[2].sql: is required`,
    `${i('orders.colour')} insights[0].filters[1]: "colour" is not a dimension of cube orders`,
    `${i('breakdwn')} insights[1].kind: must be one of: timeseries, breakdown, top, kpi, cohort, not "breakdwn" (did you mean breakdown?)`,
    `${i('orders.profit')} insights[1].measures[1]: "profit" is not a measure of cube orders`,
    `${i('[aov]')} insights[2].measures[0]: "aov" must name its cube too: cube.aov`,
    `${i('orders.created')} insights[2].time_dimension: "created" is not a dimension of cube orders`,
    `${i('customer.customers')} insights[3].measures[0]: "customer" is not a cube (did you mean customers?)`,
    `${i('granularity: month')} insights[3].granularity: is for cohort insights (did you mean granularities?)`,
  ];
}

test('one file: every mistake of each kind, once, in reading order; nothing said of what was left out', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'model-problems-'));
  try {
    const text = `${CUBES}${INSIGHTS}`;
    fs.writeFileSync(path.join(dir, 'shop.yml'), text);
    // The filter on "Country" (left out for its name) and the measure "revenue" (left out for its
    // type) are referenced, but only their own problems are reported.
    assert.deepEqual(problems(path.join(dir, 'shop.yml')), expected(CUBES, INSIGHTS, 'shop.yml', 'shop.yml', CUBES.split('\n').length - 1));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a directory: problems of every file, a file that is not YAML among them, references across files', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'model-problems-dir-'));
  try {
    fs.writeFileSync(path.join(dir, 'a-cubes.yml'), CUBES);
    // Insights of a cube declared in a file that does not parse are not reported as missing.
    const withRefunds = `${INSIGHTS}  - { code: refund_count, kind: kpi, measures: [refunds.count], time_dimension: refunds.at }\n`;
    fs.writeFileSync(path.join(dir, 'b-insights.yml'), withRefunds);
    const broken =
      'cubes:\n  - name: refunds\n    sql_table: refunds\n    tenant_column: tenant_id\n    measures:\n      - name: count\n        type: count\n       sql: id\n';
    fs.writeFileSync(path.join(dir, 'c-refunds.yml'), broken);
    const got = problems(dir);
    assert.deepEqual(got, [
      ...expected(CUBES, INSIGHTS, 'a-cubes.yml', 'b-insights.yml'),
      'c-refunds.yml:8 Sequence item without - indicator (check the indentation and the colons: a key is followed by ": ", and a line indented like the keys of a list item belongs to it)',
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** The Format example of docs/model.md, as a stranger copies it. */
const DOCS = (() => {
  const md = fs.readFileSync(path.join(ROOT, 'docs/model.md'), 'utf8');
  return /```yaml\n([\s\S]*?)```/.exec(md.slice(md.indexOf('## Format')))![1];
})();

test('written from docs/model.md: the example is valid as it stands', () => {
  assert.equal(modelFromText(DOCS, 'docs.yml').insights.length, 4);
});

test('written from docs/model.md, with the mistakes people make: each message clear, with its line', () => {
  const said = (text: string) => {
    const { issues } = checkModelText(text);
    return issues.map((i) => `${i.line} ${i.path ? `${i.path}: ` : ''}${i.message}`);
  };
  // Wrong indentation: one key of a measure two spaces short.
  const shifted = DOCS.replace('        sql: revenue             #', '      sql: revenue             #');
  assert.deepEqual(said(shifted), [
    `${lineOf(shifted, '      sql: revenue  ')} All mapping items must start at the same column (check the indentation: keys of one mapping start in the same column, and list items ("- ") one step under their key)`,
  ]);
  // Two spaces too many.
  const deeper = DOCS.replace('        sql: ordered_at', '          sql: ordered_at');
  assert.equal(said(deeper).length, 1);
  assert.match(
    said(deeper)[0],
    new RegExp(`^${lineOf(deeper, '          sql: ordered_at')} All mapping items must start at the same column \\(check the indentation`),
  );
  // A typo in a measure type, a join to a cube that does not exist, {CUBE} left out of a join.
  const typos = DOCS.replace('type: sum                #', 'type: total              #')
    .replace('      - name: customers          # another cube', '      - name: customer           # another cube')
    .replace('sql: "{CUBE}.customer_id = {customers}.customer_id"', 'sql: "customer_id = {customers}.customer_id"');
  assert.deepEqual(said(typos), [
    `${lineOf(typos, '- name: customer  ')} cubes[0].joins[0].name: "customer" is not a cube (did you mean customers?)`,
    `${lineOf(typos, 'sql: "customer_id = ')} cubes[0].joins[0].sql: must name both cubes, as in {CUBE}.column = {customer}.column: {CUBE} is missing`,
    `${lineOf(typos, 'type: total')} cubes[0].measures[0].type: must be one of: count, count_distinct, sum, avg, min, max, number, not "total"`,
  ]);
  // insights: indented under the last cube instead of at the top; dimensions: under a measure.
  const top = DOCS.indexOf('\ninsights:\n');
  const nested = DOCS.slice(0, top) + DOCS.slice(top).replace(/\n/g, '\n    ');
  assert.deepEqual(said(nested), [
    `${lineOf(nested, '    insights:')} cubes[1].insights: is not a key of the model format here: insights: belongs at the top level of the file, not indented`,
  ]);
  const under = DOCS.replace('\n    dimensions:\n      - name: ordered_at', '\n        dimensions:\n      - name: ordered_at');
  assert.match(
    said(under)[0] ?? '',
    /cubes\[0\]\.measures\[2\]\.dimensions: is not a key of the model format here: dimensions: belongs to the cube, indented like its name:/,
  );
});

test('{CUBE} left out where two joined tables share a column: a warning naming it; at query time the answer or a 409, never 500', async () => {
  const wh = await DuckDbWarehouse.open(':memory:');
  try {
    await wh.exec(`CREATE TABLE orders (tenant_id VARCHAR, customer_id BIGINT, ordered_at DATE, revenue DOUBLE, status VARCHAR, country VARCHAR, channel VARCHAR);
      CREATE TABLE customers (tenant_id VARCHAR, customer_id BIGINT, name VARCHAR, signup_at DATE, status VARCHAR);
      INSERT INTO orders VALUES ('t', 1, DATE '2026-03-02', 10, 'completed', 'DE', 'web');
      INSERT INTO customers VALUES ('t', 1, 'Ann', DATE '2026-01-01', 'active');`);
    const text = DOCS.replace(
      `        filters:                 # only rows where every filter holds are aggregated
          - sql: "{CUBE}.status = 'completed'"`,
      `        filters:
          - sql: "status = 'completed'"`,
    );
    const model = modelFromText(text, 'shop.yml');
    const warnings = await probeModel(model, wh);
    const filter = warnings.find((w) => w.path === 'cubes[0].measures[0].filters[0].sql');
    assert.ok(filter, JSON.stringify(warnings));
    assert.equal(filter.line, lineOf(text, 'sql: "status = \'completed\'"'));
    assert.match(filter.message, /Ambiguous .*"status".* write \{CUBE\}\.status for this cube's column/);
    const svc = new InsightsService(wh, new ManualClock(new Date('2026-03-31T12:00:00Z')), model);
    // top_customers sums orders by customer first and joins customers to that small result
    // (docs/insights.md "Grouping by a joined dimension"): the bare column is read where only the
    // orders table is in scope, so it is this cube's status and the figure is exact.
    const answer = await svc.execute('t', 'top_customers', { date_from: '2026-03-01', date_to: '2026-03-31' });
    assert.deepEqual(
      answer.rows.map((r) => Object.values(r)),
      [['Ann', 10]],
    );
  } finally {
    await wh.close();
  }
});

function checkModelText(text: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'model-stranger-'));
  try {
    fs.writeFileSync(path.join(dir, 'shop.yml'), text);
    return checkModel(path.join(dir, 'shop.yml'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
