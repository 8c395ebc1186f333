// Files as spreadsheets and shop systems export them (docs/data.md, "Files as people export them"):
// a `;`-separated CSV with a BOM, CRLF, decimal commas and D.M.YYYY dates; a JSON array with
// `Jun 12 1998` dates and empty strings; NDJSON with M/D/YYYY dates; headers with spaces, `$`,
// hyphens and capitals. Loaded through the CLI and the API as they are, described by a model that
// quotes the columns (also through a join), and answered with figures summed here from the files.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { EMBEDDED_ONLY, migratedDataDir, runCli, startServer, type RunningServer } from '../helpers/process.ts';

const BOM = '\uFEFF';
// A German spreadsheet's export: `;`, decimal commas, D.M.YYYY, CRLF, a BOM, an empty amount.
const SALES = [
  'Order ID;Customer ID;Order Date;product-line;Revenue $;Discount',
  '1;10;5.1.2024;Books;12,50;0',
  '2;11;17.1.2024;Games;30,00;1,5',
  '3;10;3.2.2024;Books;7,25;',
  '4;12;29.2.2024;Toys;;0',
  '5;11;1.3.2024;Games;100,10;2',
].join('\r\n');
const CLIENTS = JSON.stringify([
  { 'Customer ID': 10, 'Customer Name': 'Ada Books', Segment: 'Retail', 'Signed Up': 'Jun 12 1998' },
  { 'Customer ID': 11, 'Customer Name': 'Bit Games', Segment: '', 'Signed Up': 'Jan 03 2001' },
  { 'Customer ID': 12, 'Customer Name': 'Toy Box', Segment: 'Wholesale', 'Signed Up': 'Dec 24 2010' },
]);
const RETURNS = ['{"Order ID":1,"Returned On":"1/9/2024","Reason":"damaged"}', '{"Order ID":2,"Returned On":"2/13/2024","Reason":""}'].join(
  '\n',
);

const MODEL = `
cubes:
  - name: sales
    sql_table: sales
    tenant_column: tenant_id
    joins:
      - name: clients
        relationship: many_to_one
        sql: '{CUBE}."Customer ID" = {clients}."Customer ID"'
    measures:
      - name: revenue
        type: sum
        sql: '{CUBE}."Revenue $"'
        format: money
      - name: orders
        type: count
      - name: discounted_orders
        type: count
        filters: [{ sql: '{CUBE}."Discount" > 0' }]
    dimensions:
      - name: order_date
        type: time
        sql: '{CUBE}."Order Date"'
      - name: product_line
        type: string
        sql: '{CUBE}."product-line"'
  - name: clients
    sql_table: clients
    tenant_column: tenant_id
    dimensions:
      - name: customer
        type: string
        sql: '{CUBE}."Customer Name"'
      - name: segment
        type: string
        sql: '{CUBE}."Segment"'
      - name: signed_up
        type: time
        sql: '{CUBE}."Signed Up"'
insights:
  - code: revenue
    kind: timeseries
    measures: [sales.revenue, sales.orders]
    time_dimension: sales.order_date
    granularities: [month]
    filters: [clients.customer, sales.product_line]
  - code: revenue_by_customer
    kind: breakdown
    measures: [sales.revenue, sales.discounted_orders]
    dimension: clients.customer
    time_dimension: sales.order_date
    filters: [clients.segment]
`;

const VISITS_CUBE = `cubes:
  - name: visits
    sql_table: visits
    tenant_column: tenant_id
    measures:
      - { name: page_views, type: sum, sql: '{CUBE}."Page Views"' }
    dimensions:
      - { name: day, type: time, sql: '{CUBE}."Day"' }
  - name: tabbed
    sql_table: tabbed
    tenant_column: tenant_id
    measures:
      - { name: revenue, type: sum, sql: '{CUBE}."Revenue $"' }
    dimensions:
      - { name: region, type: string, sql: '{CUBE}."Region Name"' }
`;

let dir: string;
let server: RunningServer | undefined;
const file = (name: string) => path.join(dir, name);

before(async () => {
  if (EMBEDDED_ONLY) return;
  dir = await migratedDataDir('insights-exported-');
  fs.writeFileSync(file('sales.csv'), BOM + SALES + '\r\n');
  fs.writeFileSync(file('clients.json'), CLIENTS);
  fs.writeFileSync(file('returns.ndjson'), RETURNS + '\n');
  fs.writeFileSync(file('model.yml'), MODEL);
});

after(async () => {
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ INSIGHTS_DATA_DIR: path.join(dir, 'data'), INSIGHTS_MODEL: file('model.yml') });
const load = (table: string, name: string, ...extra: string[]) =>
  runCli(['data', 'load', '--table', table, '--file', file(name), '--tenant', 'demo', ...extra], env());
/** The `Columns:` block of a load's output as name → type (and the date format, where one was read). */
const columnsOf = (stdout: string) =>
  Object.fromEntries(
    stdout
      .slice(stdout.indexOf('Columns:'))
      .split('\n')
      .slice(1)
      .filter((l) => l.startsWith('  '))
      .map((l) => {
        const [, name, rest] = /^ {2}(.+?) {2,}(.+)$/.exec(l)!;
        return [name, rest.trim()];
      }),
  );

