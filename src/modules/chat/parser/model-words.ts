// The words of the semantic model, so that chat understands a model it has never seen: what each
// insight measures (its code, name, synonyms, and its headline measure's name, title and
// synonyms), what it groups by (the dimension's name, title and synonyms), and the values of the
// filter dimensions found in the tenant's data. The grammar around them (periods, granularities,
// "top 5", follow-ups) stays in code; the words come from the model file.
import { escapeRegExp } from '../language/vocabulary.ts';

export type InsightKind = 'timeseries' | 'breakdown' | 'top' | 'kpi';

export interface InsightWords {
  code: string;
  kind: InsightKind;
  /** Lower-case phrases naming what the insight measures. */
  measures: string[];
  /** The insight's own synonyms (lower case): they may name its grouping ("channel mix"). */
  synonyms?: string[];
  /** The insight's other measures ("profit" beside "sales"): they name it too, after its headline. */
  others?: string[];
  /** Breakdown and top: the dimension it is charted by (a filter's name where it is one). */
  groupBy?: string;
  /** Breakdown and top: lower-case phrases naming the grouping dimension. */
  dimensions: string[];
  /** The headline measure's name: insights of one measure are kinds of one question. */
  measure: string;
  /** The insight's name and code, lower case ("churned accounts by plan"): named whole, it wins. */
  names: string[];
}

export interface FilterWords {
  /** The filter parameter (the dimension's name). */
  name: string;
  /** Lower-case phrases naming the dimension ("plan", "tier"). */
  words: string[];
  /** Per value: the model's other words for it (`value_synonyms`, every language), lower case. */
  values?: Record<string, string[]>;
}

/** A phrase and its plural or singular, as one case-insensitive whole-word pattern. */
export function phrasePattern(phrases: readonly string[]): RegExp | undefined {
  const alts = alternation(phrases);
  return alts ? new RegExp(`(?<![\\w])(${alts})(?![\\w])`) : undefined;
}

/** The phrases and their plural or singular forms as a regex alternation, longest first. */
function alternation(phrases: readonly string[]): string | undefined {
  const forms = new Set<string>();
  for (const p of phrases) {
    const w = p.trim().toLowerCase().replace(/[_-]/g, ' ');
    if (w.length < 2) continue;
    for (const form of numberForms(w)) forms.add(form);
  }
  if (!forms.size) return undefined;
  return [...forms]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
}

/**
 * A phrase, its plural and its singular (the last word's): "city" and "cities", "product line" and
 * "product lines", "box" and "boxes". Hyphens and underscores read as spaces (the question is
 * matched the same way: "product-lines" is "product lines").
 */
export function numberForms(phrase: string): string[] {
  const out = [phrase];
  if (/[^aeiou]y$/.test(phrase)) out.push(`${phrase.slice(0, -1)}ies`);
  else if (/ies$/.test(phrase)) out.push(`${phrase.slice(0, -3)}y`);
  if (/(s|x|z|ch|sh)es$/.test(phrase)) out.push(phrase.slice(0, -2));
  if (/(x|z|ch|sh)$/.test(phrase)) out.push(`${phrase}es`);
  else if (phrase.endsWith('s')) out.push(phrase.slice(0, -1));
  else if (!/[^aeiou]y$/.test(phrase)) out.push(`${phrase}s`);
  return out;
}

/** Hyphens and underscores between letters as spaces, offsets kept: "product-lines" → "product lines". */
export const spacedWords = (text: string): string => text.replace(/(?<=[\p{L}\d])[-_](?=[\p{L}\d])/gu, ' ');

interface Hit {
  start: number;
  end: number;
}

// The model's word lists are built once per model: each is compiled once, not once per question.
const compiled = new WeakMap<readonly string[], RegExp | undefined>();

/** The phrases' pattern, compiled once per list. */
export function compiledPattern(phrases: readonly string[]): RegExp | undefined {
  let re = compiled.get(phrases);
  if (re === undefined && !compiled.has(phrases)) {
    re = phrasePattern(phrases);
    compiled.set(phrases, re);
  }
  return re;
}

/** Where one of the phrases (or its plural or singular) stands in the text; each list compiled once. */
export function find(text: string, phrases: readonly string[]): Hit | undefined {
  const re = compiledPattern(phrases);
  const m = re?.exec(text);
  return m ? { start: m.index, end: m.index + m[0].length } : undefined;
}

