// What the question parser knows of the insight catalog and of the model's words, taken from the
// semantic model, so that an insight of the model is known to chat without a second list.
import type { SemanticModel } from '../../semantic/model.ts';
import type { InsightDefinition } from '../../semantic/types.ts';
import type { FilterWords, InsightWords, ParserInsight } from './parser/index.ts';

export function parserCatalog(insights: readonly InsightDefinition[]): ParserInsight[] {
  return insights.map((d) => ({
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
    const def = info.def as { name: string; title?: string; synonyms?: string[] };
    return [spaced(def.name), ...(def.title ? [def.title.toLowerCase()] : []), ...(def.synonyms ?? []).map((s) => s.toLowerCase())];
  }
  return [spaced(name)];
}

/** Per insight: the phrases naming what it measures and what it groups by. */
export function modelWords(model: SemanticModel): { insights: InsightWords[]; filters: FilterWords[] } {
  const insights = model.insights.map((d): InsightWords => {
    const cubes = d.plan.facts.map((f) => f.cube);
    const grouping = d.kind === 'breakdown' || d.kind === 'top' ? [d.chart.x_axis, d.dimensions[0]?.name].filter((n): n is string => Boolean(n)) : [];
    return {
      code: d.code,
      kind: d.kind,
      measure: d.plan.headline,
      names: [d.name.toLowerCase(), spaced(d.code)],
      measures: [...d.synonyms.map((s) => s.toLowerCase()), ...wordsOf(model, 'measures', d.plan.headline, cubes)],
      dimensions: [...new Set(grouping.flatMap((n) => wordsOf(model, 'dimensions', n)))],
    };
  });
  const names = [...new Set(model.insights.flatMap((d) => d.filters))];
  return { insights, filters: names.map((name) => ({ name, words: wordsOf(model, 'dimensions', name) })) };
}