test('each export loads through the CLI as it is, and the load shows column → type', { skip: EMBEDDED_ONLY }, async () => {
  fs.mkdirSync(path.join(dir, 'data'));
  // The migrated system of record of migratedDataDir, under the data dir the CLI is pointed at.
  fs.renameSync(path.join(dir, 'pgdata'), path.join(dir, 'data', 'pgdata'));

  const sales = await load('sales', 'sales.csv');
  assert.equal(sales.code, 0, sales.stderr);
  assert.match(sales.stdout, /Loaded 5 rows/);
  assert.deepEqual(columnsOf(sales.stdout), {
    'Order ID': 'BIGINT',
    'Customer ID': 'BIGINT',
    'Order Date': 'DATE  (dates as D.M.YYYY)',
    'product-line': 'VARCHAR',
    'Revenue $': 'DOUBLE',
    Discount: 'DOUBLE',
  });

  const clients = await load('clients', 'clients.json');
  assert.equal(clients.code, 0, clients.stderr);
  assert.deepEqual(columnsOf(clients.stdout), {
    'Customer ID': 'BIGINT',
    'Customer Name': 'VARCHAR',
    Segment: 'VARCHAR',
    'Signed Up': 'DATE  (dates as MMM D YYYY)',
  });

  const returns = await load('returns', 'returns.ndjson');
  assert.equal(returns.code, 0, returns.stderr);
  assert.deepEqual(columnsOf(returns.stdout), { 'Order ID': 'BIGINT', 'Returned On': 'DATE  (dates as M/D/YYYY)', Reason: 'VARCHAR' });

  // 1/9/2024 is the 9th of January by detection, the 1st of September when the user says so.
  fs.writeFileSync(file('returns-eu.ndjson'), '{"Order ID":3,"Returned On":"1/9/2024","Reason":"late"}\n');
  const eu = await load('returns_eu', 'returns-eu.ndjson', '--date-format', 'D/M/YYYY');
  assert.equal(eu.code, 0, eu.stderr);
  assert.equal(columnsOf(eu.stdout)['Returned On'], 'DATE  (dates as D/M/YYYY)');

  // A tie between `,` and `|` in the header goes to `,`; --delimiter says otherwise.
  fs.writeFileSync(file('scores.csv'), 'Last, First|Score\nLovelace, Ada|9\n');
  const scores = await load('scores', 'scores.csv', '--delimiter', '|');
  assert.equal(scores.code, 0, scores.stderr);
  assert.deepEqual(columnsOf(scores.stdout), { 'Last, First': 'VARCHAR', Score: 'BIGINT' });
  assert.equal((await load('scores', 'scores.csv', '--delimiter', 'ab')).code, 2);

  const check = await runCli(['model', 'check'], env());
  assert.equal(check.code, 0, check.stderr);
  assert.doesNotMatch(check.stderr, /warning/);
});