const TOP_WORDS = /\b(top|best|biggest|largest|highest|leading|most|which|busiest|worst|lowest|least)\b/;
const KPI_WORDS = /\b(total|totals|in total|overall|altogether|sum|how much|how many|compared?|vs\.?|versus|change|growth|grew|kpis?)\b/;
const COMPARING = /\b(compare|compared|comparison|vs\.?|versus|against|where)\b/;
const SPLIT_WORDS = /\b(by|per|each|every|split|across|breakdown|broken down)\b/;

/**
 * The insight a question names in the model's words, or undefined. `text` is lower case with the
 * period and granularity already blanked out. Scores: a dimension the question groups by, then the
 * kind its words ask for (top, total, series), then the longest measure phrase.
 */
export function matchInsight(
  text: string,
  insights: readonly InsightWords[],
  cues: { granularity: boolean; comparison?: boolean; listed?: readonly string[] },
): { code: string; measure: Hit; ties: string[] } | undefined {
  let best: { code: string; score: number; measure: Hit } | undefined;
  let ties: string[] = [];
  const wantsTop = TOP_WORDS.test(text);
  // A comparison without a granularity asks for two totals, as in the built-in rules.
  const wantsTotal = !cues.granularity && (KPI_WORDS.test(text) || Boolean(cues.comparison));
  const splits = SPLIT_WORDS.test(text);
  for (const insight of insights) {
    const headline = find(text, insight.measures);
    // Another measure of the insight names it too, a little less than its headline would.
    const other = headline ? undefined : insight.others?.length ? find(text, insight.others) : undefined;
    const measure = headline ?? other;
    // The dimension must be named outside the measure phrase ("accounts" in "churned accounts" is not "by account").
    const rest = measure ? text.slice(0, measure.start) + ' '.repeat(measure.end - measure.start) + text.slice(measure.end) : text;
    const dimension = insight.dimensions.length > 0 ? find(rest, insight.dimensions) : undefined;
    // "Spain vs Italy", "Books and Games": several values of one dimension are compared side by side.
    const listed = !cues.granularity && insight.groupBy !== undefined && (cues.listed ?? []).includes(insight.groupBy);
    // The insight's own words may name its grouping ("channel mix").
    const said = measure && text.slice(measure.start, measure.end);
    const named =
      Boolean(said) &&
      insight.dimensions.length > 0 &&
      (insight.synonyms ?? []).some((w) => numberForms(w).includes(said!)) &&
      find(said!, insight.dimensions) !== undefined;
    // A grouping dimension counts where the question groups at all ("by", "per", "which", "top"…):
    // in "gross of Action movies" the movies are what is counted, not a breakdown by movie.
    const grouped = (dimension !== undefined && (splits || wantsTop || COMPARING.test(text))) || listed || named;
    // "top 5 accounts", "biggest markets": a ranking is named by its dimension alone.
    const wholeName = insight.names.find((n) => n.length > 3 && text.includes(n));
    const byName = wholeName ? { start: text.indexOf(wholeName), end: text.indexOf(wholeName) + wholeName.length } : undefined;
    // Named whole ("busiest airports"), it is named even without a measure word.
    const hit = measure ?? ((insight.kind === 'top' || insight.kind === 'breakdown') && wantsTop ? dimension : undefined) ?? byName;
    if (!hit) continue;
    let score = hit.end - hit.start - (other ? 5 : 0);
    // A period unit asked for ("per quarter") is a series' shape: a ranking covers its window whole.
    if (cues.granularity && (insight.kind === 'breakdown' || insight.kind === 'top')) score -= 100;
    // Named whole ("churned accounts by plan"), it wins; a name that only repeats the measure
    // ("Sales", "Profit") says nothing of the shape, which decides.
    if (
      insight.names.some(
        (n) =>
          n.length > 3 && text.includes(n) && !numberForms(n).some((f) => insight.measures.includes(f)) && !insight.measures.includes(n),
      )
    )
      score += 200;
    if (insight.kind === 'breakdown' || insight.kind === 'top') {
      if (grouped) score += 100;
      else if (!(insight.kind === 'top' && wantsTop)) score -= 100;
      if (insight.kind === 'top' && wantsTop) score += 20;
      if (insight.kind === 'breakdown' && splits && grouped) score += 10;
    } else if (insight.kind === 'kpi') {
      if (wantsTotal) score += 30;
    } else if (!wantsTotal || cues.granularity) {
      score += 20;
    }
    // Equal otherwise, the measure named first in the question ("profit by year for Adventure movies").
    score -= hit.start / 1000;
    if (!best || score > best.score) {
      best = { code: insight.code, score, measure: hit };
      ties = [];
    } else if (score === best.score) ties.push(insight.code);
  }
  // Equally good matches: the first (in the model's order) answers, the others are offered.
  return best && best.score > 0 ? { code: best.code, measure: best.measure, ties } : undefined;
}

