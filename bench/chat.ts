// Benchmark: chat without an AI connector (the built-in parser). Two parts. (1) The parser's own
// time, without running a query: every eval question on the demo model, and the same questions on
// a generated model of 50 cubes and 500 measures (each with a title and two synonyms, an insight
// per measure); target p99 < 5 ms on each. (2) End to end on the demo data that a first `npm start`
// generates (DEFAULT_SEED_ROWS orders, embedded PGlite + DuckDB), target median < 50 ms: each
// question asked once with the engine's result cache cold, then BENCH_ROUNDS more times warm.
// Before both, the eval's accuracy per dataset (the demo, examples/subscriptions, the vega-datasets
// examples) and language, and the composition table (bench/chat-compose.ts: right, refused, wrong
// per dataset and language). Run: npm run bench -- chat   (BENCH_PARSER_ONLY=1 skips part 2)
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
import { DuckDbWarehouse } from '../src/warehouse/duckdb/duckdb.ts';
import { DEFAULT_SEED_ROWS, DEFAULT_TENANTS, seedDemo } from '../src/warehouse/demo/demo.ts';
import { modelWords, parserCatalog } from '../src/modules/chat/chat.catalog.ts';
import { parseQuestion } from '../src/modules/chat/parser/index.ts';
import { demoModel, modelFromText, type SemanticModel } from '../src/semantic/model.ts';
import { evalSet, score } from '../eval/score.ts';
import { composeAccuracy } from './chat-compose.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROWS = Number(process.env.BENCH_ROWS ?? DEFAULT_SEED_ROWS);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${pct(s, 50).toFixed(1)} ms, p95 ${pct(s, 95).toFixed(1)} ms, max ${s.at(-1)!.toFixed(1)} ms (n=${s.length})`;
};

const WORDS = [
  'revenue',
  'bookings',
  'margin',
  'refunds',
  'visits',
  'leads',
  'tickets',
  'shipments',
  'returns',
  'claims',
  'payouts',
  'signups',
  'churn',
  'usage',
  'credits',
  'fees',
  'impressions',
  'clicks',
  'installs',
  'sessions',
];

/** A model of `cubes` cubes with `perCube` measures each, every measure with a title, two synonyms and an insight. */
export function largeModel(cubes = 50, perCube = 10): SemanticModel {
  const lines: string[] = ['cubes:'];
  const insights: string[] = ['insights:'];
  for (let c = 0; c < cubes; c++) {
    const cube = `cube_${c}`;
    lines.push(`  - name: ${cube}`, `    sql_table: t_${c}`, '    tenant_column: tenant_id', '    measures:');
    for (let m = 0; m < perCube; m++) {
      const word = `${WORDS[(c + m) % WORDS.length]} ${c}-${m}`;
      lines.push(
        `      - name: m_${c}_${m}`,
        `        title: ${JSON.stringify(`Metric ${word}`)}`,
        '        type: sum',
        `        sql: v${m}`,
        `        synonyms: [${JSON.stringify(`${word} total`)}, ${JSON.stringify(`gross ${word}`)}]`,
      );
      insights.push(
        `  - code: i_${c}_${m}`,
        `    name: ${JSON.stringify(`Metric ${word}`)}`,
        `    description: ${JSON.stringify(`The ${word} per period.`)}`,
        '    kind: timeseries',
        `    measures: [${cube}.m_${c}_${m}]`,
        `    time_dimension: ${cube}.at`,
        '    granularities: [day, week, month]',
        `    filters: [${cube}.region]`,
      );
    }
    lines.push(
      '    dimensions:',
      '      - name: at',
      '        type: time',
      '        sql: at',
      '      - name: region',
      '        type: string',
      '        sql: region',
      '        synonyms: [area, territory]',
    );
  }
  return modelFromText([...lines, '', ...insights].join('\n'), 'large.yml');
}

