// What chat can compose from, read once from the semantic model: every measure and dimension with
// all of its words (name, titles and synonyms in every language, description, the insights that
// use it), grouped into concepts (the demo's two "revenue" measures are one concept, answered by
// the cube from which the rest of the question is reachable), each measure's time dimension, and
// the meaning of each insight (its headline measure, grouping and filters) so that an insight that
// means exactly the question may still answer it (docs/chat.md "Composed answers").
import { humanize, reachable } from '../../../semantic/cubes.ts';
import type { SemanticModel } from '../../../semantic/model.ts';
import { plainText, synonymsIn, textsIn, type LocalList, type LocalText } from '../../../semantic/model.schema.ts';
import { phrase, words } from './match.ts';

export interface Member {
  /** cube.member */
  ref: string;
  cube: string;
  name: string;
  /** Concept key: the English title (or humanized name), lower case. */
  concept: string;
  /** English title, and titles by language. */
  title: string;
  titles: Record<string, string>;
  /** Dimensions: string, number, time, boolean; measures: the aggregation. */
  type: string;
  /** Every phrase naming it, as word lists (stemmed). */
  phrases: string[][];
  /** The stemmed words of its description and its insights' descriptions. */
  described: Set<string>;
  /** Dimension values' own words (value_synonyms), by value. */
  valueWords?: Record<string, string[]>;
}

/** An insight's meaning, for "an insight that means exactly the question answers it". */
export interface InsightMeaning {
  code: string;
  kind: string;
  measure: string;
  /** The dimension it groups by (breakdown, top). */
  dimension?: string;
  filterRefs: Record<string, string>;
}

/** A phrase naming a top list or breakdown as a whole ("best sellers" → products by revenue). */
export interface ShapePhrase {
  phrase: string[];
  /** A top list: ordered, its default length. */
  top?: number;
  measure: string;
  dimension: string;
}

export interface Lexicon {
  measures: Member[];
  dimensions: Member[];
  /** Measure ref → the time dimension its periods are read by. */
  timeOf: Map<string, string | undefined>;
  /** Cube → the cubes reachable from it, nearest first (itself first). */
  reach: Map<string, string[]>;
  insights: InsightMeaning[];
  shapes: ShapePhrase[];
  /** The measure of the model's first insight: "how are we doing", "best-selling". */
  headline?: string;
}

const FUNCTION_WORDS = new Set(['where', 'which', 'what', 'when', 'who', 'how', 'here', 'there', 'made', 'make', 'money']);

type Def = { name: string; title?: LocalText; synonyms?: LocalList; description?: string; type: string };

const titlesOf = (t: LocalText | undefined): Record<string, string> =>
  t && typeof t === 'object' ? Object.fromEntries(Object.entries(t).filter(([, v]) => typeof v === 'string') as [string, string][]) : {};

function member(cube: string, def: Def, extra: string[], described: string[]): Member {
  const title = plainText(def.title) ?? humanize(def.name);
  const all = [def.name.replace(/_/g, ' '), ...textsIn(def.title), ...synonymsIn(def.synonyms), ...extra];
  // A function word ("where" as the demo's country) is not read as the member in a question.
  const phrases = [...new Set(all.map((p) => phrase(p).join(' ')).filter((p) => p && !FUNCTION_WORDS.has(p)))].map((p) => p.split(' '));
  return {
    ref: `${cube}.${def.name}`,
    cube,
    name: def.name,
    concept: title.toLowerCase().replace(/\s*\(.*\)\s*$/, ''),
    title,
    titles: titlesOf(def.title),
    type: def.type,
    phrases,
    described: new Set([def.description ?? '', ...described].flatMap(words)),
  };
}

/** The raw insights of the model's files (the time dimension is not kept on the resolved ones). */
function rawInsights(model: SemanticModel): Map<string, { time_dimension?: string | string[] }> {
  const out = new Map<string, { time_dimension?: string | string[] }>();
  for (const cube of model.cubes.values()) {
    const list = (cube.src.data as { insights?: { code: string; time_dimension?: string | string[] }[] }).insights ?? [];
    for (const i of list) if (i && typeof i.code === 'string' && !out.has(i.code)) out.set(i.code, i);
  }
  return out;
}