test('a value that does not read is exit 1 naming line and column; nothing is loaded (the sums below still count 5 orders)', {
  skip: EMBEDDED_ONLY,
}, async () => {
  // Later loads read with the table's types: 30.2.2024 is no date.
  fs.writeFileSync(
    file('more.csv'),
    'Order ID;Customer ID;Order Date;product-line;Revenue $;Discount\r\n6;10;1.3.2024;Books;1,00;0\r\n7;10;30.2.2024;Books;2,00;0\r\n',
  );
  const bad = await load('sales', 'more.csv');
  assert.equal(bad.code, 1, bad.stdout);
  assert.match(bad.stderr, /Line 3, column Order Date: "30\.2\.2024" is not a valid DATE \(its dates read as D\.M\.YYYY/);
  // A JSON array as exporters indent it: the line of the object holding the bad value.
  fs.writeFileSync(
    file('more-clients.json'),
    '[\n  {"Customer ID": 13, "Customer Name": "Dot", "Segment": "Retail", "Signed Up": "Feb 02 2003"},\n  {"Customer ID": 14, "Customer Name": "Eve", "Segment": "Retail", "Signed Up": "Feb 30 2003"}\n]\n',
  );
  const json = await load('clients', 'more-clients.json');
  assert.equal(json.code, 1, json.stdout);
  assert.match(json.stderr, /Line 3, column Signed Up: "Feb 30 2003" is not a valid DATE \(its dates read as MMM D YYYY/);
  const options = await load('sales', 'more.csv', '--date-format', 'Q');
  assert.equal(options.code, 2, 'a usage error');
  assert.match(options.stderr, /--date-format: Cannot read the date format "Q"/);
});

test("execute answers with the files' sums, through a join on quoted columns", { skip: EMBEDDED_ONLY }, async () => {
  // The API loads only into tables a cube reads: the server's model also reads the visits loaded below.
  // (a model directory: its files are merged).
  fs.mkdirSync(file('model-dir'), { recursive: true });
  fs.writeFileSync(path.join(file('model-dir'), 'sales.yml'), MODEL);
  fs.writeFileSync(path.join(file('model-dir'), 'visits.yml'), VISITS_CUBE);
  server = await startServer(path.join(dir, 'data'), 90_000, { INSIGHTS_MODEL: file('model-dir') });
  const token = /owner token for tenant "demo" \(shown once, keep it\):\n\n {2}(\S+)/.exec(server.output())?.[1];
  assert.ok(token, server.output());
  const auth = { authorization: `Svc ${token}` };
  const get = async (p: string) => {
    const res = await fetch(`${server!.url}${p}`, { headers: auth });
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { data: { rows: Record<string, unknown>[] } }).data.rows;
  };
  const monthly = await get('/api/v1/insights/revenue/execute?granularity=month&date_from=2024-01-01&date_to=2024-03-31');
  assert.deepEqual(
    monthly.map((r) => [String(r.period).slice(0, 7), r.revenue, r.orders]),
    [
      ['2024-01', 42.5, 2],
      ['2024-02', 7.25, 2],
      ['2024-03', 100.1, 1],
    ],
  );
  const byCustomer = await get('/api/v1/insights/revenue_by_customer/execute?date_from=2024-01-01&date_to=2024-12-31');
  assert.deepEqual(Object.fromEntries(byCustomer.map((r) => [r.customer, [r.revenue, r.discounted_orders]])), {
    'Ada Books': [19.75, 0],
    'Bit Games': [130.1, 2],
    'Toy Box': [0, 0],
  });
  // The empty Segment ("") is NULL, not a value.
  assert.deepEqual(await get('/api/v1/insights/revenue_by_customer/execute?date_from=2024-01-01&date_to=2024-12-31&segment=Retail'), [
    { customer: 'Ada Books', revenue: 19.75, discounted_orders: 0 },
  ]);

  // Over HTTP: a JSON array body, the date format as a query parameter, column → type in the answer.
  const post = (table: string, query: string, type: string, body: string) =>
    fetch(`${server!.url}/api/v1/data/${table}${query}`, { method: 'POST', headers: { ...auth, 'content-type': type }, body });
  const up = await post(
    'visits',
    '?date_format=D.M.YYYY',
    'application/json',
    JSON.stringify([
      { Day: '1.2.2024', 'Page Views': 3 },
      { Day: '2.2.2024', 'Page Views': '' },
    ]),
  );
  assert.equal(up.status, 200, await up.clone().text());
  assert.deepEqual(await up.json(), {
    table: 'visits',
    mode: 'append',
    rows_loaded: 2,
    columns: [
      // The model's types: Day is a time dimension, Page Views a sum (docs/data.md "The schema belongs to the model").
      { name: 'Day', type: 'TIMESTAMP', date_format: 'D.M.YYYY' },
      { name: 'Page Views', type: 'DOUBLE' },
    ],
  });
  const tables = (await (await fetch(`${server.url}/api/v1/data/tables`, { headers: auth })).json()) as {
    tables: { name: string; columns: { name: string; type: string }[] }[];
  };
  assert.deepEqual(
    tables.tables.find((t) => t.name === 'sales')!.columns.map((c) => `${c.name} ${c.type}`),
    ['Order ID BIGINT', 'Customer ID BIGINT', 'Order Date DATE', 'product-line VARCHAR', 'Revenue $ DOUBLE', 'Discount DOUBLE'],
  );
  const semi = await post(
    'sales',
    '',
    'text/csv',
    'Order ID;Customer ID;Order Date;product-line;Revenue $;Discount\n8;10;31.4.2024;Books;1,00;0\n',
  );
  assert.equal(semi.status, 400);
  const problem = (await semi.json()) as { code: string; detail: string; errors: { path: string }[] };
  assert.equal(problem.code, 'DATA_ROW_INVALID');
  assert.match(problem.detail, /^Line 2, column Order Date: "31\.4\.2024" is not a valid DATE/);
  assert.deepEqual(
    problem.errors.map((e) => e.path),
    ['/body/2/Order Date'],
  );
  const tabbed = await post('tabbed', '?delimiter=tab', 'text/csv', 'Region Name\tRevenue $\nNorth\t1\n');
  assert.equal(tabbed.status, 200, await tabbed.clone().text());
  assert.deepEqual(((await tabbed.json()) as { columns: unknown }).columns, [
    { name: 'Region Name', type: 'VARCHAR' },
    { name: 'Revenue $', type: 'DOUBLE' },
  ]);
  // Both options are declared in the OpenAPI document, as is the JSON array body.
  const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, { post?: { parameters: { name: string; in: string }[]; requestBody: { content: Record<string, unknown> } } }>;
  };
  const op = doc.paths['/api/v1/data/{table}'].post!;
  assert.deepEqual(
    op.parameters
      .filter((p) => p.in === 'query')
      .map((p) => p.name)
      .sort(),
    ['date_format', 'delimiter', 'mode'],
  );
  assert.ok(op.requestBody.content['application/json']);
  const wrong = await post('sales', '?date_format=QQ', 'text/csv', 'a\n1\n');
  assert.equal(wrong.status, 400);
  assert.deepEqual(
    ((await wrong.json()) as { errors: { path: string }[] }).errors.map((e) => e.path),
    ['/query/date_format'],
  );
});
