// Benchmark: chat without an AI connector (the built-in parser) on the demo data that a first
// `npm start` generates (DEFAULT_SEED_ROWS orders, embedded PGlite + DuckDB). Target: median < 50 ms.
// Each question of the eval set (follow-ups excluded) is asked once with the engine's result cache
// cold, then BENCH_ROUNDS more times warm. Run: npm run bench -- chat
import crypto from 'node:crypto';
import fs from 'node:fs';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/index.ts';
import { PGliteDb } from '../src/db/index.ts';
import { migrate } from '../src/db/migrate.ts';
import { systemClock } from '../src/lib/clock.ts';
import { SecretBox } from '../src/lib/secrets.ts';
import { TokensRepository } from '../src/modules/tokens/tokens.repository.ts';
import { TokensService } from '../src/modules/tokens/tokens.service.ts';
import { DuckDbWarehouse } from '../src/warehouse/duckdb.ts';
import { DEFAULT_SEED_ROWS, DEFAULT_TENANTS, seedDemo } from '../src/warehouse/demo.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROWS = Number(process.env.BENCH_ROWS ?? DEFAULT_SEED_ROWS);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${pct(s, 50).toFixed(1)} ms, p95 ${pct(s, 95).toFixed(1)} ms, max ${s.at(-1)!.toFixed(1)} ms (n=${s.length})`;
};

export async function run(): Promise<void> {
  const questions = (JSON.parse(fs.readFileSync(new URL('../eval/chat-questions.json', import.meta.url), 'utf8')).questions as { q: string; history?: string[] }[])
    .filter((x) => !x.history)
    .map((x) => x.q);
  const now = new Date();
  process.stdout.write(`Seeding ${ROWS.toLocaleString('en')} demo orders … `);
  const warehouse = await DuckDbWarehouse.open(':memory:');
  await seedDemo(warehouse, { rows: ROWS, tenants: DEFAULT_TENANTS, endDay: now.toISOString().slice(0, 10), now });
  process.stdout.write('done\n');
  const db = await PGliteDb.open({});
  await migrate(db);
  const config = loadConfig({ INSIGHTS_DATA_DIR: '/nonexistent', INSIGHTS_RATE_LIMIT: '1000000', INSIGHTS_CHAT_RATE_LIMIT: '1000000' });
  const app = await buildApp({ config, db, clock: systemClock, secrets: new SecretBox(crypto.randomBytes(32)), warehouse, logger: false });
  await app.ready();
  const { token } = await new TokensService(new TokensRepository(db), systemClock).create({ tenantId: 'demo', userId: 'bench', name: 'bench', role: 'member' });
  const ask = async (message: string): Promise<number> => {
    const t0 = performance.now();
    const res = await app.inject({ method: 'POST', url: '/api/v1/ai/chat', headers: { authorization: `Svc ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify({ message }) });
    const ms = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`${message} → ${res.statusCode} ${res.body}`);
    return ms;
  };
  await ask('revenue today'); // warm-up: JIT, the tenant's category list

  const cold: number[] = [];
  for (const q of questions) cold.push(await ask(q));
  const warm: number[] = [];
  for (let r = 0; r < ROUNDS; r++) for (const q of questions) warm.push(await ask(q));
  const all = [...cold, ...warm];

  console.log(`\nChat without a connector, ${questions.length} questions, ${ROWS.toLocaleString('en')} orders, in-process (app.inject):`);
  console.log(`  first ask (engine cache cold): ${stats(cold)}`);
  console.log(`  repeated (engine cache warm):  ${stats(warm)}`);
  console.log(`  all:                           ${stats(all)}   target: median < 50 ms → ${pct([...all].sort((a, b) => a - b), 50) < 50 ? 'met' : 'NOT met'}`);
  await app.close();
  await db.close();
  await warehouse.close();
}
