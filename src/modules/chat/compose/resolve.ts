// What a question asks (read.ts) made into one semantic query over the model, or a refusal that
// names the part the model cannot honour: each named measure's cube is the one from which every
// grouping and filter is reachable (a near-tie of two concepts that both fit is asked back), each
// dimension the nearest of its name to that cube, the period read by the measure's time dimension.
// A condition on a measure needs a grouping to apply to ("countries with revenue over 1,000"):
// over a single total it would not mean what was asked, so it is refused by name.
import type { SemanticQuery } from '../../../semantic/query/query.schema.ts';
import type { Lexicon, Member } from './lexicon.ts';
import type { Wanted } from './read.ts';

export type ComposeRefusal =
  | { reason: 'ambiguous'; term: string; options: string[] }
  | { reason: 'unknown_group'; term: string }
  | { reason: 'unknown_value'; term: string }
  | { reason: 'ambiguous_value'; term: string; options: string[] }
  | { reason: 'unreachable'; term: string; measure: string }
  | { reason: 'condition_total'; term: string }
  | { reason: 'condition_measure'; term: string }
  | { reason: 'no_time'; term: string; measure: string };

export type Composed =
  | { kind: 'query'; query: SemanticQuery; measures: Member[]; groups: Member[]; noPeriod: boolean }
  | { kind: 'refused'; refusal: ComposeRefusal }
  | { kind: 'none' };

/** Whether the question asks for anything beyond a measure and a period (grouping, filter, condition). */
export const composes = (w: Wanted): boolean => w.groups.length > 0 || w.filters.length > 0 || w.conditions.length > 0;

/** The candidate nearest to `cube` among those it reaches (its own first), or undefined. */
function nearest(lex: Lexicon, cube: string, candidates: Member[]): Member | undefined {
  const order = lex.reach.get(cube) ?? [cube];
  let best: Member | undefined;
  for (const c of candidates) {
    const at = order.indexOf(c.cube);
    if (at >= 0 && (!best || at < order.indexOf(best.cube))) best = c;
  }
  return best;
}

/** The measures' candidates, headline measures of insights first (the demo's orders.revenue before order_items.revenue). */
function ranked(lex: Lexicon, list: Member[]): Member[] {
  const served = new Set(lex.insights.map((i) => i.measure));
  return [...list].sort((a, b) => Number(served.has(b.ref)) - Number(served.has(a.ref)));
}

export function resolveWanted(w: Wanted, lex: Lexicon, fallbackMeasure?: string): Composed {
  if (w.unknownGroup) return { kind: 'refused', refusal: { reason: 'unknown_group', term: w.unknownGroup } };
  if (w.unknownValue) return { kind: 'refused', refusal: { reason: 'unknown_value', term: w.unknownValue } };
  let named = w.measures;
  if (!named.length) {
    // Only a grouping or filter named: the measure the parser's insight answers with (its headline).
    const m = fallbackMeasure && lex.measures.find((x) => x.ref === fallbackMeasure);
    if (!m || !composes(w)) return { kind: 'none' };
    named = [[m]];
  }
  // A concept is answered by any of its members (the demo's two "revenue" measures): the words matched one, the cube decides.
  const widen = (list: Member[], all: Member[]) => all.filter((m) => list.some((l) => l.concept === m.concept && l.type === m.type));
  named = named.map((c) => widen(c, lex.measures));
  w = { ...w, groups: w.groups.map((g) => widen(g, lex.dimensions)) };
  const dimsOf = (cube: string) => {
    const groups = w.groups.map((g) => nearest(lex, cube, g));
    const filters = w.filters.map((f) => nearest(lex, cube, f.dims));
    return { groups, filters, ok: [...groups, ...filters].every(Boolean) };
  };
  const measures: Member[] = [];
  for (const candidates of named) {
    const concepts = [...new Set(candidates.map((c) => c.concept))];
    const fits = ranked(lex, candidates).filter((c) => dimsOf(c.cube).ok);
    const fitConcepts = [...new Set(fits.map((c) => c.concept))];
    if (fitConcepts.length > 1) {
      // Two measures the same words name, both answerable: asked back, never guessed.
      return { kind: 'refused', refusal: { reason: 'ambiguous', term: concepts.join(' / '), options: fitConcepts } };
    }
    if (!fits.length) {
      const m = ranked(lex, candidates)[0];
      const d = dimsOf(m.cube);
      const missing = [...w.groups.filter((_, i) => !d.groups[i]), ...w.filters.filter((_, i) => !d.filters[i]).map((f) => f.dims)];
      const term = missing[0]?.[0]?.title ?? '';
      return { kind: 'refused', refusal: { reason: 'unreachable', term, measure: m.title } };
    }
    measures.push(fits[0]);
  }
  const main = measures[0];
  const d = dimsOf(main.cube);
  // A value held by two different dimensions the measure reaches ("LAX": an origin or a destination), no word saying which: asked back.
  for (const f of w.filters) {
    const order = lex.reach.get(main.cube) ?? [main.cube];
    const reached = f.dims.filter((x) => order.includes(x.cube));
    const titles = [...new Set(reached.map((x) => x.title))];
    if (new Set(reached.map((x) => x.concept)).size > 1)
      return { kind: 'refused', refusal: { reason: 'ambiguous_value', term: f.term, options: titles } };
  }
  const query: SemanticQuery = { measures: measures.map((m) => m.ref) };
  const groups = d.groups as Member[];
  if (groups.length) query.dimensions = [...new Set(groups.map((g) => g.ref))];
  const filters: NonNullable<SemanticQuery['filters']> = w.filters.map((f, i) => ({
    member: d.filters[i]!.ref,
    operator: f.operator,
    values: f.values,
  }));
  for (const c of w.conditions) {
    if (!groups.length && !w.granularity) return { kind: 'refused', refusal: { reason: 'condition_total', term: c.term } };
    const on = c.measure ? ranked(lex, c.measure).find((m) => dimsOf(m.cube).ok) : main;
    if (!on) return { kind: 'refused', refusal: { reason: 'condition_measure', term: c.term } };
    filters.push({ member: on.ref, operator: c.operator, values: [c.value] });
  }
  if (filters.length) query.filters = filters;
  const timed = Boolean(w.range || w.granularity || w.compare);
  const time = lex.timeOf.get(main.ref);
  if (timed && !time) return { kind: 'refused', refusal: { reason: 'no_time', term: main.title, measure: main.title } };
  if (time && timed) {
    query.time = {
      dimension: time,
      ...(w.granularity ? { granularity: w.granularity } : {}),
      ...(w.range ? { date_from: w.range.from, date_to: w.range.to } : {}),
    };
  }
  if (w.compare) query.compare = w.compare;
  if (groups.length && w.order && !w.granularity) query.order = [{ member: main.ref, direction: w.order }];
  if (w.limit !== undefined && groups.length) query.limit = Math.min(Math.max(1, w.limit), 1000);
  return { kind: 'query', query, measures, groups, noPeriod: !w.range };
}