export function buildLexicon(model: SemanticModel): Lexicon {
  const raw = rawInsights(model);
  const insights: InsightMeaning[] = model.insights.map((d) => {
    const headline = d.measures.find((m) => m.name === d.plan.headline)?.ref ?? d.measures[0]?.ref ?? '';
    const grouped = d.kind === 'breakdown' || d.kind === 'top';
    const dim = grouped ? (d.dimensions.find((c) => c.name === d.chart.x_axis) ?? d.dimensions[0])?.ref : undefined;
    return { code: d.code, kind: d.kind, measure: headline, ...(dim ? { dimension: dim } : {}), filterRefs: d.filterRefs };
  });
  // Words of the insights a member serves: a series' name and synonyms name its measure.
  const measureWords = new Map<string, string[]>();
  const measureDescribed = new Map<string, string[]>();
  const shapes: ShapePhrase[] = [];
  model.insights.forEach((d, i) => {
    const m = insights[i];
    if (!m.measure) return;
    measureDescribed.set(m.measure, [...(measureDescribed.get(m.measure) ?? []), d.description]);
    const names = [d.name, ...d.synonyms, ...Object.values(d.localizedSynonyms ?? {}).flat()];
    const top = d.kind === 'top' ? { top: d.limit?.default ?? 10 } : {};
    if (m.dimension) for (const n of names) shapes.push({ phrase: phrase(n), measure: m.measure, dimension: m.dimension, ...top });
    else measureWords.set(m.measure, [...(measureWords.get(m.measure) ?? []), ...names]);
  });
  const timeOf = new Map<string, string | undefined>();
  const reach = new Map<string, string[]>();
  const measures: Member[] = [];
  const dimensions: Member[] = [];
  for (const cube of model.cubes.values()) {
    reach.set(cube.name, [...reachable(cube.name, model.cubes).keys()]);
    for (const m of cube.measures.values()) {
      const ref = `${cube.name}.${m.def.name}`;
      measures.push(member(cube.name, m.def as Def, measureWords.get(ref) ?? [], measureDescribed.get(ref) ?? []));
    }
    for (const d of cube.dimensions.values()) {
      const dm = member(cube.name, d.def as Def, [], []);
      const vs = (d.def as { value_synonyms?: Record<string, LocalList> }).value_synonyms;
      if (vs) dm.valueWords = Object.fromEntries(Object.entries(vs).map(([v, l]) => [v, synonymsIn(l).map((w) => w.toLowerCase())]));
      dimensions.push(dm);
    }
  }
  for (const m of measures) timeOf.set(m.ref, timeDimensionOf(m, model, insights, raw, reach));
  return { measures, dimensions, timeOf, reach, insights, shapes, headline: insights[0]?.measure };
}

/** The insight's time dimension for this measure, else its cube's first, else the nearest joined cube's. */
function timeDimensionOf(
  m: Member,
  model: SemanticModel,
  insights: InsightMeaning[],
  raw: Map<string, { time_dimension?: string | string[] }>,
  reach: Map<string, string[]>,
): string | undefined {
  for (const i of model.insights) {
    if (!i.measures.some((c) => c.ref === m.ref)) continue;
    const t = raw.get(i.code)?.time_dimension;
    const list = Array.isArray(t) ? t : t ? [t] : [];
    const own = list.find((r) => r.startsWith(`${m.cube}.`)) ?? list.find((r) => reach.get(m.cube)?.includes(r.split('.')[0]));
    if (own && insights.length) return own;
  }
  for (const c of reach.get(m.cube) ?? []) {
    const t = [...(model.cubes.get(c)?.dimensions.values() ?? [])].find((d) => d.def.type === 'time');
    if (t) return `${c}.${t.def.name}`;
  }
  return undefined;
}

/** The model's measure and dimension words (lower case), for the parser's refusals: a term the model has is never refused. */
export function modelTerms(lex: Lexicon): { measures: string[]; dimensions: string[] } {
  const flat = (ms: Member[]) => [...new Set(ms.flatMap((m) => m.phrases.map((p) => p.join(' '))))];
  return { measures: flat(lex.measures), dimensions: flat(lex.dimensions) };
}
