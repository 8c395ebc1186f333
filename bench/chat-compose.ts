// The chat benchmark's composition table (eval/compose.ts): per example dataset and language, the
// composition questions answered right, refused and answered wrong, each judged against the rows
// of the semantic query that means it, on the dataset's data (the demo seeded to the set's day,
// examples/subscriptions and the vega-datasets examples' files as shipped) and the day the
// questions count from.
import crypto from 'node:crypto';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/index.ts';
import { PGliteDb } from '../src/db/index.ts';
import { migrate } from '../src/db/migrate.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { SecretBox } from '../src/lib/secrets.ts';
import { TokensRepository } from '../src/modules/tokens/tokens.repository.ts';
import { TokensService } from '../src/modules/tokens/tokens.service.ts';
import { DuckDbWarehouse } from '../src/warehouse/duckdb/duckdb.ts';
import { seedDemo } from '../src/warehouse/demo/demo.ts';
import { composeSets, loadSetData, runSet, type ComposeSet } from '../eval/compose.ts';

const ROOT = path.join(import.meta.dirname, '..');

async function runOne(name: string, set: ComposeSet): Promise<{ rows: string[]; wrong: string[] }> {
  const now = new Date(`${set.today}T10:00:00Z`);
  const warehouse = await DuckDbWarehouse.open(':memory:');
  if (set.model) await loadSetData(warehouse, set, 'demo');
  else await seedDemo(warehouse, { rows: 20_000, tenants: ['demo'], endDay: set.today, now });
  const db = await PGliteDb.open({});
  await migrate(db);
  const config = loadConfig({
    INSIGHTS_DATA_DIR: '/nonexistent',
    INSIGHTS_RATE_LIMIT: '1000000',
    INSIGHTS_CHAT_RATE_LIMIT: '1000000',
    ...(set.model ? { INSIGHTS_MODEL: path.join(ROOT, set.model) } : {}),
  });
  const clock = new ManualClock(now);
  const app = await buildApp({ config, db, clock, secrets: new SecretBox(crypto.randomBytes(32)), warehouse, logger: false });
  await app.ready();
  const { token } = await new TokensService(new TokensRepository(db), clock).create({
    tenantId: 'demo',
    userId: 'bench',
    name: 'bench',
    role: 'member',
  });
  try {
    const { table, wrong } = await runSet(async (method, url, body) => {
      const res = await app.inject({
        method,
        url,
        headers: { authorization: `Svc ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      return { status: res.statusCode, body: JSON.parse(res.body) };
    }, set);
    const rows = [...table].map(([lang, t]) => `| ${name} | ${lang} | ${t.right} | ${t.refused} | ${t.wrong} |`);
    const all = [...table.values()].reduce((a, t) => ({
      right: a.right + t.right,
      refused: a.refused + t.refused,
      wrong: a.wrong + t.wrong,
    }));
    rows.push(`| ${name} | all | ${all.right} | ${all.refused} | ${all.wrong} |`);
    return { rows, wrong };
  } finally {
    await app.close();
    await db.close();
    await warehouse.close();
  }
}

/** Prints right / refused / wrong per dataset and language; a wrong answer is listed under the table. */
export async function composeAccuracy(): Promise<void> {
  console.log('\nChat composition (eval/compose-questions.json): answers judged against POST /api/v1/query, per dataset and language:');
  console.log('| dataset | language | right | refused | wrong |');
  console.log('|---|---|---|---|---|');
  const wrong: string[] = [];
  for (const [name, set] of Object.entries(composeSets)) {
    const r = await runOne(name, set);
    for (const row of r.rows) console.log(row);
    wrong.push(...r.wrong);
  }
  for (const w of wrong) console.log(`  wrong: ${w}`);
}
