// `insights model check` and start-up as real processes: every problem listed with file, line and
// path and exit 1; a valid model exits 0 even when the warehouse lacks its tables (warnings); the
// server refuses to start with an invalid model, without a stack trace.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { EMBEDDED_ONLY, migratedDataDir, runCli, startServer, tempDataDir } from '../helpers/process.ts';
import { SHOP_MODEL } from './shop-model.ts';

const VALID = `
cubes:
  - name: plans
    sql_table: plans
    tenant_column: account
    measures: [{ name: mrr, type: sum, sql: monthly_price, format: money }]
    dimensions:
      - { name: started_at, type: time, sql: started_at }
      - { name: tier, type: string, sql: tier }
insights:
  - { code: mrr, kind: timeseries, measures: [plans.mrr], time_dimension: plans.started_at, filters: [plans.tier] }
`;

test('model check: errors exit 1 with every problem located; a valid model without data exits 0 with warnings', {
  skip: EMBEDDED_ONLY,
}, async () => {
  const dir = tempDataDir('insights-model-');
  try {
    const bad = path.join(dir, 'bad.yml');
    fs.writeFileSync(bad, VALID.replace('sum, sql: monthly_price', 'total, sql: monthly_price').replace('plans.tier]', 'plans.colour]'));
    const r1 = await runCli(['model', 'check', '--model', bad], { INSIGHTS_DATA_DIR: dir });
    assert.equal(r1.code, 1, r1.stderr);
    assert.match(
      r1.stderr,
      new RegExp(
        `${bad}:6 +cubes\\[0\\]\\.measures\\[0\\]\\.type: must be one of: count, count_distinct, sum, avg, min, max, number, not "total"`,
      ),
    );
    // The malformed measure is left out, the rest is still checked: the filter's reference too.
    assert.match(r1.stderr, /: 2 problems:/);
    assert.match(r1.stderr, /:11 +insights\[0\]\.filters\[0\]: "colour" is not a dimension of cube plans/);
    assert.doesNotMatch(r1.stderr, /"mrr" is not a measure/);
    assert.doesNotMatch(r1.stderr, /^\s+at /m);

    fs.writeFileSync(bad, VALID.replace('plans.tier]', 'plans.colour]').replace('[plans.mrr]', '[plans.arr]'));
    const r2 = await runCli(['model', 'check', '--model', bad], { INSIGHTS_DATA_DIR: dir });
    assert.equal(r2.code, 1);
    assert.match(r2.stderr, /2 problems/);
    assert.match(r2.stderr, /:11 +insights\[0\]\.measures\[0\]: "arr" is not a measure of cube plans/);
    assert.match(r2.stderr, /:11 +insights\[0\]\.filters\[0\]: "colour" is not a dimension of cube plans/);

    const good = path.join(dir, 'good.yml');
    fs.writeFileSync(good, VALID);
    const r3 = await runCli(['model', 'check', '--model', good], { INSIGHTS_DATA_DIR: dir });
    assert.equal(r3.code, 0, r3.stderr);
    assert.match(r3.stdout, /valid — 1 cubes, 1 insights, 1 warning/);
    assert.match(r3.stderr, /warning: .*good\.yml:4 +cubes\[0\]\.sql_table: the warehouse cannot read it/);

    const demo = await runCli(['model', 'check'], { INSIGHTS_DATA_DIR: dir });
    assert.equal(demo.code, 0, demo.stderr);
    assert.match(demo.stdout, /the built-in demo model: valid — 6 cubes, 14 insights/);

    const serve = await runCli(['serve'], { INSIGHTS_DATA_DIR: dir, INSIGHTS_MODEL: bad, PORT: '0' });
    assert.equal(serve.code, 1);
    assert.match(serve.stderr, /The model is invalid \(2 problems\)/);
    assert.doesNotMatch(serve.stderr, /^\s+at /m);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("serve with INSIGHTS_MODEL: no demo data, warnings for tables not loaded, the model's catalog, 409 until data comes", {
  skip: EMBEDDED_ONLY,
}, async () => {
  const dir = await migratedDataDir('insights-model-serve-');
  const file = path.join(dir, 'shops.yml');
  fs.writeFileSync(file, SHOP_MODEL);
  const server = await startServer(dir, 90_000, { INSIGHTS_MODEL: file, LOG_LEVEL: 'info' });
  try {
    const token = /owner token for tenant "demo" \(shown once, keep it\):\n\n {2}(\S+)/.exec(server.output())?.[1];
    assert.ok(token, server.output());
    const get = async (p: string) => {
      const res = await fetch(`${server.url}${p}`, { headers: { authorization: `Svc ${token}` } });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> & { code?: string } };
    };
    const list = await get('/api/v1/insights');
    assert.deepEqual(
      (list.body as unknown as { code: string }[]).map((c) => c.code),
      ['by_region', 'units_per_ticket', 'amount_kpi', 'per_ticket_kpi', 'best_regions'],
    );
    const r = await get('/api/v1/insights/by_region/execute');
    assert.equal(r.status, 409);
    assert.equal(r.body.code, 'DATA_NOT_LOADED');
    assert.doesNotMatch(server.output(), /Generated the demo warehouse/);
    assert.match(server.output(), /cubes\[0\]\.sql_table: the warehouse cannot read it/);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
