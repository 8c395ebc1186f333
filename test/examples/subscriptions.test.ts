// The second example, examples/subscriptions/, end to end as a new user meets it: the model
// checks, its data files load through the CLI into a fresh data dir, the server starts on the
// model, and execute and chat answer with figures equal to sums computed here from the files.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { EMBEDDED_ONLY, migratedDataDir, ROOT, runCli, startServer, type RunningServer } from '../helpers/process.ts';

const EXAMPLE = path.join(ROOT, 'examples/subscriptions');
const MODEL = path.join(EXAMPLE, 'model.yml');

type Row = Record<string, string>;
const readCsv = (file: string): Row[] => {
  const [header, ...lines] = fs.readFileSync(path.join(EXAMPLE, file), 'utf8').trimEnd().split('\n');
  const cols = header.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
};
const plans = readCsv('plans.csv');
const accounts = readCsv('accounts.csv');
const invoices = fs
  .readFileSync(path.join(EXAMPLE, 'invoices.ndjson'), 'utf8')
  .trimEnd()
  .split('\n')
  .map((l) => JSON.parse(l) as { account_id: number; invoiced_at: string; amount: number });
const planOf = (accountId: string | number) =>
  plans.find((p) => p.plan_id === accounts.find((a) => a.account_id === String(accountId))!.plan_id)!.plan;
const round2 = (n: number) => Math.round(n * 100) / 100;

let dir: string;
let server: RunningServer | undefined;
let auth: Record<string, string>;

before(async () => {
  if (EMBEDDED_ONLY) return;
  dir = await migratedDataDir('insights-example-subs-');
});

after(async () => {
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('model check, then the data files load through the CLI', { skip: EMBEDDED_ONLY }, async () => {
  const env = { INSIGHTS_DATA_DIR: dir };
  const check = await runCli(['model', 'check', '--model', MODEL], env);
  assert.equal(check.code, 0, check.stderr);
  assert.match(check.stdout, /valid — 3 cubes, 8 insights/);
  // Before any load the tables are missing: warnings, not errors.
  assert.match(check.stderr, /cubes\[0\]\.sql_table: the warehouse cannot read it/);

  for (const [table, file, rows] of [
    ['plans', 'plans.csv', plans.length],
    ['accounts', 'accounts.csv', accounts.length],
    ['invoices', 'invoices.ndjson', invoices.length],
  ] as const) {
    const res = await runCli(['data', 'load', '--table', table, '--file', path.join(EXAMPLE, file), '--tenant', 'demo'], env);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, new RegExp(`Loaded ${rows} rows .* into ${table} for tenant demo`));
  }
  const again = await runCli(['model', 'check'], { ...env, INSIGHTS_MODEL: MODEL });
  assert.equal(again.code, 0, again.stderr);
  assert.doesNotMatch(again.stderr, /warning/);
});

test('the server on the model: execute returns the sums of the data files', { skip: EMBEDDED_ONLY }, async () => {
  server = await startServer(dir, 90_000, { INSIGHTS_MODEL: MODEL, LOG_LEVEL: 'info' });
  const token = /owner token for tenant "demo" \(shown once, keep it\):\n\n {2}(\S+)/.exec(server.output())?.[1];
  assert.ok(token, server.output());
  auth = { authorization: `Svc ${token}` };
  assert.doesNotMatch(server.output(), /Generated the demo warehouse/);

  const get = async (p: string) => {
    const res = await fetch(`${server!.url}${p}`, { headers: auth });
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { data: { rows: Record<string, unknown>[] } }).data;
  };

  const mrr = await get('/api/v1/insights/mrr/execute?granularity=month&date_from=2025-01-01&date_to=2025-12-31');
  assert.equal(mrr.rows.length, 12);
  for (const row of mrr.rows) {
    const month = String(row.period).slice(0, 7);
    const mine = invoices.filter((i) => i.invoiced_at.startsWith(month));
    assert.equal(row.mrr, round2(mine.reduce((s, i) => s + i.amount, 0)), month);
    assert.equal(row.invoices, mine.length, month);
  }

  const churned = await get('/api/v1/insights/churned_accounts_by_plan/execute?date_from=2025-01-01&date_to=2026-12-31');
  const expected = new Map<string, number>();
  for (const a of accounts) if (a.churned_at) expected.set(planOf(a.account_id), (expected.get(planOf(a.account_id)) ?? 0) + 1);
  assert.deepEqual(new Map(churned.rows.map((r) => [r.plan as string, r.churned_accounts as number])), expected);

  const healthcare = await get('/api/v1/insights/mrr_by_plan/execute?date_from=2025-01-01&date_to=2026-12-31&industry=Healthcare');
  for (const row of healthcare.rows) {
    const mine = invoices.filter(
      (i) => planOf(i.account_id) === row.plan && accounts.find((a) => a.account_id === String(i.account_id))!.industry === 'Healthcare',
    );
    assert.equal(row.mrr, round2(mine.reduce((s, i) => s + i.amount, 0)), String(row.plan));
  }
  assert.ok(healthcare.rows.length > 0);
});

