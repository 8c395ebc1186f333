// Runs the built-in question parser over eval/chat-questions.json and prints the share of
// questions answered right: on the insight code, and on the whole structured query.
// `npm run eval:chat` (add -- --verbose to list every miss). Exits non-zero below the targets.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { parseQuestion, type StructuredQuery } from '../src/modules/chat/parser/index.ts';
import { modelWords, parserCatalog } from '../src/modules/chat/chat.catalog.ts';
import { demoModel } from '../src/semantic/model.ts';

interface Item {
  batch?: string;
  q: string;
  history?: string[];
  expect: StructuredQuery | null;
}

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'chat-questions.json');
const set = JSON.parse(fs.readFileSync(file, 'utf8')) as { today: string; categories: string[]; questions: Item[] };
const model = demoModel();
const catalog = parserCatalog(model.insights);
// The model's words, as the service passes them; the demo's filters all have a vocabulary in code.
const words = modelWords(model);
const verbose = process.argv.includes('--verbose');

const canonical = (q: StructuredQuery | null): StructuredQuery | null => {
  if (!q) return null;
  const out: StructuredQuery = { ...q };
  if (out.filters && Object.keys(out.filters).length === 0) delete out.filters;
  return out;
};

let codeRight = 0;
let fullRight = 0;
const misses: string[] = [];
const batches = new Map<string, { n: number; code: number; full: number }>();
for (const item of set.questions) {
  const b = batches.get(item.batch ?? 'all') ?? { n: 0, code: 0, full: 0 };
  batches.set(item.batch ?? 'all', b);
  b.n++;
  let previous: StructuredQuery | undefined;
  for (const h of item.history ?? []) {
    const r = parseQuestion(h, { today: set.today, catalog, categories: set.categories, previous, words });
    if (r.kind === 'query') previous = r.query;
  }
  const r = parseQuestion(item.q, { today: set.today, catalog, categories: set.categories, previous, words });
  const got = r.kind === 'query' ? canonical(r.query) : null;
  const want = canonical(item.expect);
  if ((got?.insight_code ?? null) === (want?.insight_code ?? null)) {
    codeRight++;
    b.code++;
  }
  if (isDeepStrictEqual(got, want)) {
    fullRight++;
    b.full++;
  }
  else misses.push(`${item.history ? `[${item.history.join(' → ')}] → ` : ''}${item.q}\n    want ${JSON.stringify(want)}\n    got  ${JSON.stringify(got)}`);
}

const n = set.questions.length;
const pct = (k: number) => `${((100 * k) / n).toFixed(1)} %`;
if (verbose || misses.length <= 10) for (const m of misses) console.log(`MISS ${m}`);
console.log('');
for (const [name, b] of batches) console.log(`  ${name.padEnd(8)} ${b.n} questions: code ${b.code}/${b.n}, full ${b.full}/${b.n}`);
console.log(`${n} questions (today = ${set.today})`);
console.log(`insight code right: ${codeRight}/${n} = ${pct(codeRight)}   (target ≥ 95 %)`);
console.log(`full query right:   ${fullRight}/${n} = ${pct(fullRight)}   (target ≥ 90 %)`);
if (codeRight / n < 0.95 || fullRight / n < 0.9) process.exitCode = 1;
