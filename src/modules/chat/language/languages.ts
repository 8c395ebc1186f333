// German, French and Spanish questions (docs/chat.md "Languages"). The parser's grammar is
// English; a question in another language is first told apart by its words, then read into that
// grammar by per-language tables: grammar words and phrases ("nach Woche" → "by week", "le mois
// dernier" → "last month", "frente al año pasado" → "vs last year"), month and weekday names,
// numbers written either way (1.234,5 and 1,234.5), country names from CLDR (Intl.DisplayNames),
// and the model's own titles and synonyms in that language (Umsatz → revenue). What no table
// knows stays as it is and is ignored like any other word.
import { MODEL_LANGUAGES as LANGUAGES, type ModelLanguage as Language } from '../../../semantic/model.schema.ts';
import { EN_MONTHS, GRAMMAR, MARKERS, MONTHS, UNITS, type Table } from './grammar.ts';
import { escapeRegExp, ISO_COUNTRIES } from './vocabulary.ts';

// The languages a model may give titles in are the ones chat reads.
export { MODEL_LANGUAGES as LANGUAGES, type ModelLanguage as Language } from '../../../semantic/model.schema.ts';

/** Which language a question is in: the one most of its words mark; English on a tie or no mark. */
export function detectLanguage(question: string): Language {
  const words = question.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  let best: Language = 'en';
  let bestScore = 0;
  for (const language of LANGUAGES) {
    const marks = new Set(MARKERS[language]);
    const score = words.filter((w) => marks.has(w)).length + (language === 'en' ? 0.5 : 0);
    if (score > bestScore) {
      best = language;
      bestScore = score;
    }
  }
  return best;
}

const NUM = String.raw`\d{1,4}`;

interface Rule {
  /** The phrase's pattern, for the table's one combined pattern. */
  source: string;
  /** Lower case, for a phrase without {n}: the key it is found by once matched. */
  phrase?: string;
  /** For a phrase with {n}: the whole phrase, its number captured. */
  anchored?: RegExp;
  /** The English, its {n} filled in. */
  to: string;
  length: number;
}

/** A language's rules, and one pattern that finds any of them in a single pass (longest first at each place). */
interface CompiledTable {
  any: RegExp;
  byPhrase: Map<string, Rule>;
  numeric: Rule[];
}

/** One table's rules, {unit} and {n} expanded, longest phrase first. */
function rules(language: Exclude<Language, 'en'>, extra: Table): Rule[] {
  const out: Rule[] = [];
  const add = (from: string, to: string) => {
    const numeric = from.includes('{n}');
    const parts = from.split('{n}').map(escapeRegExp);
    out.push({
      source: parts.join(`(?:${NUM})`),
      ...(numeric ? { anchored: new RegExp(`^${parts.join(`(${NUM})`)}$`, 'iu') } : { phrase: from.toLowerCase() }),
      to,
      length: from.length,
    });
  };
  for (const [from, to] of [...GRAMMAR[language], ...extra]) {
    if (!from.includes('{unit}')) {
      add(from, to);
      continue;
    }
    for (const [unit, words] of Object.entries(UNITS[language]))
      for (const w of words) add(from.replace('{unit}', w), to.replace('{unit}', unit));
  }
  MONTHS[language].forEach((m, i) => add(m, EN_MONTHS[i]));
  return out.sort((a, b) => b.length - a.length);
}

/** Country names in a language → the English name the parser reads, from CLDR. */
function countryNames(language: Exclude<Language, 'en'>): Table {
  const local = new Intl.DisplayNames([language], { type: 'region' });
  const english = new Intl.DisplayNames(['en'], { type: 'region' });
  const out: Table = [];
  for (const code of ISO_COUNTRIES) {
    let name: string | undefined;
    try {
      name = local.of(code);
    } catch {
      continue;
    }
    const en = english.of(code);
    if (name && en && name !== code && name.toLowerCase() !== en.toLowerCase()) out.push([name.toLowerCase(), en]);
  }
  return out;
}

/** Numbers written the other way round: 1.234,5 → 1234.5 in German, French and Spanish (1 234,5 too). */
function numbersToEnglish(text: string): string {
  return text
    .replace(
      /(?<![\d.,])(\d{1,3}(?:[. \u00a0\u202f]\d{3})+)(?:,(\d+))?(?![\d.,])/g,
      (_, int: string, dec?: string) => int.replace(/[. \u00a0\u202f]/g, '') + (dec ? `.${dec}` : ''),
    )
    .replace(/(?<![\d.,])(\d+),(\d{1,2})(?![\d.,])/g, '$1.$2');
}

const cache = new Map<string, CompiledTable>();

function tableOf(language: Exclude<Language, 'en'>, model: Table, modelKey: string): CompiledTable {
  const key = `${language}\u0000${modelKey}`;
  let table = cache.get(key);
  if (!table) {
    const all = rules(language, [...model, ...countryNames(language)]);
    const byPhrase = new Map<string, Rule>();
    // Equal phrases: the first (grammar before the model's words) wins, as in the sorted list.
    for (const r of all) if (r.phrase !== undefined && !byPhrase.has(r.phrase)) byPhrase.set(r.phrase, r);
    table = {
      any: new RegExp(`(?<![\\p{L}\\d])(?:${all.map((r) => r.source).join('|')})(?![\\p{L}\\d])`, 'giu'),
      byPhrase,
      numeric: all.filter((r) => r.anchored),
    };
    if (cache.size > 100) cache.clear();
    cache.set(key, table);
  }
  return table;
}

/** The English of one match of the table's combined pattern. */
function englishOf(table: CompiledTable, found: string): string | undefined {
  const rule = table.byPhrase.get(found.toLowerCase());
  if (rule) return rule.to;
  for (const r of table.numeric) {
    const m = r.anchored!.exec(found);
    if (m) return r.to.replace('{n}', m[1]);
  }
  return undefined;
}

/** The question's own words for a phrase of its English reading ("el próximo mes" for "next month"), else the phrase. */
export function originalWords(question: string, language: Language, english: string, model: Table = [], modelKey = ''): string {
  if (language === 'en') return english;
  const table = tableOf(language, model, modelKey);
  const wanted = english.toLowerCase();
  for (const m of question.matchAll(table.any)) {
    const to = englishOf(table, m[0])?.toLowerCase();
    if (to !== undefined && (to === wanted || (to.includes(wanted) && wanted.length > 2))) return m[0];
  }
  return english;
}

/**
 * A question in `language` read into the English grammar: its phrases replaced by their English,
 * longest first at each place, each part of the question replaced at most once, in one pass.
 * `model` holds the model's own titles and synonyms in that language with the English the parser
 * knows them by.
 */
export function toEnglish(question: string, language: Language, model: Table = [], modelKey = ''): string {
  if (language === 'en') return question;
  const table = tableOf(language, model, modelKey);
  return numbersToEnglish(question)
    .replace(table.any, (found) => {
      const english = englishOf(table, found);
      return english === undefined ? found : ` ${english} `;
    })
    .replace(/\s+/g, ' ')
    .trim();
}
