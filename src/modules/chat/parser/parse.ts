// The built-in question parser: English question (+ the conversation's last query) → the
// structured query the insight engine runs. Pure: everything it knows comes in as arguments.
import { findTimeRange, rangeBefore, toNumber, type TimeMatch } from './dates.ts';
import {
  ALL_CATEGORIES,
  ALL_CHANNELS,
  ALL_COUNTRIES,
  findCategory,
  findChannel,
  findCountry,
  findGranularity,
  type Span,
} from '../language/vocabulary.ts';
import { find, matchFilterValues, matchInsight, spacedWords, type InsightWords } from './model-words.ts';
import { bucketStart } from '../../../semantic/periods.ts';
import { blank, findCompare, findExplicitComparison } from './comparisons.ts';
import { findRefusal, type ModelWords, type Refusal } from './refusals.ts';
import { detectLanguage, originalWords, toEnglish, type Language } from '../language/languages.ts';

export type { Compare, Granularity } from './comparisons.ts';
import type { StructuredQuery } from '../chat.schemas.ts';
export type { StructuredQuery } from '../chat.schemas.ts';
type FilterValue = string | string[];

/** What the parser needs to know of each catalog insight. */
export interface ParserInsight {
  code: string;
  kind: 'timeseries' | 'breakdown' | 'top' | 'kpi';
  granularities: readonly string[];
  filters: readonly string[];
  /** Insights that take a limit (top lists, breakdowns with one): the largest accepted. */
  maxLimit?: number | null;
}

export interface ParseContext {
  /** YYYY-MM-DD in UTC: the day relative phrases count from. */
  today: string;
  catalog: readonly ParserInsight[];
  /** The tenant's product categories (exact names, as stored). */
  categories: readonly string[];
  /** The conversation's last query, for follow-ups. */
  previous?: StructuredQuery;
  /** The model's words (insights' measures and dimensions, filter dimensions): see model-words.ts. */
  words?: ModelWords;
  /** The tenant's values of each filter dimension, from its data. */
  filterValues?: Readonly<Record<string, readonly string[]>>;
  /** The question's language, when known; else it is detected (languages.ts). */
  language?: Language;
  /** The model's titles and synonyms per language, with the English the parser knows them by. */
  translations?: { key: string; tables: Partial<Record<Language, [string, string][]>> };
}

// Filters with a vocabulary of their own in code (ISO country names, channel words, category
// synonyms): their values are not matched again from the data.
const BUILT_IN_FILTERS = new Set(['country', 'channel', 'category']);

type Outcome =
  | {
      kind: 'query';
      query: StructuredQuery;
      followUp: boolean;
      notes: string[];
      alternatives?: StructuredQuery[];
      /** "How many claims do we have": no period named, and the question asks about all of the data. */
      allData?: boolean;
    }
  /** The question names something the model cannot answer (refusals.ts): said so, never answered with something else. */
  | { kind: 'refused'; refusal: Refusal; range?: { from: string; to: string } }
  | { kind: 'unmatched' };
/** What the question asks, and the language it was read in (ISO 639-1). */
export type ParseOutcome = Outcome & { language: Language };

