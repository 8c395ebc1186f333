// Words, stems and phrases for matching a question against the model's members: a question's
// words are stemmed alike ("channels" → channel, "categories" → category, "best-selling" → best
// sell), and a member is found where all the words of one of its phrases stand together. A match
// is scored by how many words it covers; two different concepts that score alike over the same
// words are a near-tie, which the composer asks back about rather than guess.

export interface Token {
  stem: string;
  start: number;
  end: number;
}

const IRREGULAR: Record<string, string> = {
  sold: 'sell',
  selling: 'sell',
  sells: 'sell',
  sales: 'sale',
  bought: 'buy',
  people: 'person',
  countries: 'country',
  industries: 'industry',
  categories: 'category',
  cities: 'city',
};

/** A word's stem: plurals and -ing forms folded, so "channels" and "channel" are one word. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (IRREGULAR[w]) return IRREGULAR[w];
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(w)) return w;
  if (/(xes|ches|shes|sses)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s')) return w.slice(0, -1);
  return w;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The question's words, stemmed, with where each stands in the text. */
export function tokenize(text: string): Token[] {
  return [...text.matchAll(WORD)].map((m) => ({ stem: stem(m[0]), start: m.index, end: m.index + m[0].length }));
}

/** A phrase as stemmed words. */
export const phrase = (text: string): string[] => tokenize(text).map((t) => t.stem);

export const STOP_WORDS: ReadonlySet<string> = new Set(
  [
    'a an the of in on at by per for to from and or with without is are was were be been our my we us me you it its',
    'this that these those what which who how many much do does did show give tell get all each every their there',
    'than over under above below',
  ]
    .join(' ')
    .split(' '),
);
/** The content words of a text, stemmed (descriptions). */
export const words = (text: string): string[] => phrase(text).filter((w) => w.length > 2 && !STOP_WORDS.has(w));

/** A phrase of some target found in the question: tokens [from, to). */
export interface Found<T> {
  target: T;
  from: number;
  to: number;
  /** How many words it covers. */
  score: number;
}

/**
 * Every place where one of the targets' phrases stands in the tokens: target by target, phrase by
 * phrase, then by position. For targets that outlive one question, keep a PhraseIndex instead.
 */
export function findAll<T>(
  tokens: readonly Token[],
  targets: readonly { target: T; phrases: readonly (readonly string[])[] }[],
): Found<T>[] {
  return new PhraseIndex(targets).find(tokens);
}

/**
 * Targets' phrases indexed by their first word: `find` answers in time that grows with the
 * question's words rather than with the targets'. Built once
 * per list of targets that outlives a question (a dimension's values, read once per data version):
 * stemming up to a thousand values and trying each at every word was most of a composed
 * question's CPU (docs/performance.md §18).
 */
export class PhraseIndex<T> {
  private readonly byFirst = new Map<string, { order: number; target: T; words: readonly string[] }[]>();

  constructor(targets: readonly { target: T; phrases: readonly (readonly string[])[] }[]) {
    let order = 0;
    for (const { target, phrases } of targets) {
      for (const words of phrases) {
        order++;
        if (!words.length) continue;
        const list = this.byFirst.get(words[0]);
        if (list) list.push({ order, target, words });
        else this.byFirst.set(words[0], [{ order, target, words }]);
      }
    }
  }

  find(tokens: readonly Token[]): Found<T>[] {
    const hits: { order: number; found: Found<T> }[] = [];
    for (let i = 0; i < tokens.length; i++) {
      for (const { order, target, words } of this.byFirst.get(tokens[i].stem) ?? []) {
        if (i + words.length > tokens.length) continue;
        if (words.every((w, k) => tokens[i + k].stem === w))
          hits.push({ order, found: { target, from: i, to: i + words.length, score: words.length } });
      }
    }
    // findAll's order: target by target, phrase by phrase, then by position.
    return hits.sort((a, b) => a.order - b.order || a.found.from - b.found.from).map((h) => h.found);
  }
}

/**
 * The longest matches that do not overlap, longest first; matches over exactly the same words are
 * kept together (their targets are alternatives of one another).
 */
export function pick<T>(found: Found<T>[], taken: boolean[]): Found<T>[][] {
  const sorted = [...found].sort((a, b) => b.score - a.score || a.from - b.from);
  const groups: Found<T>[][] = [];
  for (const f of sorted) {
    const same = groups.find((g) => g[0].from === f.from && g[0].to === f.to);
    if (same) {
      if (!same.some((s) => s.target === f.target)) same.push(f);
      continue;
    }
    let free = true;
    for (let i = f.from; i < f.to; i++) if (taken[i]) free = false;
    if (!free) continue;
    for (let i = f.from; i < f.to; i++) taken[i] = true;
    groups.push([f]);
  }
  return groups.sort((a, b) => a[0].from - b[0].from);
}

/** Blanks [start, end) of a text with spaces, keeping every other offset. */
export function blankOut(text: string, start: number, end: number): string {
  return text.slice(0, start) + ' '.repeat(Math.max(0, end - start)) + text.slice(end);
}
