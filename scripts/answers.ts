// Prints the answer of every insight of the demo model and of examples/subscriptions (several cubes
// and joins) for a grid of parameters, one JSON line each, from the raw rows and from the rollups:
// run it before and after a change to the compiler or the insight engine and diff the two outputs
// (docs/query.md "One engine"). Deterministic: fixed data, fixed clock, generated_at left out.
//
//   node --import tsx scripts/answers.ts > before.jsonl
import fs from 'node:fs';
import path from 'node:path';
import { ManualClock } from '../src/lib/clock.ts';
import { InsightsService, type ExecuteParams } from '../src/modules/insights/insights.service.ts';
import { demoModel, loadModel } from '../src/semantic/model.ts';
import { seedDemo } from '../src/warehouse/demo/demo.ts';
import { DuckDbWarehouse } from '../src/warehouse/duckdb/duckdb.ts';
import { RollupStore } from '../src/warehouse/rollups/rollups.ts';

const clock = new ManualClock(new Date('2026-11-21T09:30:00Z'));
const out = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);

function grid(svc: InsightsService, values: Record<string, string[]>): { code: string; params: ExecuteParams }[] {
  const cases: { code: string; params: ExecuteParams }[] = [];
  for (const d of svc.catalog()) {
    const grans = d.granularities.length ? d.granularities : [undefined];
    const windows = [{}, { date_from: '2025-12-01', date_to: '2026-02-28' }, { date_from: '2026-10-01', date_to: '2026-11-21' }];
    for (const g of grans)
      for (const w of windows)
        for (const compare of [undefined, 'previous_period', 'previous_year']) {
          const base: ExecuteParams = { ...(g ? { granularity: g } : {}), ...w, ...(compare ? { compare } : {}) };
          cases.push({ code: d.code, params: base });
          for (const f of d.filters) {
            const vals = values[f] ?? [];
            if (vals[0]) cases.push({ code: d.code, params: { ...base, [f]: vals[0] } });
            if (vals.length > 1) cases.push({ code: d.code, params: { ...base, [f]: vals.slice(0, 2) } });
          }
          if (d.default_limit) cases.push({ code: d.code, params: { ...base, limit: 3 } });
        }
  }
  return cases;
}

async function run(label: string, svc: InsightsService, tenants: string[], values: Record<string, string[]>) {
  for (const tenant of tenants) {
    for (const c of grid(svc, values)) {
      try {
        const { generated_at: _g, cached: _c, ...r } = await svc.execute(tenant, c.code, c.params);
        out({ label, tenant, ...c, r });
      } catch (err) {
        out({ label, tenant, ...c, error: (err as Error).message });
      }
    }
  }
}

const wh = await DuckDbWarehouse.open(':memory:');
await seedDemo(wh, { rows: 6000, tenants: ['demo', 'acme'], endDay: '2026-11-21', now: clock.now() });
const demo = demoModel();
const store = new RollupStore(wh, demo.rollups);
await store.build();
const demoValues = { country: ['DE', 'FR'], channel: ['web', 'mobile'], category: ['Electronics', 'Garden'] };
await run('demo', new InsightsService(wh, clock, demo), ['demo', 'acme'], demoValues);
await run('demo+rollups', new InsightsService(wh, clock, demo, store), ['demo'], demoValues);

// examples/subscriptions: its CSV and NDJSON files, read by DuckDB itself.
const dir = path.join(import.meta.dirname, '..', 'examples', 'subscriptions');
const read = (file: string) =>
  file.endsWith('.ndjson') ? `read_json_auto('${path.join(dir, file)}')` : `read_csv_auto('${path.join(dir, file)}')`;
for (const [table, file] of [
  ['plans', 'plans.csv'],
  ['accounts', 'accounts.csv'],
  ['invoices', 'invoices.ndjson'],
])
  await wh.exec(`CREATE TABLE ${table} AS SELECT 'saas' AS tenant_id, * FROM ${read(file)}`);
if (fs.existsSync(path.join(dir, 'model.yml'))) {
  const subs = loadModel(path.join(dir, 'model.yml'));
  await run('subscriptions', new InsightsService(wh, clock, subs), ['saas'], {
    plan: ['Starter', 'Team'],
    industry: ['Healthcare', 'Education'],
  });
}
await wh.close();