const KPI_WORDS = new RegExp(
  String.raw`\b(total|totals|overall|in total|altogether|sum|how much|how many|compared?|` +
    String.raw`comparison|vs\.?|versus|change|changed|growth|grow|grew|growing|up or down|` +
    String.raw`increased?|decreased?|drop(ped)?|declined?|kpis?|headline|against)\b`,
);
const DATA_WORDS = new RegExp(
  String.raw`\b(show|chart|plot|graph|report|performance|perform|performing|numbers|` +
    String.raw`figures|stats|statistics|results|business|doing|trend|trends|kpis?|how did we do|` +
    String.raw`how are we doing|how's|how is|compare|comparison)\b`,
);
// Asked with no metric and no period, these still mean "how is revenue going".
const HOW_ARE_WE_DOING = /\b(how are we doing|how did we do|how is business|how's business|how are sales|how are things going)\b/;
const NEGATION = /\b(excluding|except|without|not|other than|apart from|besides)\s+(the\s+)?$/;
const FOLLOW_UP_START =
  /^(and|what about|how about|same|now|ok|okay|then|also|but|just|only|instead|compare|switch|make it|change it|show (it|that|the same))\b/;
const FOLLOW_UP_ANY = /\b(instead|the same|as well|too|that one|this one)\b/;
const LIMIT_BEFORE = new RegExp(
  String.raw`\b(?:top|best|largest|biggest|highest|leading|first)[- ](\d{1,4}|one|two|` +
    String.raw`three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty)\b`,
);
const LIMIT_AFTER = new RegExp(
  String.raw`\b(\d{1,4}|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|` +
    String.raw`thirty) (?:best|top|biggest|largest|highest|most|leading|best-selling|top-selling|` +
    String.raw`products|skus|items|categories|countries|markets)\b`,
);
const PERIOD_BEFORE = /\b(the )?(day|week|month|quarter|year|period) before\b|\b(previous|prior|preceding) period\b/;

// "how many claims do we have", "all-time revenue": the question is about all of the data.
const ALL_DATA = /\b(do we have|did we have|have we got|are there|were there|all[- ]time|of all time|ever)\b/;

// Questions about the world outside the data ("will it rain tomorrow"): told what can be asked, not refused as a forecast.
const OFF_TOPIC =
  /\b(weather|rain(s|ing|y)?|snow(s|ing)?|sunny|temperature|forecast for (?:the )?weather|stock market|lottery|horoscope|news|jokes?)\b/;

export function normalize(question: string): string {
  return question
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[?!;]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Reads a question in English, German, French or Spanish: its language is detected (unless given)
 * and a question in another language is read into the English grammar first (languages.ts).
 */
export function parseQuestion(question: string, ctx: ParseContext): ParseOutcome {
  const language = ctx.language ?? detectLanguage(question);
  const model = ctx.translations?.tables[language] ?? [];
  const key = ctx.translations?.key ?? '';
  const english = language === 'en' ? question : toEnglish(question, language, model, key);
  const outcome = parseEnglish(english, ctx);
  // A refusal names what is missing in the question's own words.
  if (outcome.kind === 'refused' && language !== 'en') {
    return {
      ...outcome,
      refusal: { ...outcome.refusal, term: originalWords(normalize(question), language, outcome.refusal.term, model, key) },
      language,
    };
  }
  return { ...outcome, language };
}

function parseEnglish(question: string, ctx: ParseContext): Outcome {
  const original = normalize(question);
  let text = original.toLowerCase();
  const notes: string[] = [];

  // A comparison first ("vs last year" is not the window), then time, each blanked out once read:
  // "last week" must not read as "by week", "may" not as a month. Two periods compared ("2017 vs
  // 2016") are the window and its comparison.
  const explicit = findCompare(text) ? undefined : findExplicitComparison(text, ctx.today);
  if (explicit?.note) notes.push(explicit.note);
  const cmp = explicit?.cmp ?? findCompare(text);
  text = blank(text, cmp);
  let time: TimeMatch | undefined = explicit?.time ?? findTimeRange(text, ctx.today);
  text = blank(text, time);
  const originalBlanked = blank(blank(original, cmp), time);
  // What the model cannot answer is refused before anything is chosen: "return on ad spend" must
  // not become the refund rate, "by campaign" not a breakdown by something else.
  const refusal = findRefusal(text, ctx.words);
  // "will it rain tomorrow" is not a forecast of the data: the reply says what can be asked.
  if (refusal?.reason === 'future' && OFF_TOPIC.test(text)) return { kind: 'unmatched' };
  if (refusal) return { kind: 'refused', refusal };
  if (time && time.range.from > ctx.today) {
    const term = original.slice(time.start, time.end);
    return { kind: 'refused', refusal: { reason: 'future', term, start: time.start, end: time.end }, range: time.range };
  }
  // "revenue MoM", "revenue vs last month": this month so far, against the same days of the month before.
  if (cmp?.unit && !time) time = { start: 0, end: 0, range: { from: bucketStart(ctx.today, cmp.unit), to: ctx.today } };
  const granularity = findGranularity(text);
  text = blank(text, granularity);
  const foundCountry = findCountry(text, originalBlanked);
  const valueWords = (name: string) => ctx.words?.filters.find((f) => f.name === name)?.values ?? {};
  const foundChannel = findChannel(text, valueWords('channel'));
  const foundCategory = findCategory(text, ctx.categories, valueWords('category'));
  // A filter can only include one value; "excluding electronics" must not become "electronics".
  const negated = (m: Span | undefined) => Boolean(m && NEGATION.test(text.slice(0, m.start)));
  for (const [m, what] of [
    [foundCountry, 'a country'],
    [foundChannel, 'a channel'],
    [foundCategory, 'a category'],
  ] as const) {
    if (negated(m)) notes.push(`excluding ${what} is not supported, so the answer includes it`);
  }
  // Two countries or channels named ("Spain vs Italy", "mobile and web") are a filter of several
  // values: by period, a series per value; without a period, the breakdown kept to those values.
  const country = foundCountry && !negated(foundCountry) ? foundCountry : undefined;
  const channel = foundChannel && !negated(foundChannel) ? foundChannel : undefined;
  const category = foundCategory && !negated(foundCategory) ? foundCategory : undefined;
  // Filter words are not metric words ("Pet Supplies" sales, the mobile "app").
  let rest = blank(blank(blank(text, foundCountry), foundChannel), foundCategory);

  const limitMatch = LIMIT_BEFORE.exec(rest) ?? LIMIT_AFTER.exec(rest);
  const limit = limitMatch ? toNumber(limitMatch[1]) : undefined;
  // Only the number is consumed: in "5 products" the noun still names the metric.
  if (limitMatch) {
    const at = limitMatch.index + limitMatch[0].indexOf(limitMatch[1]);
    rest = blank(rest, { start: at, end: at + limitMatch[1].length });
  }

  const clearCountry = ALL_COUNTRIES.exec(text);
  const clearChannel = ALL_CHANNELS.exec(text);
  const clearCategory = ALL_CATEGORIES.exec(text);
  // "all countries" lifts a filter; it does not ask for the breakdown by country.
  const dimText = [clearCountry, clearChannel, clearCategory].reduce(
    (t, m) => (m ? blank(t, { start: m.index, end: m.index + m[0].length }) : t),
    text,
  );
  const prev = ctx.previous;
  const takes = (filter: string) => ctx.catalog.some((i) => i.filters.includes(filter));
  // The model's own words: filter values found in the tenant's data, and, when the rules above
  // name no insight of this model, the insight whose measure and dimension words the question uses.
  const found = ctx.words
    ? matchFilterValues(
        spacedWords(text),
        Object.fromEntries(Object.entries(ctx.filterValues ?? {}).filter(([n]) => !BUILT_IN_FILTERS.has(n) && takes(n))),
        ctx.words.filters,
        originalBlanked,
      )
    : { filters: {}, spans: [] };
  const words = ctx.words ?? { insights: [], filters: [] };
  // A value with its dimension's word ("the marketplace channel") names a filter, not a breakdown.
  const withDimensionWord = (m: Span | undefined, name: string): Span | undefined => {
    const list = m && words.filters.find((f) => f.name === name)?.words;
    const next = list && find(spacedWords(text.slice(m!.end)), list);
    const after = next && /^\s+$/.test(text.slice(m!.end, m!.end + next.start)) ? next : undefined;
    return m && (after ? { start: m.start, end: m.end + after.end } : m);
  };
  const valueSpans = [
    withDimensionWord(foundCountry, 'country'),
    withDimensionWord(foundChannel, 'channel'),
    withDimensionWord(foundCategory, 'category'),
  ];
  // Dimensions of which the question names several values: compared side by side when no period unit is asked for.
  const listed = [
    ...(country && country.codes.length > 1 ? ['country'] : []),
    ...(channel && channel.channels.length > 1 ? ['channel'] : []),
    ...Object.entries(found.filters).flatMap(([n, v]) => (Array.isArray(v) ? [n] : [])),
  ];
  const modelText = spacedWords([...found.spans, ...valueSpans].reduce(blank, text));
  const modelMatch = matchInsight(modelText, words.insights, { granularity: Boolean(granularity), comparison: Boolean(cmp), listed });
  // The dimensions the question groups by ("by country", "which channel"), in the model's words.
  const groups = words.insights.some((i) => i.dimensions.length > 0 && find(dimText, i.dimensions) !== undefined);
  const followUp = Boolean(prev) && (FOLLOW_UP_START.test(text) || FOLLOW_UP_ANY.test(text) || (!modelMatch && !groups));
  // A follow-up keeps the previous answer's shape: a total stays a total ("and revenue?").
  // A comparison without a period asks for two totals ("sales this week vs last week").
  const kpi = !granularity && (KPI_WORDS.test(rest) || Boolean(cmp) || (followUp && /_kpi$/.test(prev?.insight_code ?? '')));
  const before = !time && PERIOD_BEFORE.test(text);
  const modelFilters = Object.keys(found.filters).length > 0;
  const slots = Boolean(
    time ||
      before ||
      granularity ||
      country ||
      channel ||
      category ||
      limit ||
      clearCountry ||
      clearChannel ||
      clearCategory ||
      modelFilters ||
      cmp,
  );

  let code = modelMatch?.code;
  // A follow-up keeps the previous answer's shape ("how many orders last week?" → "and revenue?" is
  // a total too), where the model has the new measure in that shape and no unit or grouping is asked for.
  if (followUp && prev && code && !granularity) {
    const was = words.insights.find((i) => i.code === prev.insight_code);
    const now = words.insights.find((i) => i.code === code);
    if (was && now && was.kind !== now.kind && now.kind === 'timeseries' && was.kind === 'kpi') {
      code = words.insights.find((i) => i.kind === was.kind && i.measure === now.measure)?.code ?? code;
    }
  }

  let query: StructuredQuery;
  if (followUp && prev) {
    if (!code && !slots) return { kind: 'unmatched' };
    const series = seriesOf(prev.insight_code, ctx);
    code ??= granularity && series && !groups ? series : prev.insight_code;
    query = { ...prev, insight_code: code, filters: { ...prev.filters } };
    if (code !== prev.insight_code) delete query.limit;
  } else {
    // No measure named, but the question asks for figures ("show me last week's numbers", "how are
    // we doing"): the model's first series, or its first KPI for a total — its headline.
    const headline = (kind: InsightWords['kind']) => words.insights.find((i) => i.kind === kind)?.code;
    if (!code && slots && DATA_WORDS.test(text)) code = headline(kpi ? 'kpi' : 'timeseries');
    if (!code && HOW_ARE_WE_DOING.test(text)) code = headline('kpi');
    if (!code) return { kind: 'unmatched' };
    query = { insight_code: code, filters: {} };
  }

  const filters = query.filters!;
  if (clearCountry) delete filters.country;
  if (clearChannel) delete filters.channel;
  if (clearCategory) delete filters.category;
  if (country && takes('country')) filters.country = country.codes.length > 1 ? country.codes : country.code;
  if (channel && takes('channel')) filters.channel = channel.channels.length > 1 ? channel.channels : channel.channel;
  if (category && takes('category')) filters.category = category.category;
  Object.assign(filters, found.filters);
  if (time) {
    query.date_from = time.range.from;
    query.date_to = time.range.to;
  } else if (before && query.date_from && query.date_to) {
    const r = rangeBefore({ from: query.date_from, to: query.date_to });
    query.date_from = r.from;
    query.date_to = r.to;
  }
  if (granularity) query.granularity = granularity.granularity;
  // "AOV MoM": a series by that unit, where the insight has one.
  else if (cmp?.byUnit && !followUp && ctx.catalog.find((i) => i.code === query.insight_code)?.kind === 'timeseries')
    query.granularity = cmp.unit;
  if (limit !== undefined) query.limit = limit;
  if (cmp) query.compare = cmp.compare;

  // A filter named in the question that the insight does not take ("Electronics revenue"): the
  // insight of the same measure that takes it answers, the one grouped by it first.
  const groupedBy = words.insights.find((i) => i.code === query.insight_code)?.groupBy;
  // A filter on the dimension the insight groups by is already answered side by side ("night vs day").
  const named = Object.keys(filters)
    .filter((f) => f !== groupedBy)
    .filter((f) => (f === 'country' ? country : f === 'channel' ? channel : f === 'category' ? category : found.filters[f]) !== undefined);
  const takesAll = (code: string) => named.every((f) => ctx.catalog.find((i) => i.code === code)?.filters.includes(f));
  if (named.length && !takesAll(query.insight_code)) {
    const measure = words.insights.find((i) => i.code === query.insight_code)?.measure;
    const fits = words.insights.filter((i) => i.measure === measure && takesAll(i.code));
    const better = fits.find((i) => i.groupBy !== undefined && named.includes(i.groupBy)) ?? fits[0];
    if (better) query.insight_code = better.code;
  }
  const fitted = fitToInsight(query, ctx.catalog, notes);
  const allData = !time && !before && !followUp && ALL_DATA.test(text);
  // Two insights the question matches equally: this one answers, the reply says so, the others are offered.
  const ties = !followUp && modelMatch?.code === fitted.insight_code ? modelMatch.ties.slice(0, 3) : [];
  if (ties.length) {
    notes.push(
      `the question matches ${[fitted.insight_code, ...ties].map((c) => c.replace(/_/g, ' ')).join(' and ')} equally; ` +
        `this is ${fitted.insight_code.replace(/_/g, ' ')}, and the others are offered as alternatives`,
    );
    const alternatives = ties.map((code) => fitToInsight({ ...query, insight_code: code }, ctx.catalog));
    return { kind: 'query', query: fitted, followUp, notes, alternatives, ...(allData ? { allData } : {}) };
  }
  return { kind: 'query', query: fitted, followUp, notes, ...(allData ? { allData } : {}) };
}

/** The time series of the same headline measure as a breakdown or KPI, for "by month instead". */
function seriesOf(code: string, ctx: ParseContext): string | undefined {
  const of = ctx.words?.insights.find((i) => i.code === code);
  if (!of || of.kind === 'timeseries') return undefined;
  return ctx.words!.insights.find((i) => i.kind === 'timeseries' && i.measure === of.measure)?.code;
}

/** Drops what the insight does not take, saying so, and clamps the limit. */
export function fitToInsight(query: StructuredQuery, catalog: readonly ParserInsight[], notes: string[] = []): StructuredQuery {
  const insight = catalog.find((i) => i.code === query.insight_code);
  if (!insight) return query;
  const out: StructuredQuery = { insight_code: query.insight_code };
  if (query.granularity) {
    if (insight.granularities.includes(query.granularity)) out.granularity = query.granularity;
    else notes.push(`${insight.code} has no ${query.granularity} breakdown, so it is shown over the whole period`);
  }
  const filters: NonNullable<StructuredQuery['filters']> = {};
  for (const [k, v] of Object.entries(query.filters ?? {}) as [string, FilterValue | undefined][]) {
    if (v === undefined) continue;
    if (insight.filters.includes(k)) filters[k] = v;
    else notes.push(`the ${k} filter (${typeof v === 'string' ? v : v.join(', ')}) does not apply to ${insight.code}`);
  }
  if (Object.keys(filters).length) out.filters = filters;
  if (query.date_from) out.date_from = query.date_from;
  if (query.date_to) out.date_to = query.date_to;
  if (query.limit !== undefined && insight.maxLimit) out.limit = Math.max(1, Math.min(query.limit, insight.maxLimit ?? query.limit));
  if (query.compare) out.compare = query.compare;
  return out;
}
