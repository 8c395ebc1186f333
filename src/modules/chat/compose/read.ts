// A question read for composition (docs/chat.md "Composed answers"): its period and comparison
// (the parser's own readers), the values of the tenant's data it names ("in Germany", "for shoes",
// "not in the North"), conditions on a measure ("over 1,000", "with a loss"), a top list's order
// and length, and the measures and dimensions it names in the model's words. Pure: the model's
// words and the data's values come in as arguments. What cannot be read exactly is said, never
// guessed: a "by <word>" that names no dimension is returned as unknown.
import { findTimeRange, toNumber, type TimeMatch } from '../parser/dates.ts';
import { blank, findCompare, findExplicitComparison, type Compare, type Granularity } from '../parser/comparisons.ts';
import { findCountry, findGranularity } from '../language/vocabulary.ts';
import { bucketStart } from '../../../semantic/periods.ts';
import type { Lexicon, Member } from './lexicon.ts';
import { blankOut, findAll, pick, phrase, PhraseIndex, STOP_WORDS, tokenize, type Found, type Token } from './match.ts';

export type ValueOperator = 'equals' | 'not_equals';
export type ConditionOperator = 'gt' | 'gte' | 'lt' | 'lte';

export interface Wanted {
  /** Each named measure: its candidates (one concept, or a near-tie of several). */
  measures: Member[][];
  groups: Member[][];
  /** `apart`: values set against each other ("Books vs Games"), answered side by side. */
  filters: { dims: Member[]; operator: ValueOperator; values: string[]; term: string; apart?: boolean }[];
  conditions: { measure?: Member[]; operator: ConditionOperator; value: number; term: string }[];
  order?: 'asc' | 'desc';
  limit?: number;
  range?: { from: string; to: string };
  granularity?: Granularity;
  compare?: Compare;
  /** "by campaign" where the model has no such dimension. */
  unknownGroup?: string;
  /**
   * A name the question filters by that is no value of the data ("in Alaska", "from Texas" where
   * origins are airport codes), or a word qualifying a measure that the model lacks ("cancelled
   * flights"): answering without it would answer something else.
   */
  unknownValue?: string;
}

const NEGATED = new RegExp(
  String.raw`\b(?:not|excluding|except|without|other than|apart from|besides|outside(?: of)?|but not)\s+` +
    String.raw`(?:(?:in|from|for|of|the|on|via|at|during|to|with)\s+)*$`,
);
const COMPARATORS: [RegExp, ConditionOperator][] = [
  [/^(?:over|above|more than|greater than|higher than|exceeding|larger than|bigger than|>)$/, 'gt'],
  [/^(?:at least|>=|no less than)$/, 'gte'],
  [/^(?:under|below|less than|fewer than|lower than|smaller than|<)$/, 'lt'],
  [/^(?:at most|<=|no more than|up to)$/, 'lte'],
];
const COMPARING =
  'over|above|more than|greater than|higher than|exceeding|larger than|bigger than|at least|no less than|' +
  'under|below|less than|fewer than|lower than|smaller than|at most|no more than|up to';
const CONDITION = new RegExp(
  `\\b(${COMPARING})\\s+(-?\\d[\\d,]*(?:\\.\\d+)?)\\s*(k|m|bn|thousand|million|billion)?(?![\\w.])|` +
    `(>=|<=|>|<)\\s*(-?\\d[\\d,]*(?:\\.\\d+)?)`,
  'g',
);
const LOSS = /\b(with (?:a )?loss(?:es)?|loss[- ]making|unprofitable|in the red|negative)\b/;
const GAIN = /\b(with (?:a )?profit|profitable|in the black)\b/;
const RANKING = 'top|best|largest|biggest|highest|leading|first|bottom|worst|lowest|smallest';
const LIMIT = new RegExp(`\\b(?:${RANKING})[- ](\\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|twenty)\\b`);
const LIMIT_AFTER =
  /\b(\d{1,4}|three|four|five|six|seven|eight|nine|ten|twenty) (?:best|top|biggest|largest|highest|most|lowest|worst|least)\b/;