/** The parser alone over the questions, after a warm-up round: per-question times in ms. */
function parserTimes(model: SemanticModel, questions: string[], rounds: number): number[] {
  const catalog = parserCatalog(model.insights);
  const words = modelWords(model);
  const today = new Date().toISOString().slice(0, 10);
  const categories = ['Electronics', 'Home & Kitchen', 'Fashion', 'Beauty', 'Sports', 'Toys', 'Books', 'Garden', 'Grocery', 'Pet Supplies'];
  const times: number[] = [];
  for (let r = 0; r <= rounds; r++) {
    for (const q of questions) {
      const t0 = performance.now();
      parseQuestion(q, { today, catalog, categories, words });
      if (r > 0) times.push(performance.now() - t0);
    }
  }
  return times;
}

/** The eval's questions answered right (the whole structured query), per dataset and language. */
function accuracy(): void {
  const tally = new Map<string, Map<string, { n: number; right: number }>>();
  const languages = new Set<string>();
  for (const item of evalSet.questions) {
    const model = item.model ?? 'demo';
    const language = item.language ?? 'en';
    languages.add(language);
    if (!tally.has(model)) tally.set(model, new Map());
    const row = tally.get(model)!;
    const cell = row.get(language) ?? { n: 0, right: 0 };
    cell.n++;
    if (score(item).right) cell.right++;
    row.set(language, cell);
  }
  const langs = [...languages];
  console.log('\nChat accuracy: eval questions whose whole structured query is right (npm run eval:chat), per dataset and language:');
  console.log(`| dataset | ${langs.join(' | ')} | all |`);
  console.log(`|---|${langs.map(() => '---|').join('')}---|`);
  for (const [model, row] of tally) {
    const cells = langs.map((l) => row.get(l)).map((c) => (c ? `${c.right}/${c.n} (${((100 * c.right) / c.n).toFixed(1)} %)` : '—'));
    const all = [...row.values()].reduce((a, c) => ({ n: a.n + c.n, right: a.right + c.right }), { n: 0, right: 0 });
    console.log(`| ${model} | ${cells.join(' | ')} | ${all.right}/${all.n} (${((100 * all.right) / all.n).toFixed(1)} %) |`);
  }
}

export async function run(): Promise<void> {
  accuracy();
  await composeAccuracy();
  // The demo model's questions, every language, follow-ups left out.
  const questions = (
    JSON.parse(fs.readFileSync(new URL('../eval/chat-questions.json', import.meta.url), 'utf8')).questions as {
      q: string;
      history?: string[];
      model?: string;
    }[]
  )
    .filter((x) => !x.history && !x.model)
    .map((x) => x.q);

  const large = largeModel();
  const measures = large.insights.reduce((n, i) => n + i.measures.length, 0);
  console.log(`\nThe built-in parser alone (no query run), ${questions.length} eval questions × ${ROUNDS} rounds after a warm-up:`);
  console.log('| model | questions parsed | median | p99 | max | target p99 | ratio |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, model] of [
    ['demo', demoModel()],
    [`generated: 50 cubes, ${measures} measures, ${large.insights.length} insights`, large],
  ] as const) {
    const s = parserTimes(model, questions, ROUNDS).sort((a, b) => a - b);
    const p99 = pct(s, 99);
    console.log(
      `| ${name} | ${s.length} | ${pct(s, 50).toFixed(2)} ms | ${p99.toFixed(2)} ms | ${s.at(-1)!.toFixed(2)} ms | < 5 ms | ${(p99 / 5).toFixed(2)} |`,
    );
  }
  if (process.env.BENCH_PARSER_ONLY) return;

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
  const { token } = await new TokensService(new TokensRepository(db), systemClock).create({
    tenantId: 'demo',
    userId: 'bench',
    name: 'bench',
    role: 'member',
  });
  const ask = async (message: string): Promise<number> => {
    const t0 = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/ai/chat',
      headers: { authorization: `Svc ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ message }),
    });
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
  console.log(
    `  all:                           ${stats(all)}   target: median < 50 ms → ${
      pct(
        [...all].sort((a, b) => a - b),
        50,
      ) < 50
        ? 'met'
        : 'NOT met'
    }`,
  );
  await app.close();
  await db.close();
  await warehouse.close();
}
