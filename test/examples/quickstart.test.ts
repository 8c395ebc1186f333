// The README's "From a CSV to answers in four commands", pasted into bash as written: a CSV as
// spreadsheets export it (headers with spaces, `$`, hyphens, CRLF) loads through the CLI, `model
// init` writes a starter model that `model check` passes, the server starts on it, and the chat
// answer and execute figures equal sums computed here from the file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { EMBEDDED_ONLY, migratedDataDir, ROOT, runCli, startServer, type RunningServer } from '../helpers/process.ts';

const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const missing = ['bash', 'curl', 'jq'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

/** The section's shell block: the lines before `npm start`, that line, and the lines after. */
function block(): { setup: string; start: string; ask: string } {
  const from = README.indexOf('## From a CSV to answers in four commands');
  assert.ok(from > 0, 'the README has the four-command section');
  const text = /```shell\n([\s\S]*?)```/.exec(README.slice(from))![1];
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.includes('npm start'));
  return { setup: lines.slice(0, at).join('\n'), start: lines[at], ask: lines.slice(at + 1).join('\n') };
}

const csv = fs.readFileSync(path.join(ROOT, 'examples/quickstart/sales.csv'), 'utf8').trimEnd().split(/\r\n/);
const header = csv[0].split(',');
const rows = csv.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i], v])));
const sumBy = (key: string, value: string) => {
  const out = new Map<string, number>();
  for (const r of rows) out.set(r[key], Math.round(((out.get(r[key]) ?? 0) + Number(r[value])) * 100) / 100);
  return out;
};
const money = (n: number) => new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);

let work: string;
let dataDir: string;
let server: RunningServer | undefined;

before(async () => {
  if (EMBEDDED_ONLY) return;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-quickstart-work-'));
  fs.symlinkSync(path.join(ROOT, 'examples'), path.join(work, 'examples'));
  // The embedded database from the test template: creating one costs seconds of CPU.
  dataDir = await migratedDataDir('insights-quickstart-');
});

after(async () => {
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (work) fs.rmSync(work, { recursive: true, force: true });
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('the four commands, pasted: load, init, check, start, ask', {
  skip: missing.length ? `needs ${missing.join(', ')} on PATH` : EMBEDDED_ONLY,
}, async () => {
  const { setup, start, ask } = block();
  assert.match(setup, /^export INSIGHTS_DATA_DIR=\.\/data-quickstart$/m);
  // `npx insights` of this checkout (a fresh directory has no package.json to resolve it from).
  const npx = `npx() { if [ "$1" = insights ]; then shift; node ${JSON.stringify(path.join(ROOT, 'bin/insights.js'))} "$@"; else command npx "$@"; fi; }`;
  const script = `${npx}\n${setup.replace('./data-quickstart', dataDir)}`;
  const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { cwd: work, encoding: 'utf8', timeout: 120_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /Loaded 160 rows .* into sales for tenant demo/);
  assert.match(run.stdout, /Wrote sales\.yml \(1 cube, \d+ insights\)/);
  const yaml = fs.readFileSync(path.join(work, 'sales.yml'), 'utf8');
  assert.match(yaml, /sql: '\{CUBE\}\."Cost Total \$"'/);
  assert.match(yaml, /sql: '\{CUBE\}\."product-line"'/);
  assert.match(yaml, /^# Everything here is a guess from the data\. Edit it/m);

  const check = await runCli(['model', 'check', '--model', path.join(work, 'sales.yml')], { INSIGHTS_DATA_DIR: dataDir });
  assert.equal(check.code, 0, check.stderr);
  assert.doesNotMatch(check.stderr, /warning/);

  const settings = Object.fromEntries([...start.matchAll(/(INSIGHTS_[A-Z_]+)=(\S+)/g)].map((m) => [m[1], path.resolve(work, m[2])]));
  assert.deepEqual(Object.keys(settings), ['INSIGHTS_MODEL']);
  server = await startServer(dataDir, 90_000, { ...settings, LOG_LEVEL: 'info' });
  const token = /owner token for tenant "demo" \(shown once, keep it\):\n\n {2}(\S+)/.exec(server.output())?.[1];
  assert.ok(token, server.output());
  assert.doesNotMatch(server.output(), /"level":(40|50).*model:/, 'no model warnings at start');

  const asked = spawnSync('bash', ['-euo', 'pipefail', '-c', ask.replace(/http:\/\/127\.0\.0\.1:8080/g, server.url)], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, TOKEN: token },
    timeout: 60_000,
  });
  assert.equal(asked.status, 0, asked.stderr);
  const byRegion = [...sumBy('Region', 'Revenue $')].sort((a, b) => b[1] - a[1]);
  const total = [...byRegion].reduce((s, [, v]) => s + v, 0);
  assert.match(
    asked.stdout.trim(),
    new RegExp(
      `^Revenue by Region from 2025-01-01 to 2025-12-31: ${byRegion[0][0]} leads with ${money(byRegion[0][1]).replace('.', '\\.')} revenue`,
    ),
  );
  assert.match(asked.stdout, new RegExp(`of the ${money(total).replace('.', '\\.')} shown`));
  // What the README's comment promises is what came back.
  assert.ok(README.includes(`# → ${asked.stdout.trim().slice(0, 80)}`), asked.stdout);

  const get = async (p: string) => {
    const res = await fetch(`${server!.url}${p}`, { headers: { authorization: `Svc ${token}` } });
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { data: { rows: Record<string, unknown>[] } }).data.rows;
  };
  const year = 'date_from=2025-01-01&date_to=2025-12-31';
  const cost = await get(`/api/v1/insights/cost_total_by_product_line/execute?${year}`);
  assert.deepEqual(new Map(cost.map((r) => [r.product_line, r.cost_total])), sumBy('product-line', 'Cost Total $'));
  const units = await get(`/api/v1/insights/units_kpi/execute?${year}&region=North`);
  assert.equal(
    units[0].value,
    rows.filter((r) => r.Region === 'North').reduce((s, r) => s + Number(r.Units), 0),
  );
  const customers = await get(`/api/v1/insights/customers_kpi/execute?${year}`);
  assert.equal(customers[0].value, new Set(rows.map((r) => r['Customer ID'])).size);
});
