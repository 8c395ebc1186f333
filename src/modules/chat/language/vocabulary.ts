// The words the built-in parser knows: countries (ISO 3166 and CLDR names), granularities, and
// the finders of channel and category values, whose words come from the model (value_synonyms). Lookups
// take the lower-cased question; country codes also look at the original casing.

// ISO 3166-1 alpha-2, officially assigned codes.
const ISO_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
  'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
  'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');
export const ISO_COUNTRIES = new Set(ISO_CODES);

const EXTRA_NAMES: Record<string, string> = {
  usa: 'US',
  'u.s.': 'US',
  'u.s.a.': 'US',
  'the us': 'US',
  'the states': 'US',
  america: 'US',
  'united states of america': 'US',
  uk: 'GB',
  'u.k.': 'GB',
  'the uk': 'GB',
  britain: 'GB',
  'great britain': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  holland: 'NL',
  'the netherlands': 'NL',
  'czech republic': 'CZ',
  korea: 'KR',
  'south korea': 'KR',
  russia: 'RU',
  uae: 'AE',
  emirates: 'AE',
  'ivory coast': 'CI',
  turkey: 'TR',
  'hong kong': 'HK',
  taiwan: 'TW',
  vietnam: 'VN',
  // adjectives people put before a metric ("German revenue")
  american: 'US',
  canadian: 'CA',
  british: 'GB',
  english: 'GB',
  german: 'DE',
  french: 'FR',
  dutch: 'NL',
  spanish: 'ES',
  italian: 'IT',
  polish: 'PL',
  austrian: 'AT',
  swiss: 'CH',
  swedish: 'SE',
  australian: 'AU',
  mexican: 'MX',
  japanese: 'JP',
  brazilian: 'BR',
  irish: 'IE',
  belgian: 'BE',
  danish: 'DK',
  norwegian: 'NO',
  finnish: 'FI',
  portuguese: 'PT',
  indian: 'IN',
  chinese: 'CN',
};

function buildCountryNames(): Map<string, string> {
  const names = new Map<string, string>();
  const display = new Intl.DisplayNames(['en'], { type: 'region' });
  for (const code of ISO_CODES) {
    const name = display.of(code);
    if (name && name !== code) names.set(name.toLowerCase(), code);
  }
  // Names that are more often something else in a sales question.
  for (const word of ['jersey', 'chad', 'georgia', 'jordan']) names.delete(word);
  for (const [name, code] of Object.entries(EXTRA_NAMES)) names.set(name, code);
  return names;
}

const COUNTRY_NAMES = buildCountryNames();
// Longest names first, so "united states" wins over "states" and "south korea" over "korea".
const COUNTRY_NAME_RE = new RegExp(
  `(?<![\\w.])(${[...COUNTRY_NAMES.keys()]
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})(?![\\w])`,
);

// Two capital letters that are also everyday words or abbreviations in questions.
const AMBIGUOUS_CODES = new Set([
  'AI',
  'AM',
  'AS',
  'AT',
  'BE',
  'BY',
  'DO',
  'GO',
  'HE',
  'IN',
  'IS',
  'IT',
  'ME',
  'MY',
  'NO',
  'OR',
  'SO',
  'TO',
  'UP',
  'ID',
  'PM',
  'TV',
  'PR',
]);

export interface Span {
  start: number;
  end: number;
}

/** The first country named, by name or ISO code; the span is in the lower-cased text. */
export function findCountry(lower: string, original: string): ({ code: string; codes: string[] } & Span) | undefined {
  const first = firstCountry(lower, original);
  if (!first) return undefined;
  // Further, different countries ("Austria and Switzerland", "Spain vs Italy"): all of them, in order.
  const codes = [first.code];
  let l = lower;
  let o = original;
  for (let hit: ({ code: string } & Span) | undefined = first; hit && codes.length <= 20; hit = firstCountry(l, o)) {
    if (!codes.includes(hit.code)) codes.push(hit.code);
    const gap = ' '.repeat(hit.end - hit.start);
    l = l.slice(0, hit.start) + gap + l.slice(hit.end);
    o = o.slice(0, hit.start) + gap + o.slice(hit.end);
  }
  return { ...first, codes };
}

function firstCountry(lower: string, original: string): ({ code: string } & Span) | undefined {
  const byName = COUNTRY_NAME_RE.exec(lower);
  const codeRe = /(?<![\w-])([A-Z]{2})(?![\w-])/g;
  let byCode: ({ code: string } & Span) | undefined;
  for (let m = codeRe.exec(original); m; m = codeRe.exec(original)) {
    const code = m[1];
    if (!ISO_COUNTRIES.has(code)) continue;
    const before = original.slice(0, m.index).toLowerCase();
    const introduced =
      /\b(in|for|from|within|to|and|vs|versus|of)\s+$/.test(before) ||
      /^\s*(only|market|customers|orders|revenue|sales)\b/i.test(original.slice(m.index + 2));
    if (AMBIGUOUS_CODES.has(code) && !introduced) continue;
    byCode = { code, start: m.index, end: m.index + 2 };
    break;
  }
  const named = byName ? { code: COUNTRY_NAMES.get(byName[1])!, start: byName.index, end: byName.index + byName[1].length } : undefined;
  if (named && byCode) return named.start <= byCode.start ? named : byCode;
  return named ?? byCode;
}

export const ALL_COUNTRIES = new RegExp(
  String.raw`\b(all countries|every country|any country|worldwide|globally|global|everywhere|` +
    String.raw`without (the )?country( filter)?|no country filter|all markets)\b`,
);

