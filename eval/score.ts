// The chat eval's questions and how one is scored, shared by `npm run eval:chat` (eval/chat.ts)
// and the chat benchmark's accuracy table (bench/chat.ts): each question parsed as the service
// parses it — the model's catalog, its words in every language, its data's filter values.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { parseQuestion, type ParseOutcome, type StructuredQuery } from '../src/modules/chat/parser/index.ts';
import { modelTranslations, modelWords, parserCatalog } from '../src/modules/chat/chat.catalog.ts';
import { demoModel, modelFromText, type SemanticModel } from '../src/semantic/model.ts';

export interface Item {
  /** A model of `models` (default: the demo model). */
  model?: string;
  batch?: string;
  /** ISO 639-1 of the question. */
  language?: string;
  /** answer, comparison, or refusal (expect null: must not be answered). */
  kind?: string;
  q: string;
  history?: string[];
  expect: StructuredQuery | null;
}

const dir = path.dirname(fileURLToPath(import.meta.url));
export const evalSet = JSON.parse(fs.readFileSync(path.join(dir, 'chat-questions.json'), 'utf8')) as {
  today: string;
  categories: string[];
  /** Other models the questions may be asked of: the model file and the filter values its data holds. */
  models?: Record<string, { file: string; filterValues: Record<string, string[]> }>;
  questions: Item[];
};

/** What the parser is given for a model, as the service gives it: its catalog, its words in every language, its data's values. */
function contextOf(model: SemanticModel, filterValues?: Record<string, string[]>) {
  return { catalog: parserCatalog(model.insights), words: modelWords(model), translations: modelTranslations(model), filterValues };
}
const contexts = new Map<string, ReturnType<typeof contextOf>>([['demo', contextOf(demoModel())]]);
for (const [name, m] of Object.entries(evalSet.models ?? {})) {
  contexts.set(name, contextOf(modelFromText(fs.readFileSync(path.join(dir, '..', m.file), 'utf8'), m.file), m.filterValues));
}

const canonical = (q: StructuredQuery | null): StructuredQuery | null => {
  if (!q) return null;
  const out: StructuredQuery = { ...q };
  if (out.filters && Object.keys(out.filters).length === 0) delete out.filters;
  return out;
};

/** One question parsed (after its history), what came out and what was wanted. */
export function score(item: Item): { got: StructuredQuery | null; want: StructuredQuery | null; right: boolean; outcome: ParseOutcome } {
  const ctx = contexts.get(item.model ?? 'demo');
  if (!ctx) throw new Error(`${item.q}: no model "${item.model}" in the eval file`);
  const base = { today: evalSet.today, categories: evalSet.categories, ...ctx };
  let previous: StructuredQuery | undefined;
  for (const h of item.history ?? []) {
    const r = parseQuestion(h, { ...base, previous });
    if (r.kind === 'query') previous = r.query;
  }
  const outcome = parseQuestion(item.q, { ...base, previous });
  const got = outcome.kind === 'query' ? canonical(outcome.query) : null;
  const want = canonical(item.expect);
  return { got, want, right: isDeepStrictEqual(got, want), outcome };
}
