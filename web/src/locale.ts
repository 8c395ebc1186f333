// Numbers and dates in an answer's language (chat replies carry `data.language`): the locale for
// Intl, and the date and axis formats the table and chart use in it (docs/web.md "Chat you can follow").
const LOCALES: Record<string, string> = { en: 'en-US', de: 'de-DE', fr: 'fr-FR', es: 'es-ES' };

/** The Intl locale of an ISO 639-1 language the service answers in; undefined for others. */
export function localeOf(language: string | undefined): string | undefined {
  return language ? LOCALES[language] : undefined;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = dateFormats.get(key);
  if (!f) dateFormats.set(key, (f = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' })));
  return f;
}

/** "2026-10-01" → "01.10.2026" (de), "1 oct. 2026" (fr); anything else unchanged. */
export function formatDateIn(value: string, locale: string): string {
  const m = ISO_DATE.exec(value);
  if (!m) return value;
  return dateFormat(locale, { dateStyle: 'medium' }).format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))));
}

/**
 * Period starts as short axis labels in a locale, like the shared option builder's English ones:
 * month starts as "Okt. 2026", days of one year as "1. Okt."; otherwise undefined (leave them).
 */
export function periodLabelsIn(categories: string[], locale: string): string[] | undefined {
  const dates = categories.map((c) => ISO_DATE.exec(c));
  if (!dates.length || dates.some((d) => !d)) return undefined;
  const at = (d: RegExpExecArray) => new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3])));
  if (dates.every((d) => d![3] === '01')) return dates.map((d) => dateFormat(locale, { month: 'short', year: 'numeric' }).format(at(d!)));
  if (new Set(dates.map((d) => d![1])).size === 1)
    return dates.map((d) => dateFormat(locale, { month: 'short', day: 'numeric' }).format(at(d!)));
  return undefined;
}

/** 1234567 → "1,23 Mio." (de): short axis labels in the locale. */
const compacts = new Map<string, Intl.NumberFormat>();
export function compactIn(n: number, locale: string): string {
  let f = compacts.get(locale);
  if (!f) compacts.set(locale, (f = new Intl.NumberFormat(locale, { notation: 'compact', maximumSignificantDigits: 3 })));
  return f.format(n);
}
