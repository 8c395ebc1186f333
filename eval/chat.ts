// Runs the built-in question parser over eval/chat-questions.json and prints, per language and per
// kind (answer, comparison, refusal), the questions answered right: on the insight code, on the
// whole structured query, refused when they had to be, and answered when they had to be refused.
// `npm run eval:chat` (add -- --verbose to list every miss). Exits non-zero below the targets:
// ≥ 95 % fully right per language, ≥ 95 % of the unanswerable refused, none of them answered.
import { evalSet as set, score } from './score.ts';

const verbose = process.argv.includes('--verbose');

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
const byModel = new Map<string, Tally>();
const all = tally();
const misses: string[] = [];
for (const item of set.questions) {
  const groups = [
    all,
    ...[
      [byLanguage, item.language ?? 'en'],
      [byKind, item.kind ?? 'answer'],
      [byBatch, item.batch ?? 'all'],
      [byModel, item.model ?? 'demo'],
    ].map(([m, k]) => {
      const map = m as Map<string, Tally>;
      if (!map.has(k as string)) map.set(k as string, tally());
      return map.get(k as string)!;
    }),
  ];
  const { got, want, right, outcome: r } = score(item);
  for (const g of groups) {
    g.n++;
    if ((got?.insight_code ?? null) === (want?.insight_code ?? null)) g.code++;
    if (right) g.full++;
    if (want === null) {
      g.mustRefuse++;
      if (got === null) g.refused++;
      else g.answeredInstead++;
    }
  }
  if (!right)
    misses.push(
      `${item.history ? `[${item.history.join(' → ')}] → ` : ''}${item.q}\n    want ${JSON.stringify(want)}\n    got  ${JSON.stringify(got)}${r.kind === 'refused' ? ` (refused: ${r.refusal.reason} "${r.refusal.term}")` : ''}`,
    );
}

const pct = (k: number, n: number) => (n ? `${((100 * k) / n).toFixed(1)} %` : '—');
if (verbose || misses.length <= 10) for (const m of misses) console.log(`MISS ${m}`);
const table = (title: string, rows: Map<string, Tally> | [string, Tally][]) => {
  console.log(`\n| ${title} | questions | right insight | fully right | must refuse | refused | answered instead |`);
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, t] of rows)
    console.log(
      `| ${name} | ${t.n} | ${t.code} (${pct(t.code, t.n)}) | ${t.full} (${pct(t.full, t.n)}) | ${t.mustRefuse} | ${t.refused} (${pct(t.refused, t.mustRefuse)}) | ${t.answeredInstead} |`,
    );
};
console.log(`${set.questions.length} questions (today = ${set.today})`);
table('language', byLanguage);
table('model', byModel);
table('kind', byKind);
table('batch', byBatch);
table('all', [['all', all]]);
const languageOk = [...byLanguage.values()].every((t) => t.full / t.n >= 0.95);
const refusalOk = all.mustRefuse === 0 || all.refused / all.mustRefuse >= 0.95;
console.log(
  `\ntargets: ≥ 95 % fully right per language ${languageOk ? 'met' : 'NOT met'}; ≥ 95 % of the unanswerable refused ${refusalOk ? 'met' : 'NOT met'}; none answered instead ${all.answeredInstead === 0 ? 'met' : 'NOT met'}`,
);
if (!languageOk || !refusalOk || all.answeredInstead > 0) process.exitCode = 1;
