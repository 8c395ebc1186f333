// What the question parser knows of the insight catalog and of the model's words, taken from the
// semantic model, so that an insight of the model is known to chat without a second list.
import type { SemanticModel } from '../../semantic/model.ts';
import { plainText, synonymsIn, textsIn, type LocalList, type LocalText } from '../../semantic/model.schema.ts';
import { LANGUAGES, type Language } from './language/languages.ts';
import type { InsightDefinition } from '../../semantic/types.ts';
import type { FilterWords, InsightWords, ParserInsight } from './parser/index.ts';

/** Cohort insights are answered by their code; the parser composes the other kinds. */
const parsed = (insights: readonly InsightDefinition[]) =>
  insights.filter((d): d is InsightDefinition & { kind: ParserInsight['kind'] } => d.kind !== 'cohort');

export function parserCatalog(insights: readonly InsightDefinition[]): ParserInsight[] {
  return parsed(insights).map((d) => ({
    code: d.code,
    kind: d.kind,
    granularities: d.granularities,
    filters: d.filters,
    maxLimit: d.limit?.max ?? null,
  }));
}

const spaced = (s: string) => s.replace(/_/g, ' ').toLowerCase();

/** A measure or dimension's name, title and synonyms, looked up by name (its insight's cubes first). */
function wordsOf(model: SemanticModel, kind: 'measures' | 'dimensions', name: string, cubes: readonly string[] = []): string[] {
  const order = [...cubes, ...[...model.cubes.keys()].filter((c) => !cubes.includes(c))];
  for (const c of order) {
    const info = model.cubes.get(c)?.[kind].get(name);
    if (!info) continue;
    const def = info.def as { name: string; title?: LocalText; synonyms?: LocalList };
    // Every language's title and synonyms: a German word in a German question is the model's word too.
    return [spaced(def.name), ...[...textsIn(def.title), ...synonymsIn(def.synonyms)].map((s) => s.toLowerCase())];
  }
  return [spaced(name)];
}

/** A dimension's `value_synonyms`, every language's words together, by value (the first cube that has it). */
function valueWordsOf(model: SemanticModel, name: string): Record<string, string[]> {
  for (const cube of model.cubes.values()) {
    const def = cube.dimensions.get(name)?.def as { value_synonyms?: Record<string, LocalList> } | undefined;
    if (!def?.value_synonyms) continue;
    return Object.fromEntries(Object.entries(def.value_synonyms).map(([v, list]) => [v, synonymsIn(list).map((w) => w.toLowerCase())]));
  }
  return {};
}

/** Per insight: the phrases naming what it measures and what it groups by. */
export function modelWords(model: SemanticModel): { insights: InsightWords[]; filters: FilterWords[] } {
  const insights = parsed(model.insights).map((d): InsightWords => {
    const cubes = d.plan.facts.map((f) => f.cube);
    const grouping =
      d.kind === 'breakdown' || d.kind === 'top' ? [d.chart.x_axis, d.dimensions[0]?.name].filter((n): n is string => Boolean(n)) : [];
    return {
      code: d.code,
      kind: d.kind,
      measure: d.plan.headline,
      names: [d.name.toLowerCase(), spaced(d.code)],
      ...(grouping.length ? { groupBy: d.chart.x_axis } : {}),
      synonyms: d.synonyms.map((s) => s.toLowerCase()),
      measures: [...d.synonyms.map((s) => s.toLowerCase()), ...wordsOf(model, 'measures', d.plan.headline, cubes)],
      others: [...new Set(d.measures.filter((m) => m.name !== d.plan.headline).flatMap((m) => wordsOf(model, 'measures', m.name, cubes)))],
      dimensions: [...new Set(grouping.flatMap((n) => wordsOf(model, 'dimensions', n)))],
    };
  });
  const names = [...new Set(model.insights.flatMap((d) => d.filters))];
  return {
    insights,
    filters: names.map((name) => ({ name, words: wordsOf(model, 'dimensions', name), values: valueWordsOf(model, name) })),
  };
}

/**
 * The model's titles and synonyms in German, French and Spanish, each with the English the parser
 * knows the member by (its English title, else its name): "umsatz" → "revenue". A plain-string
 * title or a plain list is English and adds nothing here.
 */
export function modelTranslations(model: SemanticModel): { key: string; tables: Partial<Record<Language, [string, string][]>> } {
  const tables: Partial<Record<Language, [string, string][]>> = {};
  const add = (language: string, from: string, to: string) => {
    if (language === 'en' || !(LANGUAGES as readonly string[]).includes(language) || !from.trim()) return;
    (tables[language as Language] ??= []).push([from.trim().toLowerCase(), to.toLowerCase()]);
  };
  for (const cube of model.cubes.values()) {
    for (const info of [...cube.measures.values(), ...cube.dimensions.values()]) {
      const def = info.def as { name: string; title?: LocalText; synonyms?: LocalList };
      const english = plainText(def.title) ?? spaced(def.name);
      if (def.title && typeof def.title === 'object') for (const [l, t] of Object.entries(def.title)) if (t) add(l, t, english);
      if (def.synonyms && !Array.isArray(def.synonyms))
        for (const [l, list] of Object.entries(def.synonyms)) for (const s of list ?? []) add(l, s, english);
      // A value's words in a language read as the value itself ("Filiale" → retail).
      const values = (def as { value_synonyms?: Record<string, LocalList> }).value_synonyms ?? {};
      for (const [value, list] of Object.entries(values)) {
        if (!Array.isArray(list)) for (const [l, words] of Object.entries(list)) for (const s of words ?? []) add(l, s, value);
      }
    }
  }
  for (const d of model.insights) {
    const synonyms = d.localizedSynonyms;
    if (synonyms) for (const [l, list] of Object.entries(synonyms)) for (const s of list ?? []) add(l, s, d.name);
  }
  // The tables are the key of the compiled phrase patterns (languages.ts): another model, another key.
  return { key: JSON.stringify(tables), tables };
}