const DESC = /\b(top|most|highest|best|biggest|largest|leading|max(?:imum)?|greatest)\b/;
const ASC = /\b(least|lowest|worst|smallest|fewest|bottom|min(?:imum)?)\b/;
const GROUP_WORD =
  /\b(?:by|per|for each|for every|each|split by|broken down by|grouped by|across) (?:the |each |every )?([a-z][\p{L}-]*)/gu;
const TO_DIM = /\b(by|per|each|every|which|what|across)\s+(?:the\s+)?$/;

/** Words of German, French and Spanish that the language tables leave for this step. */
const foreign = (src: string, to: string): [RegExp, string] => [new RegExp(`(?<![\\p{L}])(?:${src})(?![\\p{L}])`, 'giu'), to];
const FOREIGN: [RegExp, string][] = [
  foreign('meist ?verkauft\\p{L}*|(?:plus|más|mas) vendid[oa]s?|les plus vendus', 'best-selling'),
  foreign('nicht (?:in|im|aus)|pas en|no en', 'not in'),
  foreign('au[sß]er(?:halb)?|sauf|excepto|hors', 'except'),
  foreign('über|mehr als|plus de|más de|mas de|supérieur à', 'over'),
  foreign('unter|weniger als|moins de|menos de|inférieur à', 'under'),
  foreign('mit verlust|à perte|con pérdidas?|en pérdida', 'with a loss'),
  foreign('nach|pro|je|par|por', 'by'),
  // Everyday nouns of business data, for models that give their words in English only.
  foreign('branchen?|secteurs?|sectores?', 'industry'),
  foreign('kunden?|clients?|clientes?', 'customers'),
  foreign('produkte?|produits?|productos?', 'products'),
  foreign('städte|stadt|villes?|ciudad(?:es)?', 'city'),
  foreign('konten|konto|comptes?|cuentas?', 'accounts'),
  foreign('rechnungen|factures|facturas', 'invoices'),
];

const number = (raw: string, unit?: string): number => {
  const n = Number(raw.replace(/,/g, ''));
  if (unit === 'bn' || unit === 'billion') return n * 1e9;
  return unit === 'k' || unit === 'thousand' ? n * 1000 : unit === 'm' || unit === 'million' ? n * 1e6 : n;
};

export interface ReadContext {
  today: string;
  lexicon: Lexicon;
  /** Per string dimension (cube.member): its values in the caller's data. */
  values: Readonly<Record<string, readonly string[]>>;
}

type Target = { kind: 'measure' | 'dimension'; member: Member } | { kind: 'shape'; measure: Member[]; dimension: Member[]; top?: number };