/** Text matched as itself inside a pattern (the parser's phrases, filter values, grammar rules). */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const patterns = new Map<string, RegExp>();
/** Whole phrases, hyphens read as spaces ("in-store" is "in store"), longest first; compiled once per list. */
function wordsPattern(phrases: readonly string[]): RegExp | undefined {
  const forms = [...new Set(phrases.map((w) => w.trim().toLowerCase().replace(/-/g, ' ')).filter((w) => w.length >= 2))];
  if (!forms.length) return undefined;
  const key = forms.join('\u0000');
  let re = patterns.get(key);
  if (!re) {
    re = new RegExp(
      `(?<![\\w])(${forms
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|')})(?![\\w])`,
    );
    if (patterns.size > 10_000) patterns.clear();
    patterns.set(key, re);
  }
  return re;
}
const hyphensAsSpaces = (text: string) => text.replace(/-/g, ' ');

const channelCache = new WeakMap<object, [string, RegExp | undefined][]>();
/** Each value's pattern, compiled once per word list. */
function channelPatterns(words: Readonly<Record<string, readonly string[]>>): [string, RegExp | undefined][] {
  let out = channelCache.get(words);
  if (!out) {
    out = Object.entries(words).map(([value, phrases]) => [value, wordsPattern([value, ...phrases])]);
    channelCache.set(words, out);
  }
  return out;
}

/**
 * The channels named, by the model's words for each value (`value_synonyms` of the channel
 * dimension: "amazon" is marketplace in the demo); the first decides the span.
 */
export function findChannel(
  lower: string,
  words: Readonly<Record<string, readonly string[]>> = {},
): ({ channel: string; channels: string[] } & Span) | undefined {
  let best: ({ channel: string } & Span) | undefined;
  const named: { channel: string; at: number }[] = [];
  const text = hyphensAsSpaces(lower);
  for (const [channel, re] of channelPatterns(words)) {
    const m = re?.exec(text);
    if (!m) continue;
    named.push({ channel, at: m.index });
    if (!best || m.index < best.start) best = { channel, start: m.index, end: m.index + m[0].length };
  }
  // Every channel named, in the order of the question.
  return best && { ...best, channels: named.sort((a, b) => a.at - b.at).map((n) => n.channel) };
}

export const ALL_CHANNELS = /\b(all channels|every channel|any channel|without (the )?channel( filter)?|no channel filter)\b/;

const categoryCache = new WeakMap<readonly string[], { synonyms: object; patterns: [string, RegExp | undefined][] }>();
/** Each category's pattern (its name, singular, plural, "and" for "&", the model's words), compiled once per list. */
function categoryPatterns(
  categories: readonly string[],
  synonyms: Readonly<Record<string, readonly string[]>>,
): [string, RegExp | undefined][] {
  const hit = categoryCache.get(categories);
  if (hit && hit.synonyms === synonyms) return hit.patterns;
  const byName = new Map(Object.entries(synonyms).map(([k, v]) => [k.toLowerCase(), v]));
  const patterns = categories.map((category): [string, RegExp | undefined] => {
    const name = category.toLowerCase();
    const words = [name, name.replace(/s$/, ''), name + 's', name.replace(/&/g, 'and'), ...(byName.get(name) ?? [])].filter(
      (w) => w.length >= 3,
    );
    return [category, wordsPattern(words)];
  });
  categoryCache.set(categories, { synonyms, patterns });
  return patterns;
}

/**
 * The first of the tenant's categories named, by its own name, a plural/singular, or a word the
 * model gives for it (`value_synonyms`: "gadgets" is Electronics in the demo).
 */
export function findCategory(
  lower: string,
  categories: readonly string[],
  synonyms: Readonly<Record<string, readonly string[]>> = {},
): ({ category: string } & Span) | undefined {
  let best: ({ category: string } & Span) | undefined;
  const text = hyphensAsSpaces(lower);
  for (const [category, re] of categoryPatterns(categories, synonyms)) {
    const m = re?.exec(text);
    if (m && (!best || m.index < best.start || (m.index === best.start && m[0].length > best.end - best.start))) {
      best = { category, start: m.index, end: m.index + m[0].length };
    }
  }
  return best;
}

export const ALL_CATEGORIES = /\b(all categories|every category|any category|without (the )?category( filter)?|no category filter)\b/;

// "month over month", MoM and the like are comparisons (parse.ts COMPARES), read and blanked out first.
const GRANULARITY_WORDS: [RegExp, 'day' | 'week' | 'month' | 'quarter' | 'year'][] = [
  [/\b(daily|per day|by day|each day|every day|day[- ]by[- ]day|per-day|a day)\b/, 'day'],
  [/\b(weekly|per week|by week|each week|every week|week[- ]by[- ]week|per-week|a week|by weeks)\b/, 'week'],
  [/\b(monthly|per month|by month|each month|every month|month[- ]by[- ]month|per-month|a month|by months)\b/, 'month'],
  [/\b(quarterly|per quarter|by quarter|each quarter|every quarter|quarter[- ]by[- ]quarter|by quarters)\b/, 'quarter'],
  [/\b(yearly|annual|annually|per year|by year|each year|every year|year[- ]by[- ]year|a year|by years)\b/, 'year'],
];

export function findGranularity(lower: string): ({ granularity: 'day' | 'week' | 'month' | 'quarter' | 'year' } & Span) | undefined {
  let best: ({ granularity: 'day' | 'week' | 'month' | 'quarter' | 'year' } & Span) | undefined;
  for (const [re, granularity] of GRANULARITY_WORDS) {
    const m = re.exec(lower);
    if (m && (!best || m.index < best.start)) best = { granularity, start: m.index, end: m.index + m[0].length };
  }
  return best;
}
