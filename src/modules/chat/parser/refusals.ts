// Questions the model cannot answer, recognised so that chat says so instead of answering with
// something else (docs/chat.md "Honest answers"): a measure the model does not have ("return on
// ad spend"), a grouping it does not have ("by campaign"), a period finer than a day ("by hour"),
// and a window that has not happened yet ("next month", "a forecast"). The terms are the common
// vocabulary of shop and business analytics; a term the model itself defines (the example model's
// MRR and churn) is never refused.
import type { InsightWords, FilterWords } from './model-words.ts';
import { stem } from '../compose/match.ts';

/** The model's words: its insights' and filters', and (from chat) every measure's and dimension's phrases. */
export interface ModelWords {
  insights: readonly InsightWords[];
  filters: readonly FilterWords[];
  model?: { measures: readonly string[]; dimensions: readonly string[] };
}

export type RefusalReason = 'measure' | 'dimension' | 'granularity' | 'future';

export interface Refusal {
  reason: RefusalReason;
  /** The words of the question that name what cannot be answered. */
  term: string;
  start: number;
  end: number;
}

/** Measures of business analytics that a model may or may not define, longest first when matched. */
const MEASURE_TERMS = [
  'return on ad spend',
  'roas',
  'return on investment',
  'roi',
  'ad spend',
  'advertising spend',
  'marketing spend',
  'ad costs?',
  'cost per click',
  'cpc',
  'cost per acquisition',
  'cpa',
  'click[- ]through rates?',
  'ctr',
  'impressions',
  'ad clicks',
  'clicks',
  'customer acquisition costs?',
  'cac',
  'customer lifetime value',
  'lifetime value',
  'ltv',
  'clv',
  'churn rate',
  'churned customers',
  'churn(?:ed|ing)?',
  'cancell?ations?',
  'cancell?ed subscriptions?',
  'retention rate',
  'retention',
  'repeat purchase rate',
  'repeat customers',
  'mrr',
  'monthly recurring revenue',
  'arr',
  'annual recurring revenue',
  'net promoter score',
  'nps',
  'customer satisfaction',
  'csat',
  'profits?',
  'gross profit',
  'net profit',
  'gross margins?',
  'profit margins?',
  'margins?',
  'net income',
  'ebitda',
  'cogs',
  'cost of goods sold',
  'costs?',
  'expenses',
  'inventory',
  'stock levels?',
  'stock',
  'out of stock',
  'shipping costs?',
  'shipping fees?',
  'delivery times?',
  'taxes',
  'tax',
  'vat',
  'discounts?',
  'coupons?',
  'promo codes?',
  'cart abandonment',
  'abandoned carts?',
  'bounce rate',
  'page ?views',
  'time on site',
  'session duration',
  'headcount',
  'salar(?:y|ies)',
  'payroll',
  'employees',
  'support tickets',
  'tickets',
  'reviews',
  'ratings',
  'star ratings?',
  'wishlists?',
  'downloads',
  'app installs',
  'installs',
  'open rate',
  'email opens',
  'unsubscribes',
  'subscribers',
  'followers',
  'likes',
  'share price',
  'budget',
];

/** Groupings a shop's question may ask for that a model may not have. */
const DIMENSION_TERMS = [
  'campaigns?',
  'ad groups?',
  'ads',
  'keywords?',
  'utm sources?',
  'traffic sources?',
  'sources?',
  'referrers?',
  'landing pages?',
  'brands?',
  'suppliers?',
  'vendors?',
  'warehouses?',
  'cit(?:y|ies)',
  'states?',
  'provinces?',
  'zip codes?',
  'postcodes?',
  'postal codes?',
  'age groups?',
  'ages?',
  'genders?',
  'devices?',
  'device types?',
  'browsers?',
  'operating systems?',
  'payment methods?',
  'payment types?',
  'sales reps?',
  'salespeople',
  'salesperson',
  'employees?',
  'stores?',
  'store locations?',
  'colou?rs?',
  'sizes?',
  'skus?',
  'customer segments?',
  'segments?',
  'cohorts?',
  'tiers?',
  'plans?',
  'languages?',
  'currenc(?:y|ies)',
  'coupons?',
  'promo codes?',
  'shipping methods?',
  'carriers?',
  'airlines?',
  'pilots?',
  'crews?',
  'customers?',
  'users?',
  'accounts?',
  'industr(?:y|ies)',
];

const GROUP_BEFORE =
  String.raw`\b(?:by|per|for each|for every|split by|broken down by|grouped by|group by|` +
  String.raw`across|which|what)\s+(?:the\s+|each\s+|every\s+)?`;
const FINER_THAN_DAY = /\b(?:(?:by|per|each|every)\s+(?:the\s+)?(minute|hour|second)s?|(hourly|minutely|intraday))\b/;
const FUTURE = new RegExp(
  String.raw`\b((?:next|coming|upcoming)\s+(?:\d+\s+)?(?:days?|weeks?|months?|quarters?|` +
    String.raw`years?)|tomorrow|forecast(?:ed|s)?|predict(?:ed|ion|ions)?|projected|projections?|` +
    String.raw`will (?:we|it|sales|revenue) (?:make|be|sell))\b`,
);

const compile = (terms: readonly string[], before = String.raw`\b`) => new RegExp(`${before}(${terms.join('|')})\\b`);
const MEASURE_RE = compile(MEASURE_TERMS);
const DIMENSION_RE = compile(DIMENSION_TERMS, GROUP_BEFORE);

/** Whether the model's own words contain the term (its measures, names, dimensions or filters). */
function modelKnows(term: string, words: ModelWords | undefined, kind: 'measure' | 'dimension'): boolean {
  if (!words) return false;
  const t = term.toLowerCase().replace(/s$/, '');
  const has = (phrases: readonly string[]) =>
    phrases.some((p) => {
      const w = p.toLowerCase().replace(/s$/, '');
      return w === t || w.includes(t);
    });
  // A measure or dimension of the model by one of its own phrases (stemmed, as compose/match.ts reads them).
  const own = kind === 'measure' ? words.model?.measures : words.model?.dimensions;
  if (own?.some((p) => p.replace(/s$/, '') === t || p === stem(term.toLowerCase()))) return true;
  if (kind === 'measure') return words.insights.some((i) => has(i.measures) || has(i.others ?? []) || has(i.names));
  return words.insights.some((i) => has(i.dimensions)) || words.filters.some((f) => has(f.words) || has([f.name.replace(/_/g, ' ')]));
}

/**
 * What the question asks that the model cannot answer, or undefined. `text` is lower case; a
 * term in the model's own words (the demo's "sessions", "customers", "products") is never refused.
 */
export function findRefusal(text: string, words: ModelWords | undefined): Refusal | undefined {
  const future = FUTURE.exec(text);
  if (future) return { reason: 'future', term: future[1], start: future.index, end: future.index + future[0].length };
  const finer = FINER_THAN_DAY.exec(text);
  if (finer) return { reason: 'granularity', term: finer[1] ?? finer[2], start: finer.index, end: finer.index + finer[0].length };
  const m = MEASURE_RE.exec(text);
  if (m && !modelKnows(m[1], words, 'measure')) return { reason: 'measure', term: m[1], start: m.index, end: m.index + m[0].length };
  const d = DIMENSION_RE.exec(text);
  if (d && !modelKnows(d[1], words, 'dimension')) return { reason: 'dimension', term: d[1], start: d.index, end: d.index + d[0].length };
  return undefined;
}
