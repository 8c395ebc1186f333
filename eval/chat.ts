// Runs the built-in question parser over eval/chat-questions.json and prints, per language and per
// kind (answer, comparison, refusal), the questions answered right: on the insight code, on the
// whole structured query, refused when they had to be, and answered when they had to be refused.
// `npm run eval:chat` (add -- --verbose to list every miss). Exits non-zero below the targets:
// ≥ 95 % fully right per language, ≥ 95 % of the unanswerable refused, none of them answered.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { parseQuestion, type StructuredQuery } from '../src/modules/chat/parser/index.ts';
import { modelWords, parserCatalog } from '../src/modules/chat/chat.catalog.ts';
import { demoModel } from '../src/semantic/model.ts';

interface Item {
  batch?: string;
  /** ISO 639-1 of the question. */
  language?: string;
  /** answer, comparison, or refusal (expect null: must not be answered). */
  kind?: string;
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

interface Tally {
  n: number;
  code: number;
  full: number;
  mustRefuse: number;
  refused: number;
  answeredInstead: number;
}
const tally = (): Tally => ({ n: 0, code: 0, full: 0, mustRefuse: 0, refused: 0, answeredInstead: 0 });
const byLanguage = new Map<string, Tally>();
const byKind = new Map<string, Tally>();
const byBatch = new Map<string, Tally>();
const all = tally();
const misses: string[] = [];
for (const item of set.questions) {
  const groups = [all, ...[[byLanguage, item.language ?? 'en'], [byKind, item.kind ?? 'answer'], [byBatch, item.batch ?? 'all']].map(([m, k]) => {
    const map = m as Map<string, Tally>;
    if (!map.has(k as string)) map.set(k as string, tally());
    return map.get(k as string)!;
  })];
  let previous: StructuredQuery | undefined;
  for (const h of item.history ?? []) {
    const r = parseQuestion(h, { today: set.today, catalog, categories: set.categories, previous, words });
    if (r.kind === 'query') previous = r.query;
  }
  const r = parseQuestion(item.q, { today: set.today, catalog, categories: set.categories, previous, words });
  const got = r.kind === 'query' ? canonical(r.query) : null;
  const want = canonical(item.expect);
  for (const g of groups) {
    g.n++;
    if ((got?.insight_code ?? null) === (want?.insight_code ?? null)) g.code++;
    if (isDeepStrictEqual(got, want)) g.full++;
    if (want === null) {
      g.mustRefuse++;
      if (got === null) g.refused++;
      else g.answeredInstead++;
    }
  }
  if (!isDeepStrictEqual(got, want)) misses.push(`${item.history ? `[${item.history.join(' → ')}] → ` : ''}${item.q}\n    want ${JSON.stringify(want)}\n    got  ${JSON.stringify(got)}${r.kind === 'refused' ? ` (refused: ${r.refusal.reason} "${r.refusal.term}")` : ''}`);
}

const pct = (k: number, n: number) => (n ? `${((100 * k) / n).toFixed(1)} %` : '—');
if (verbose || misses.length <= 10) for (const m of misses) console.log(`MISS ${m}`);
const table = (title: string, rows: Map<string, Tally> | [string, Tally][]) => {
  console.log(`\n| ${title} | questions | right insight | fully right | must refuse | refused | answered instead |`);
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, t] of rows) console.log(`| ${name} | ${t.n} | ${t.code} (${pct(t.code, t.n)}) | ${t.full} (${pct(t.full, t.n)}) | ${t.mustRefuse} | ${t.refused} (${pct(t.refused, t.mustRefuse)}) | ${t.answeredInstead} |`);
};
console.log(`${set.questions.length} questions (today = ${set.today}), the demo model`);
table('language', byLanguage);
table('kind', byKind);
table('batch', byBatch);
table('all', [['all', all]]);
const languageOk = [...byLanguage.values()].every((t) => t.full / t.n >= 0.95);
const refusalOk = all.mustRefuse === 0 || all.refused / all.mustRefuse >= 0.95;
console.log(`\ntargets: ≥ 95 % fully right per language ${languageOk ? 'met' : 'NOT met'}; ≥ 95 % of the unanswerable refused ${refusalOk ? 'met' : 'NOT met'}; none answered instead ${all.answeredInstead === 0 ? 'met' : 'NOT met'}`);
if (!languageOk || !refusalOk || all.answeredInstead > 0) process.exitCode = 1;
