// Chat's composition eval (docs/chat.md "Composed answers"): per example dataset, questions that
// need composition (two dimensions, a filter by a value, a measure condition, a comparison per
// group) in the four languages, each with the semantic query that means it. An answer is right when
// its rows equal that query's rows through POST /api/v1/query, refused when nothing ran (never
// wrong), and wrong otherwise; a question that must be refused is wrong when answered. The tests
// (test/modules/chat/compose-*.test.ts) assert wrong == 0; `npm run bench -- chat` prints the table.
import fs from 'node:fs';
import path from 'node:path';
import type { SemanticQuery } from '../src/semantic/query/query.schema.ts';
import { dataFileOf } from '../src/warehouse/load/rules.ts';
import type { Warehouse } from '../src/warehouse/warehouse.ts';

export interface ComposeCase {
  q: string;
  language?: string;
  /** What the question means, or null: it must be refused. */
  expect: SemanticQuery | null;
}

export interface ComposeSet {
  today: string;
  /** The model file (default: the demo model). */
  model?: string;
  /**
   * The data files the example's README loads, table by table (paths from the repository's root),
   * loaded as `insights data load` loads them. Unset with a model: examples/subscriptions.
   */
  data?: { table: string; file: string }[];
  cases: ComposeCase[];
}

const dir = import.meta.dirname;
export const composeSets = JSON.parse(fs.readFileSync(path.join(dir, 'compose-questions.json'), 'utf8')) as Record<string, ComposeSet>;

/** Loads examples/subscriptions into a DuckDB warehouse under one tenant (the data files as shipped). */
export async function loadSubscriptions(exec: (sql: string) => Promise<unknown>, tenant: string): Promise<void> {
  const file = (f: string) => path.join(dir, '../examples/subscriptions', f).replace(/'/g, "''");
  await exec(`CREATE TABLE plans AS SELECT *, '${tenant}' AS tenant_id FROM read_csv_auto('${file('plans.csv')}');
    CREATE TABLE accounts AS SELECT *, '${tenant}' AS tenant_id FROM read_csv_auto('${file('accounts.csv')}');
    CREATE TABLE invoices AS SELECT *, '${tenant}' AS tenant_id FROM read_json_auto('${file('invoices.ndjson')}');`);
}

/**
 * Loads a set's data under one tenant: the example's files through the warehouse's load (the
 * reader, date detection and column rules of `insights data load`), or examples/subscriptions.
 */
export async function loadSetData(warehouse: Warehouse, set: ComposeSet, tenant: string): Promise<void> {
  if (!set.data) return loadSubscriptions((sql) => warehouse.exec(sql), tenant);
  for (const { table, file } of set.data) {
    await warehouse.load({ table, file: dataFileOf(path.join(dir, '..', file)), tenantId: tenant, mode: 'replace' });
  }
}

type Row = Record<string, unknown>;
export type Verdict = 'right' | 'refused' | 'wrong';

/** Calls the API as the test app or the benchmark does: status and parsed JSON. */
export type Api = (method: 'POST', url: string, body: unknown) => Promise<{ status: number; body: any }>;

const near = (a: unknown, b: unknown) =>
  typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) <= 0.011 + Math.abs(b) * 1e-9 : a === b || (a ?? null) === (b ?? null);

/**
 * A chat answer's rows as the expected query's columns: a composed answer's rows are keyed by
 * member already; an insight's by short names ("country", "revenue", "period", "revenue_previous").
 */
function project(rows: Row[], columns: string[], time: string | undefined): Row[] {
  return rows.map((r) =>
    Object.fromEntries(
      columns.map((c) => {
        if (c in r) return [c, r[c]];
        const previous = c.endsWith('.previous');
        const short = (previous ? c.slice(0, -'.previous'.length) : c).split('.')[1];
        const v = c === time ? r.period : previous ? r[`${short}_previous`] : r[short];
        return [c, typeof v === 'string' && c === time ? v.slice(0, 10) : v];
      }),
    ),
  );
}

const key = (r: Row) => JSON.stringify(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v * 100) / 100 : v]));

/** One question asked and judged against the rows of the query that means it. */
export async function judge(api: Api, c: ComposeCase): Promise<{ verdict: Verdict; why: string }> {
  const chat = await api('POST', '/api/v1/ai/chat', { message: c.q });
  if (chat.status !== 200) return { verdict: 'wrong', why: `chat answered ${chat.status}` };
  const a = chat.body.data as { query: unknown; rows: Row[]; reply_text: string };
  const ran = a.query !== null && a.rows.length > 0;
  if (!ran) {
    if (c.expect === null || a.query === null) return { verdict: 'refused', why: a.reply_text };
  }
  if (c.expect === null) return { verdict: ran ? 'wrong' : 'refused', why: `answered: ${a.reply_text}` };
  const truth = await api('POST', '/api/v1/query', c.expect);
  if (truth.status !== 200) throw new Error(`${c.q}: the expected query fails: ${JSON.stringify(truth.body)}`);
  const want = truth.body.data as { rows: Row[]; columns: { name: string }[] };
  const columns = want.columns.map((x) => x.name);
  const got = project(a.rows, columns, c.expect.time?.granularity ? c.expect.time.dimension : undefined);
  const same =
    got.length === want.rows.length &&
    JSON.stringify(got.map(key).sort()) === JSON.stringify(want.rows.map((r) => key(project([r], columns, undefined)[0])).sort());
  if (same) return { verdict: 'right', why: '' };
  // Rounding apart, row for row.
  const sorted = (rows: Row[]) => [...rows].sort((x, y) => key(x).localeCompare(key(y)));
  const g = sorted(got);
  const w = sorted(want.rows);
  const close = g.length === w.length && g.every((r, i) => columns.every((col) => near(r[col], w[i][col])));
  return close
    ? { verdict: 'right', why: '' }
    : { verdict: 'wrong', why: `${a.reply_text}\n   got ${JSON.stringify(g.slice(0, 3))}\n  want ${JSON.stringify(w.slice(0, 3))}` };
}

/** Every case of a set: per language, right / refused / wrong, and the wrong ones. */
export async function runSet(
  api: Api,
  set: ComposeSet,
): Promise<{ table: Map<string, Record<Verdict, number>>; wrong: string[]; refused: string[] }> {
  const table = new Map<string, Record<Verdict, number>>();
  const wrong: string[] = [];
  const refused: string[] = [];
  for (const c of set.cases) {
    const { verdict, why } = await judge(api, c);
    const lang = c.language ?? 'en';
    const t = table.get(lang) ?? { right: 0, refused: 0, wrong: 0 };
    t[verdict]++;
    table.set(lang, t);
    if (verdict === 'wrong') wrong.push(`${c.q}: ${why}`);
    if (verdict === 'refused' && c.expect) refused.push(`${c.q}: ${why}`);
  }
  return { table, wrong, refused };
}
