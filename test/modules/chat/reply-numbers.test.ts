// Over the whole eval set (every language), through the HTTP API: every number in reply_text is in
// the rows or is computed from them (a sum, a share, a ratio of sums, a change between two figures), or was in the
// question ("top 5"). Dates are not numbers here. A refusal has no figures at all.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

const set = JSON.parse(fs.readFileSync(new URL('../../../eval/chat-questions.json', import.meta.url), 'utf8')) as {
  today: string;
  questions: { q: string; history?: string[]; expect: unknown; model?: string }[];
};

let t: TestApp;
let auth: string;

before(async () => {
  t = await buildTestApp({ clock: new ManualClock(new Date(`${set.today}T10:00:00.000Z`)), env: { INSIGHTS_CHAT_RATE_LIMIT: '100000' } });
  auth = await t.login({ tenant: 'demo', user: 'numbers', role: 'member' });
});
after(() => t?.close());

/**
 * The numbers a reply states, read in the reply's language (1,234.5 · 1.234,5 · 1 234,5); ISO dates
 * and the language's own dates (01.03.2026, 1 mars 2026, 1 mar 2026) are not numbers here.
 */
function numbersIn(text: string, language = 'en'): number[] {
  let t = text.replace(/\d{4}-\d{2}-\d{2}/g, ' ');
  if (language === 'de') t = t.replace(/\d{2}\.\d{2}\.\d{4}/g, ' ');
  if (language === 'fr' || language === 'es') t = t.replace(/\d{1,2} \p{L}+\.? \d{4}/gu, ' ');
  const pattern: Record<string, RegExp> = {
    en: /(?<![\w.])-?\d{1,3}(?:,\d{3})*(?:\.\d+)?(?![\w])|(?<![\w.,])-?\d+(?:\.\d+)?(?![\w])/g,
    de: /(?<![\w,])-?\d{1,3}(?:\.\d{3})*(?:,\d+)?(?![\w])|(?<![\w.,])-?\d+(?:,\d+)?(?![\w])/g,
    es: /(?<![\w,])-?\d{1,3}(?:\.\d{3})*(?:,\d+)?(?![\w])|(?<![\w.,])-?\d+(?:,\d+)?(?![\w])/g,
    fr: /(?<![\w,])-?\d{1,3}(?:[\u202f\u00a0]\d{3})*(?:,\d+)?(?![\w])/g,
  };
  const group: Record<string, RegExp> = { en: /,/g, de: /\./g, es: /\./g, fr: /[\u202f\u00a0]/g };
  return [...t.matchAll(pattern[language] ?? pattern.en)].map((m) => {
    const digits = m[0].replace(group[language] ?? group.en, '');
    return Number(language === 'en' ? digits : digits.replace(',', '.'));
  });
}

/** Every figure the rows hold or give by one step of arithmetic a reply uses. */
function explainable(rows: Record<string, unknown>[]): number[] {
  const columns = new Map<string, number[]>();
  for (const r of rows) {
    for (const [k, v] of Object.entries(r)) {
      if (typeof v !== 'number') continue;
      if (!columns.has(k)) columns.set(k, []);
      columns.get(k)!.push(v);
    }
  }
  const out: number[] = [rows.length];
  const sums = new Map<string, number>();
  for (const [k, values] of columns) {
    const sum = values.reduce((s, v) => s + v, 0);
    sums.set(k, sum);
    out.push(...values, sum, ...values.map((v) => Math.abs(v)));
    if (sum !== 0) out.push(...values.map((v) => (100 * v) / sum));
    // A change between two figures of a column (first to last, a period and its counterpart).
    for (const a of values) for (const b of values) if (b !== 0) out.push((100 * (a - b)) / b, (100 * Math.abs(a - b)) / Math.abs(b));
  }
  // Ratios of sums (a rate over the window), and each figure against its previous one.
  for (const [a, sa] of sums) {
    for (const [_b, sb] of sums) if (sb !== 0) out.push(sa / sb, (100 * sa) / sb);
    const prev = sums.get(`${a}_previous`);
    if (prev) out.push((100 * (sa - prev)) / prev);
  }
  // The same sums over each value of a label column (a series per country).
  const labelColumns = new Set(
    rows.flatMap((r) =>
      Object.entries(r)
        .filter(([k, v]) => typeof v === 'string' && k !== 'period')
        .map(([k]) => k),
    ),
  );
  for (const label of labelColumns) {
    for (const value of new Set(rows.map((r) => r[label]))) {
      const group = rows.filter((r) => r[label] === value);
      const groupSums = new Map<string, number>();
      for (const r of group)
        for (const [k, v] of Object.entries(r)) if (typeof v === 'number') groupSums.set(k, (groupSums.get(k) ?? 0) + v);
      for (const [, sa] of groupSums) {
        out.push(sa);
        for (const [, sb] of groupSums) if (sb !== 0) out.push(sa / sb, (100 * sa) / sb);
      }
    }
  }
  for (const r of rows) {
    for (const [k, v] of Object.entries(r)) {
      const p = r[`${k}_previous`] ?? r[`${k}.previous`];
      if (typeof v === 'number' && typeof p === 'number' && p !== 0)
        out.push((100 * (v - p)) / Math.abs(p), (100 * Math.abs(v - p)) / Math.abs(p));
    }
  }
  return out;
}

const close = (x: number, candidates: number[]) => {
  const decimals = String(x).split('.')[1]?.length ?? 0;
  const tolerance = decimals === 0 ? 0.5 : 0.5 * 10 ** -decimals + 1e-9;
  return candidates.some((c) => Math.abs(Math.abs(c) - Math.abs(x)) <= tolerance);
};

test('every number of every reply over the eval set comes from the rows', async () => {
  let checked = 0;
  // The demo model's questions (the test app runs the demo model).
  for (const item of set.questions.filter((x) => !x.history && !x.model)) {
    const res = await call(t, auth, 'POST', '/api/v1/ai/chat', { message: item.q });
    assert.equal(res.statusCode, 200, `${item.q}: ${res.body}`);
    const d = res.data.data;
    const language = d.language as string;
    const stated = numbersIn(d.reply_text, language);
    // Nothing ran (a refusal, the help); a composed answer has no insight but its query and rows.
    if (d.query === null) {
      assert.deepEqual(d.rows, []);
      // A refusal states no figure (only what the question said); the help reply's numbers are its examples ("last 7 days").
      if (d.alternatives.length > 0) {
        assert.deepEqual(
          stated.filter((n) => !numbersIn(item.q, language).includes(n)),
          [],
          `a refusal states no figure: ${item.q} → ${d.reply_text}`,
        );
      }
      continue;
    }
    // Labels are quoted as they are ("Granite Deluxe Notebook 304").
    const labels = d.rows.flatMap((r: Record<string, unknown>) =>
      Object.values(r)
        .filter((v): v is string => typeof v === 'string')
        .flatMap((v) => numbersIn(v)),
    );
    const candidates = [...explainable(d.rows), ...labels, ...numbersIn(item.q, language), ...(d.query?.limit ? [d.query.limit] : [])];
    for (const n of stated)
      assert.ok(close(n, candidates), `${item.q}: ${n} in "${d.reply_text}" is not in the rows nor computed from them`);
    checked += stated.length;
  }
  assert.ok(checked > 500, `${checked} numbers checked`);
});
