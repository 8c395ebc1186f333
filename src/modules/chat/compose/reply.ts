// The reply to a composed answer, from the query service's own rows and columns (no figure is
// computed here), and the refusal of what the model cannot honour: the part named, and what can be
// asked listed from the model itself (never an empty list).
import type { QueryResult } from '../../query/query.service.ts';
import type { SemanticQuery } from '../../../semantic/query/query.schema.ts';
import type { Language } from '../language/languages.ts';
import { phrases } from '../language/phrases.ts';
import type { Lexicon, Member } from './lexicon.ts';
import type { ComposeRefusal } from './resolve.ts';
import { isCountryDimension } from './read.ts';
import { composeWords } from './words.ts';

/** A member's title in the language, "(%)" dropped. */
export const titleIn = (m: Member, language: Language): string => (m.titles[language] ?? m.title).replace(/\s*\(%\)$/, '');

const memberOf = (lex: Lexicon, ref: string): Member | undefined =>
  lex.measures.find((m) => m.ref === ref) ?? lex.dimensions.find((d) => d.ref === ref);

/** The model's measure and grouping titles in the language (a measure's: those reachable from it). */
export function modelLists(lex: Lexicon, language: Language, measure?: Member): { measures: string[]; dims: string[] } {
  const uniq = (list: string[]) => [...new Set(list)];
  const measures = uniq(lex.measures.map((m) => titleIn(m, language))).slice(0, 8);
  const reach = measure ? (lex.reach.get(measure.cube) ?? [measure.cube]) : undefined;
  const dims = uniq(
    lex.dimensions
      .filter((d) => d.type !== 'time' && !/(^|_)id$/.test(d.name) && (!reach || reach.includes(d.cube)))
      .map((d) => titleIn(d, language)),
  ).slice(0, 8);
  return { measures, dims };
}

/** The model's measures and groupings in the language: what can be asked (periods where it has no dimension). */
export function whatCanBeAsked(lex: Lexicon, language: Language, measure?: Member): { measures: string; dims: string } {
  const p = phrases(language);
  const { measures, dims } = modelLists(lex, language, measure);
  const periods = ['month', 'quarter', 'year'].map((g) => p.period[g] ?? g);
  return { measures: p.and(measures), dims: p.or(dims.length ? dims : periods) };
}

export function composedRefusal(r: ComposeRefusal, lex: Lexicon, language: Language): string {
  const w = composeWords(language);
  const p = phrases(language);
  const measure = 'measure' in r ? lex.measures.find((m) => m.title === r.measure) : undefined;
  const can = whatCanBeAsked(lex, language, measure);
  const all = whatCanBeAsked(lex, language);
  const title = measure ? titleIn(measure, language) : undefined;
  switch (r.reason) {
    case 'unknown_group':
      return w.refuse.unknown_group(r.term, all.dims) + w.canAsk(all.measures, all.dims);
    case 'unknown_value':
      return w.refuse.unknown_value(r.term, all.dims) + w.canAsk(all.measures, all.dims);
    case 'ambiguous_value':
      return w.refuse.ambiguous_value(r.term, p.or(r.options));
    case 'unreachable':
      return w.refuse.unreachable(title ?? r.measure, r.term, can.dims) + w.canAsk(all.measures, all.dims);
    case 'condition_total':
      return w.refuse.condition_total(r.term, all.dims);
    case 'condition_measure':
      return w.refuse.condition_measure(r.term) + w.canAsk(all.measures, all.dims);
    case 'no_time':
      return w.refuse.no_time(title ?? r.measure) + w.canAsk(all.measures, all.dims);
    case 'ambiguous':
      return w.refuse.ambiguous(r.term, p.or(r.options.map((o) => lex.measures.find((m) => m.concept === o)?.title ?? o)));
  }
}

const isCode = (v: unknown) => typeof v === 'string' && /^[A-Z]{2}$/.test(v);

/** "Orders by channel, 2026-03-01 to 2026-03-31: web 120, app 80 and marketplace 40." */
export function composedReply(result: QueryResult, asked: SemanticQuery, lex: Lexicon, language: Language, notes: string[] = []): string {
  const w = composeWords(language);
  const p = phrases(language);
  const q: SemanticQuery = result.query;
  const title = (ref: string) => {
    const m = memberOf(lex, ref);
    return m ? titleIn(m, language) : ref;
  };
  const measures = p.and(q.measures.map(title));
  // German nouns keep their capital.
  const lower = (s: string) => (language === 'de' ? s : s.toLowerCase());
  const dims = (q.dimensions ?? []).map((d) => lower(title(d)));
  const scope: string[] = [];
  // Only a dimension of countries holds country codes ("CA" as a US state is not Canada).
  const country = (ref: string, v: unknown) => {
    const m = memberOf(lex, ref);
    return isCode(v) && m && isCountryDimension(m) ? p.country(String(v)) : String(v ?? '–');
  };
  for (const f of q.filters ?? []) {
    const values = (f.values ?? []).map((v) => country(f.member, v));
    if (f.operator === 'equals' || f.operator === 'not_equals')
      scope.push(w.where(lower(title(f.member)), p.or(values), f.operator === 'not_equals'));
    else if (f.operator in w.ops) {
      const col = result.columns.find((c) => c.name === f.member);
      scope.push(w.condition(title(f.member), w.ops[f.operator as 'gt'], p.number(Number(f.values?.[0]), col)));
    }
  }
  const t = q.time;
  const when = t?.date_to ? p.span(t.date_from ?? t.date_to, t.date_to) : w.allData;
  // The order and length asked for (the service fills in defaults that were not).
  const ranked = asked.order?.[0] && q.dimensions?.length ? `${w.top(asked.limit, asked.order[0].direction === 'asc')} ` : '';
  const head = `${ranked}${w.by(measures, dims)}${scope.length ? ` (${scope.join(', ')})` : ''}, ${when}`;
  const first = q.measures[0];
  const col = result.columns.find((c) => c.name === first);
  const fmt = (v: unknown) => (typeof v === 'number' ? p.number(v, col) : '–');
  const rows = result.rows;
  const tail = notes.length ? ` ${p.note(notes)}` : '';
  if (!rows.length) return `${head}${p.colon}${w.none}.${tail}`;
  const label = (r: Record<string, unknown>) =>
    [...(t?.granularity ? [String(r[t.dimension] ?? '')] : []), ...(q.dimensions ?? []).map((d) => country(d, r[d]))]
      .filter(Boolean)
      .join(' · ');
  const prev = (r: Record<string, unknown>) => (q.compare ? ` (${w.previous(fmt(r[`${first}.previous`]))})` : '');
  if (rows.length === 1 && !q.dimensions?.length && !t?.granularity)
    return `${head}${p.colon}${fmt(rows[0][first])}${prev(rows[0])}.${tail}`;
  if (t?.granularity && !q.dimensions?.length) {
    const last = rows[rows.length - 1];
    return `${head}${p.colon}${w.periods(rows.length, `${label(last)}${p.colon}${fmt(last[first])}${prev(last)}`)}.${tail}`;
  }
  const shown = rows.slice(0, 5).map((r) => `${label(r)}${p.colon}${fmt(r[first])}${prev(r)}`);
  const more = result.total_rows > 5 ? ` ${w.more(Math.max(result.total_rows, rows.length))}` : '';
  return `${head}${p.colon}${shown.join('; ')}${more}.${tail}`;
}