const valuePatterns = new Map<string, RegExp>();

/** A filter value as a whole word, optionally followed by its dimension's word; compiled once per value. */
function valuePattern(value: string, dim: string | undefined): RegExp {
  const key = `${value}\u0000${dim ?? ''}`;
  let re = valuePatterns.get(key);
  if (!re) {
    re = new RegExp(`(?<![\\w])${escapeRegExp(spacedWords(value.trim().toLowerCase()))}s?${dim ? `(?:\\s+(?:${dim}))?` : ''}(?![\\w])`);
    // Bounded: a tenant's values change with its data.
    if (valuePatterns.size > 50_000) valuePatterns.clear();
    valuePatterns.set(key, re);
  }
  return re;
}

/**
 * Filter values named in the question, from the tenant's data: exact values, matched as whole
 * words whatever their case ("enterprise" → Enterprise). The longest value wins where two overlap.
 */
export function matchFilterValues(
  text: string,
  values: Readonly<Record<string, readonly string[]>>,
  words: readonly FilterWords[] = [],
  original?: string,
): { filters: Record<string, string | string[]>; spans: Hit[] } {
  const byFilter: [string, (Hit & { value: string })[]][] = [];
  for (const [name, list] of Object.entries(values)) {
    // "the Enterprise plan" names a value, not a breakdown by plan: the dimension's word goes with it.
    const dim = alternation(words.find((w) => w.name === name)?.words ?? []);
    const hits: (Hit & { value: string })[] = [];
    for (const value of list) {
      const v = value.trim();
      // One letter ("R") is a value only with its dimension's word ("R rated").
      if (v.length < 2 && !dim) continue;
      const m = (
        v.length < 2 ? new RegExp(`(?<![\\w])${escapeRegExp(v.toLowerCase())}\\s+(?:${dim})(?![\\w])`) : valuePattern(value, dim)
      ).exec(text);
      if (!m) continue;
      // A short code in capitals ("IN", "CA") is that code only as written: "in" is a word.
      if (
        /^[A-Z0-9]{2,3}$/.test(v) &&
        original !== undefined &&
        !new RegExp(`(?<![\\w])${v}(?![\\w])`).test(original.slice(m.index, m.index + m[0].length))
      )
        continue;
      hits.push({ start: m.index, end: m.index + m[0].length, value });
    }
    // The longest wins where two overlap; values named apart ("Starter and Team") are all kept, in the question's order.
    const kept = hits
      .sort((a, b) => b.end - b.start - (a.end - a.start))
      .filter((h, i, all) => !all.slice(0, i).some((o) => h.start < o.end && o.start < h.end))
      .sort((a, b) => a.start - b.start);
    if (kept.length) byFilter.push([name, kept]);
  }
  // One word of the question, a value of two filters ("ORD" an origin and a destination): the
  // filter whose word stands before it ("from ORD", "to LAX"), else the model's first.
  const before = (name: string, h: Hit) => {
    const dim = alternation(words.find((w) => w.name === name)?.words ?? []);
    return dim !== undefined && new RegExp(`(?:^|[^\\w])(?:${dim})\\s+(?:the\\s+)?$`).test(text.slice(0, h.start));
  };
  const filters: Record<string, string | string[]> = {};
  const spans: Hit[] = [];
  for (const [name, kept] of byFilter) {
    const mine = kept.filter((h) => {
      const rivals = byFilter.filter(([n, o]) => n !== name && o.some((x) => x.start === h.start && x.end === h.end)).map(([n]) => n);
      if (!rivals.length) return true;
      if (before(name, h)) return true;
      if (rivals.some((r) => before(r, h))) return false;
      return byFilter.findIndex(([n]) => n === name) < Math.min(...rivals.map((r) => byFilter.findIndex(([n]) => n === r)));
    });
    if (mine.length) {
      filters[name] = mine.length === 1 ? mine[0].value : mine.map((h) => h.value);
      spans.push(...mine);
    }
  }
  return { filters, spans };
}