export function readQuestion(englishText: string, ctx: ReadContext): Wanted {
  let cased = englishText
    .replace(/[?!;]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  for (const [re, to] of FOREIGN) cased = cased.replace(re, to);
  let text = cased.toLowerCase();
  const wanted: Wanted = { measures: [], groups: [], filters: [], conditions: [] };
  // Comparison, period and unit first, as the parser reads them (parse.ts).
  const explicit = findCompare(text) ? undefined : findExplicitComparison(text, ctx.today);
  const cmp = explicit?.cmp ?? findCompare(text);
  text = blank(text, cmp);
  let time: TimeMatch | undefined = explicit?.time ?? findTimeRange(text, ctx.today);
  text = blank(text, time);
  if (cmp?.unit && !time) time = { start: 0, end: 0, range: { from: bucketStart(ctx.today, cmp.unit), to: ctx.today } };
  const gran = findGranularity(text) ?? unitAfterGrouping(text);
  text = blank(text, gran);
  if (time) wanted.range = time.range;
  if (gran) wanted.granularity = gran.granularity;
  else if (cmp?.byUnit && cmp.unit) wanted.granularity = cmp.unit;
  if (cmp) wanted.compare = cmp.compare;
  cased = [cmp, explicit?.time ?? time, gran].reduce((t, s) => (s ? blank(t, s) : t), cased);

  // Conditions on a measure: the number is consumed; the measure before it is read below.
  const conditionAt: { at: number; c: Wanted['conditions'][number] }[] = [];
  for (const m of text.matchAll(CONDITION)) {
    const word = m[1] ?? m[4];
    const op = COMPARATORS.find(([re]) => re.test(word))![1];
    conditionAt.push({ at: m.index, c: { operator: op, value: number(m[2] ?? m[5], m[3]), term: m[0].trim() } });
    text = blankOut(text, m.index, m.index + m[0].length);
  }
  for (const [re, op] of [
    [LOSS, 'lt'],
    [GAIN, 'gt'],
  ] as const) {
    const m = re.exec(text);
    if (!m) continue;
    conditionAt.push({ at: m.index, c: { operator: op, value: 0, term: m[0] } });
    // "loss"/"profit" still names the measure: only the framing words are consumed.
    const keep = /loss|profit/.exec(m[0]);
    text = keep ? blankOut(text, m.index, m.index + keep.index) : blankOut(text, m.index, m.index + m[0].length);
  }

  const limit = LIMIT.exec(text) ?? LIMIT_AFTER.exec(text);
  if (limit) {
    wanted.limit = toNumber(limit[1]);
    const at = limit.index + limit[0].indexOf(limit[1]);
    text = blankOut(text, at, at + limit[1].length);
  }

  // A value inside a longer phrase of the model ("refunded orders") is that phrase's, not a filter.
  const memberTokens = tokenize(text);
  const longer = findAll(
    memberTokens,
    [...ctx.lexicon.measures, ...ctx.lexicon.dimensions].map((m) => ({ target: m, phrases: m.phrases.filter((p) => p.length > 1) })),
  ).map((f) => [memberTokens[f.from].start, memberTokens[f.to - 1].end] as const);
  const inPhrase = (start: number, end: number) => longer.some(([s, e]) => s <= start && end <= e && e - s > end - start);
  const valueSpans = readValues(text, cased, ctx, wanted, inPhrase);
  for (const [s, e] of valueSpans) text = blankOut(text, s, e);
  for (const f of wanted.filters) if (f.apart) add(wanted.groups, f.dims);

  // The model's words: shapes ("best sellers"), measures and dimensions, longest first.
  const tokens = tokenize(text);
  const lex = ctx.lexicon;
  const byRef = (ref: string, list: Member[]) => list.filter((m) => m.ref === ref);
  const targets: { target: Target; phrases: string[][] }[] = [
    ...lex.shapes.map((s) => ({
      target: {
        kind: 'shape',
        measure: byRef(s.measure, lex.measures),
        dimension: byRef(s.dimension, lex.dimensions),
        top: s.top,
      } as Target,
      phrases: [s.phrase],
    })),
    ...lex.measures.map((m) => ({ target: { kind: 'measure', member: m } as Target, phrases: m.phrases })),
    // A dimension's function word ("from" for an origin) introduces its values; it never groups.
    ...lex.dimensions
      .filter((d) => d.type !== 'time')
      .map((d) => ({ target: { kind: 'dimension', member: d } as Target, phrases: d.phrases.filter((p) => !introduces(p)) })),
  ];
  const found = findAll(tokens, targets);
  // A shape ("gross by genre") never takes a word of a measure that reaches outside it ("US gross", "delayed flights").
  const partly = (f: Found<Target>, g: Found<Target>) => g.from < f.to && f.from < g.to && (g.from < f.from || g.to > f.to);
  const kept = found.filter((f) => f.target.kind !== 'shape' || !found.some((g) => g.target.kind === 'measure' && partly(f, g)));
  const groups = pick(kept, new Array(tokens.length).fill(false));
  // A word after "by" that no dimension or unit took: a grouping the model does not have.
  let dimText = text;
  for (const g of groups) dimText = spanBlank(dimText, tokens, g[0]);
  for (const m of dimText.matchAll(GROUP_WORD)) {
    const word = m[1];
    if (!/^(?:the|a|an|all|any|this|that|last|day|week|month|quarter|year|now|far|which)$/.test(word)) {
      wanted.unknownGroup = word;
      break;
    }
  }
  let shapeMeasure: Member[] | undefined;
  // A dimension's word right after a value ("large birds") is what the value describes, unless nothing else groups.
  const described: Member[][] = [];
  const afterValue = (at: number) => valueSpans.some(([, e]) => e <= at && cased.slice(e, at).trim() === '');
  for (const g of groups) {
    const kinds = new Set(g.map((f) => f.target.kind));
    const before = text.slice(0, tokens[g[0].from].start);
    const asDimension = kinds.has('dimension') && (!kinds.has('measure') || TO_DIM.test(before));
    if (kinds.has('measure') && !asDimension) wanted.unknownValue ??= qualifier(cased, tokens, groups, g);
    const shape = g.find((f) => f.target.kind === 'shape');
    if (shape && shape.target.kind === 'shape') {
      shapeMeasure = shape.target.measure;
      wanted.measures.push(shape.target.measure);
      wanted.groups.push(shape.target.dimension);
      if (shape.target.top) {
        wanted.order ??= 'desc';
        wanted.limit ??= shape.target.top;
      }
    } else if (asDimension) {
      const dims = g.flatMap((f) => (f.target.kind === 'dimension' ? [f.target.member] : []));
      if (!TO_DIM.test(before) && afterValue(tokens[g[0].from].start)) described.push(dims);
      else add(wanted.groups, dims);
    } else {
      const members = g.flatMap((f) => (f.target.kind === 'measure' ? [f.target.member] : []));
      const cond = conditionAt.find(
        (c) => c.at >= tokens[g[g.length - 1].to - 1].end && /^[\s\w]{0,24}$/.test(text.slice(tokens[g[0].to - 1].end, c.at)),
      );
      if (cond && !cond.c.measure) cond.c.measure = members;
      add(wanted.measures, members);
    }
  }
  if (!wanted.groups.length) for (const d of described) add(wanted.groups, d);
  wanted.conditions = conditionAt.map((c) => c.c);
  let rest = text;
  for (const g of groups) rest = spanBlank(rest, tokens, g[0]);
  wanted.unknownValue ??= unreadName(rest, cased, lex);
  // "top 3 categories by units": the measure named ranks the top list, not the insight's own.
  if (shapeMeasure && wanted.measures.length > 1) wanted.measures = wanted.measures.filter((m) => m !== shapeMeasure);
  // "revenue by customer" where "customer" names a measure, not a dimension: a grouping the model lacks.
  const byMeasure = groups.find((g) => g.every((f) => f.target.kind === 'measure') && TO_DIM.test(text.slice(0, tokens[g[0].from].start)));
  if (byMeasure && !wanted.groups.length)
    wanted.unknownGroup = text.slice(tokens[byMeasure[0].from].start, tokens[byMeasure[0].to - 1].end);
  if (wanted.groups.length) {
    if (ASC.test(text)) wanted.order = 'asc';
    else if (DESC.test(text) || limit) wanted.order ??= 'desc';
    if (wanted.order && wanted.limit === undefined && /\b(top|bottom)\b/.test(text)) wanted.limit = 10;
  }
  return wanted;
}

/** A phrase that is one function word ("from", "to"): it introduces a value of its dimension. */
const introduces = (p: string[]) => p.length === 1 && STOP_WORDS.has(p[0]);

/** "by origin state and month": a unit joined by "and" to a grouping groups by that unit too. */
function unitAfterGrouping(text: string): { granularity: Granularity; start: number; end: number } | undefined {
  const m = /\b(?:by|per)\s[^,.]*?\b(and (day|week|month|quarter|year))\b/.exec(text);
  if (!m) return undefined;
  const start = m.index + m[0].length - m[1].length;
  return { granularity: m[2] as Granularity, start, end: start + m[1].length };
}

/**
 * A word qualifying a measure right before it that nothing read ("cancelled flights", "diverted
 * flights"): a participle the model has no measure for. Answering the plain measure would answer
 * something else.
 */
function qualifier(cased: string, tokens: Token[], groups: Found<Target>[][], g: Found<Target>[]): string | undefined {
  const at = g[0].from - 1;
  if (at < 0 || groups.some((o) => o[0].from <= at && at < o[0].to)) return undefined;
  const t = tokens[at];
  const word = cased.slice(t.start, t.end);
  if (!/^\p{L}{3,}ed$/u.test(word) || /^(?:hundred|need|based)$/i.test(word) || cased.slice(t.end, tokens[g[0].from].start).trim())
    return undefined;
  return cased.slice(t.start, tokens[g[g.length - 1].to - 1].end);
}

const NOT_NAMES = /^(?:date|today|now|total|all|each|every|this|that|last|next|average|which|what)$/i;

/**
 * A name the question filters by that nothing read: a capitalized word after in / from / for / at
 * ("in Alaska"), or any word after a dimension's own introducing word ("from texas" where "from"
 * introduces the origin). `rest` is the question with everything read blanked out.
 */
function unreadName(rest: string, cased: string, lex: Lexicon): string | undefined {
  const open = (s: number, e: number) => rest.slice(s, e).trim() === cased.slice(s, e).trim().toLowerCase();
  for (const m of cased.matchAll(/\b(?:in|from|for|at|to)\s+(?:the\s+)?(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*)/gu)) {
    const start = m.index + m[0].length - m[1].length;
    // A country with no rows is still a country (the parser keeps its filter), never an unknown name.
    if (m[1].length > 1 && !NOT_NAMES.test(m[1]) && open(start, start + m[1].length) && !findCountry(m[1].toLowerCase(), m[1])) return m[1];
  }
  const words = new Set(lex.dimensions.flatMap((d) => d.phrases.filter(introduces).map((p) => p[0])));
  for (const w of words) {
    for (const m of rest.matchAll(new RegExp(`\\b${w}\\s+(?:the\\s+)?([\\p{L}][\\p{L}'-]*)`, 'gu'))) {
      if (!STOP_WORDS.has(m[1]) && !NOT_NAMES.test(m[1])) return m[1];
    }
  }
  return undefined;
}

/** Adds a list of candidates unless one of the same concepts is already there. */
function add(list: Member[][], members: Member[]): void {
  if (!members.length) return;
  const concepts = new Set(members.map((m) => m.concept));
  if (list.some((l) => l.some((m) => concepts.has(m.concept)))) return;
  list.push(members);
}

const spanBlank = (text: string, tokens: ReturnType<typeof tokenize>, f: Found<unknown>) =>
  blankOut(text, tokens[f.from].start, tokens[f.to - 1].end);

/** A dimension of countries: named or titled so ("country", "Land"), the only kind whose values are read as country codes. */
export const isCountryDimension = (d: Member): boolean => d.concept === 'country' || d.phrases.some((p) => p.includes('country'));

type Hit = { dim: Member; value: string };

/** Per list of values (the query service keeps one list per data version) and dimension: its values' phrases, indexed. */
const valueIndexes = new WeakMap<readonly string[], Map<Member, PhraseIndex<Hit>>>();

function valueIndex(dim: Member, values: readonly string[]): PhraseIndex<Hit> {
  let byDim = valueIndexes.get(values);
  if (!byDim) valueIndexes.set(values, (byDim = new Map()));
  let index = byDim.get(dim);
  if (index) return index;
  const targets: { target: Hit; phrases: string[][] }[] = [];
  const own = new Set(values);
  for (const v of values) {
    if (/^\d+$/.test(v) || (v.length < 2 && !/^[A-Z]$/.test(v))) continue;
    targets.push({ target: { dim, value: v }, phrases: [phrase(v)] });
  }
  for (const [v, list] of Object.entries(dim.valueWords ?? {})) {
    if (own.has(v)) targets.push({ target: { dim, value: v }, phrases: list.map(phrase) });
  }
  byDim.set(dim, (index = new PhraseIndex(targets)));
  return index;
}

/** The tenant's values the question names (and the country names it spells out), as filters; returns the spans read. */
function readValues(
  text: string,
  cased: string,
  ctx: ReadContext,
  wanted: Wanted,
  inPhrase: (start: number, end: number) => boolean,
): [number, number][] {
  const { lexicon } = ctx;
  const spans: [number, number][] = [];
  const hits: { start: number; end: number; hit: Hit[] }[] = [];
  const tokens = tokenize(text);
  // Dimension by dimension in the lexicon's order: the order one search over all of them gave.
  const found = lexicon.dimensions.flatMap((dim) => {
    const values = ctx.values[dim.ref];
    return values ? valueIndex(dim, values).find(tokens) : [];
  });
  for (const g of pick(found, new Array(tokens.length).fill(false))) {
    const start = tokens[g[0].from].start;
    const end = tokens[g[0].to - 1].end;
    // A short code ("DE", "IN") counts only as written, in capitals.
    // One letter ("R") only before its dimension's word ("R-rated").
    const next = /^[\s-]+([\p{L}]+)/u.exec(text.slice(end))?.[1];
    const ownWord = (d: Member) => next !== undefined && d.phrases.some((p) => p.length === 1 && p[0] === phrase(next)[0]);
    const ok = g.filter(
      (f) =>
        (f.target.value.length > 3 || cased.slice(start, end) === f.target.value) && (f.target.value.length > 1 || ownWord(f.target.dim)),
    );
    if (ok.length && !inPhrase(start, end)) hits.push({ start, end, hit: ok.map((f) => f.target) });
  }
  // Country names ("Germany", "Deutschland") for dimensions holding ISO codes.
  let rest = hits.reduce((t, h) => blankOut(t, h.start, h.end), text);
  let restCased = hits.reduce((t, h) => blankOut(t, h.start, h.end), cased);
  for (let c = findCountry(rest, restCased); c; c = findCountry(rest, restCased)) {
    // Only a dimension of countries holds country codes (a US state "CA" is not Canada).
    const dims = lexicon.dimensions.filter((d) => isCountryDimension(d) && ctx.values[d.ref]?.includes(c!.code));
    if (dims.length) hits.push({ start: c.start, end: c.end, hit: dims.map((dim) => ({ dim, value: c!.code })) });
    rest = blankOut(rest, c.start, c.end);
    restCased = blankOut(restCased, c.start, c.end);
  }
  hits.sort((a, b) => a.start - b.start);
  let end = 0;
  for (const h of hits) {
    const between = text.slice(end, h.start);
    end = h.end;
    // The dimension's own word before the value ("from ORD", "to ORD", "origin state TX") says whose value it is.
    const head = text.slice(0, h.start).trimEnd();
    for (let k = 3; k > 0; k--) {
      const m = new RegExp(`(?:^|\\s)((?:[\\p{L}-]+\\s+){${k - 1}}[\\p{L}-]+)$`, 'u').exec(head);
      const own = m ? h.hit.filter((x) => x.dim.phrases.some((p) => p.join(' ') === phrase(m[1]).join(' '))) : [];
      if (!m || !own.length) continue;
      h.hit = own;
      spans.push([head.length - m[1].length, h.start]);
      break;
    }
    const operator: ValueOperator = NEGATED.test(text.slice(0, h.start)) ? 'not_equals' : 'equals';
    const concepts = [...new Set(h.hit.map((x) => x.dim.concept))];
    const same = wanted.filters.find((f) => f.operator === operator && concepts.includes(f.dims[0].concept));
    const value = h.hit[0].value;
    h.hit = h.hit.filter((x) => x.value === value);
    if (same) {
      if (!same.values.includes(value)) same.values.push(value);
      if (/^\s*(?:vs\.?|versus|against|compared (?:with|to))\s*$/.test(between)) same.apart = true;
    } else {
      wanted.filters.push({ dims: h.hit.map((x) => x.dim), operator, values: [value], term: cased.slice(h.start, h.end) });
    }
    spans.push([h.start, h.end]);
    // "the marketplace channel": the dimension's word goes with its value, not a grouping.
    const after = /^[\s-]+(?:the\s+)?([\p{L}-]+)/u.exec(text.slice(h.end));
    const named = after ? h.hit.filter((x) => x.dim.phrases.some((p) => p.length === 1 && p[0] === phrase(after[1])[0])) : [];
    if (after && named.length) {
      spans.push([h.end, h.end + after[0].length]);
      // "medium damage": of the dimensions holding "Medium", the one named.
      const f = wanted.filters.find((x) => x.values.includes(h.hit[0].value) && x.dims.some((d) => named.some((n) => n.dim === d)));
      if (f) f.dims = f.dims.filter((d) => named.some((n) => n.dim === d));
    }
  }
  return spans;
}