test("chat answers in the model's own words, with the same figures", { skip: EMBEDDED_ONLY }, async () => {
  const ask = async (message: string) => {
    const res = await fetch(`${server!.url}/api/v1/ai/chat`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    return (
      (await res.json()) as {
        data: { insight_code: string | null; query: Record<string, unknown> | null; rows: Record<string, unknown>[]; reply_text: string };
      }
    ).data;
  };

  const byMonth = await ask('MRR by month in 2025');
  assert.equal(byMonth.insight_code, 'mrr');
  assert.equal(byMonth.query!.granularity, 'month');
  const total2025 = round2(invoices.filter((i) => i.invoiced_at.startsWith('2025')).reduce((s, i) => s + i.amount, 0));
  assert.equal(round2(byMonth.rows.reduce((s, r) => s + Number(r.mrr), 0)), total2025);
  assert.match(
    byMonth.reply_text,
    new RegExp(new Intl.NumberFormat('en-US', { minimumFractionDigits: 2 }).format(total2025).replace(/\./g, '\\.')),
  );

  const churned = await ask('churned accounts by plan since 2025-01-01');
  assert.equal(churned.insight_code, 'churned_accounts_by_plan');
  const starter = accounts.filter((a) => a.churned_at && planOf(a.account_id) === 'Starter').length;
  assert.equal(churned.rows.find((r) => r.plan === 'Starter')?.churned_accounts, starter);

  // A plan named as a filter value, found in the tenant's data.
  const enterprise = await ask('MRR of the Enterprise plan by quarter in 2025');
  assert.match(enterprise.reply_text, /^MRR for plan Enterprise from 2025-01-01/, server!.output());
  assert.equal(enterprise.insight_code, 'mrr');
  assert.deepEqual(enterprise.query!.filters, { plan: 'Enterprise' });
  const ent2025 = round2(
    invoices.filter((i) => i.invoiced_at.startsWith('2025') && planOf(i.account_id) === 'Enterprise').reduce((s, i) => s + i.amount, 0),
  );
  assert.equal(round2(enterprise.rows.reduce((s, r) => s + Number(r.mrr), 0)), ent2025);

  const top = await ask('top 3 accounts in 2025');
  assert.equal(top.insight_code, 'top_accounts');
  assert.equal(top.rows.length, 3);

  const total = await ask('total MRR in 2025');
  assert.equal(total.insight_code, 'mrr_kpi');
  assert.equal(total.rows[0].value, total2025);

  const help = await ask('what is the weather like?');
  assert.equal(help.insight_code, null);
  assert.match(help.reply_text, /MRR, MRR total, MRR by plan/);
  // The plans found in the data, as filter values.
  assert.match(help.reply_text, /plan \((?=[^)]*Starter)(?=[^)]*Team)(?=[^)]*Business)(?=[^)]*Enterprise)[^)]*\)/);
  assert.match(help.reply_text, /by month, quarter or year\. For example: "MRR by month in the last 3 months"/);
});

test('values loaded later are known to chat at once: the cache follows the data version', { skip: EMBEDDED_ONLY }, async () => {
  const ask = async (message: string) => {
    const res = await fetch(`${server!.url}/api/v1/ai/chat`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    });
    type Answer = { query: { filters?: Record<string, string> } | null; rows: Record<string, unknown>[]; reply_text: string };
    return ((await res.json()) as { data: Answer }).data;
  };
  // Before the load no industry is called Logistics: refused by that name, never answered without the filter.
  const before = await ask('MRR in Logistics by month in 2026');
  assert.equal(before.query, null, JSON.stringify(before));
  assert.match(before.reply_text, /Logistics/);

  const post = async (table: string, type: string, body: string) => {
    const res = await fetch(`${server!.url}/api/v1/data/${table}`, { method: 'POST', headers: { ...auth, 'content-type': type }, body });
    assert.equal(res.status, 200, await res.text());
  };
  await post(
    'accounts',
    'text/csv',
    'account_id,company,industry,plan_id,signed_up_at,churned_at\n999,Zeta Freight,Logistics,1,2026-02-10,\n',
  );
  await post('invoices', 'application/x-ndjson', '{"invoice_id":9999,"account_id":999,"invoiced_at":"2026-03-01","amount":50.5}\n');

  const after = await ask('MRR in Logistics by month in 2026');
  assert.deepEqual(after.query!.filters, { industry: 'Logistics' });
  assert.equal(
    after.rows.reduce((s, r) => s + Number(r.mrr), 0),
    50.5,
  );
});

test('model check lists widgets whose insight the model lacks; a running server is a warning, not a failure', {
  skip: EMBEDDED_ONLY,
}, async () => {
  const dash = await fetch(`${server!.url}/api/v1/dashboards`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Board' }),
  });
  assert.equal(dash.status, 201);
  const dashId = ((await dash.json()) as { id: string }).id;
  const w = await fetch(`${server!.url}/api/v1/dashboards/${dashId}/widgets`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'MRR', widget_type: 'chart', data_source: 'live_insight', insight_code: 'mrr' }),
  });
  assert.equal(w.status, 201, await w.clone().text());

  const locked = await runCli(['model', 'check'], { INSIGHTS_DATA_DIR: dir, INSIGHTS_MODEL: MODEL });
  assert.equal(locked.code, 0, locked.stderr);
  assert.match(locked.stderr, /warning: widgets and subscriptions were not checked: .*in use by another process/);

  server!.child.kill('SIGTERM');
  await server!.exited;
  server = undefined;
  const ok = await runCli(['model', 'check'], { INSIGHTS_DATA_DIR: dir, INSIGHTS_MODEL: MODEL });
  assert.equal(ok.code, 0, ok.stderr);
  assert.doesNotMatch(ok.stderr, /warning/);
  // The demo model has no "mrr": the widget would answer 409 INSIGHT_NOT_IN_MODEL.
  const demo = await runCli(['model', 'check', '--model', path.join(ROOT, 'models/demo.yml')], { INSIGHTS_DATA_DIR: dir });
  assert.equal(demo.code, 0, demo.stderr);
  assert.match(
    demo.stderr,
    /warning: widget \S+ "MRR" of dashboard "Board" \(tenant demo\) uses the insight "mrr", which the model does not define/,
  );
});
