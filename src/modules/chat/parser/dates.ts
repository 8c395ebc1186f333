// Time phrases → an inclusive UTC date range, relative to a given "today". Each recogniser also
// returns the span it matched, so the rest of the parser does not read "last week" as "by week".
//
// Conventions (docs/chat.md): "last N days/weeks/months/years" and "past …" are rolling windows
// ending today; "last week/month/quarter/year" are the previous calendar period; "this …" runs
// from the period's start to today; a named month or quarter without a year is the most recent
// one that has begun. Ends are capped at today.

import { addDays as addDaysTo, addMonths as addMonthsTo, bucketStart, daysBetween, fmt, toDate } from '../../../semantic/periods.ts';

export interface DateRange {
  from: string;
  to: string;
}

export interface TimeMatch {
  range: DateRange;
  start: number;
  end: number;
}

// Calendar arithmetic is the insight engine's own (src/semantic/periods.ts), so "this week" in
// chat starts on the same Monday as a weekly bucket; the parser works on Dates around it.
export const iso = fmt;
export const parseIso = toDate;
const addDays = (d: Date, n: number): Date => toDate(addDaysTo(fmt(d), n));
const ymd = (y: number, m: number, day: number): Date => new Date(Date.UTC(y, m, day));
/** Same day n months away, clamped to the month's last day. */
const addMonths = (d: Date, n: number): Date => toDate(addMonthsTo(fmt(d), n));
const monthEnd = (y: number, m: number): Date => ymd(y, m + 1, 0);

const MONTHS: Record<string, number> = {
  january: 0,
  jan: 0,
  february: 1,
  feb: 1,
  march: 2,
  mar: 2,
  april: 3,
  apr: 3,
  may: 4,
  june: 5,
  jun: 5,
  july: 6,
  jul: 6,
  august: 7,
  aug: 7,
  september: 8,
  sept: 8,
  sep: 8,
  october: 9,
  oct: 9,
  november: 10,
  nov: 10,
  december: 11,
  dec: 11,
};
const MONTH_RE =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec';

const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  sixty: 60,
  ninety: 90,
  couple: 2,
  'couple of': 2,
  few: 3,
};
const NUM_RE = `\\d{1,4}|${Object.keys(NUMBERS)
  .sort((a, b) => b.length - a.length)
  .join('|')}`;
export const toNumber = (s: string): number => (/^\d+$/.test(s) ? Number(s) : NUMBERS[s]);

type Unit = 'day' | 'week' | 'month' | 'quarter' | 'year';
const unitOf = (s: string): Unit => s.replace(/s$/, '') as Unit;

function periodStart(today: Date, unit: Unit): Date {
  return toDate(bucketStart(fmt(today), unit));
}

function shift(d: Date, unit: Unit, n: number): Date {
  if (unit === 'day') return addDays(d, n);
  if (unit === 'week') return addDays(d, 7 * n);
  return addMonths(d, n * (unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12));
}

/** N units back, ending today, e.g. last 7 days = today-6 … today. */
function rolling(today: Date, unit: Unit, n: number): DateRange {
  if (unit === 'day' || unit === 'week') return { from: iso(addDays(today, -(n * (unit === 'week' ? 7 : 1)) + 1)), to: iso(today) };
  return { from: iso(addDays(shift(today, unit, -n), 1)), to: iso(today) };
}

function previousPeriod(today: Date, unit: Unit, back = 1): DateRange {
  const start = shift(periodStart(today, unit), unit, -back);
  return { from: iso(start), to: iso(addDays(shift(start, unit, 1), -1)) };
}

/** The most recent month (0-11) that has begun, or of the given year. */
function monthRange(today: Date, month: number, year?: number): DateRange {
  const y = year ?? (month <= today.getUTCMonth() ? today.getUTCFullYear() : today.getUTCFullYear() - 1);
  return { from: iso(ymd(y, month, 1)), to: iso(monthEnd(y, month)) };
}

function quarterRange(today: Date, q: number, year?: number): DateRange {
  const current = Math.floor(today.getUTCMonth() / 3) + 1;
  const y = year ?? (q <= current ? today.getUTCFullYear() : today.getUTCFullYear() - 1);
  return { from: iso(ymd(y, (q - 1) * 3, 1)), to: iso(monthEnd(y, q * 3 - 1)) };
}

const validDay = (y: number, m: number, d: number): boolean => m >= 0 && m < 12 && d >= 1 && d <= monthEnd(y, m).getUTCDate();

/** One point in time: a day, or a month/year taken as its first or last day. */
function parsePoint(text: string, today: Date, edge: 'from' | 'to'): string | undefined {
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m && validDay(+m[1], +m[2] - 1, +m[3])) return text;
  m = /^(\d{4})-(\d{2})$/.exec(text);
  if (m) return monthRange(today, +m[2] - 1, +m[1])[edge];
  const day = '(\\d{1,2})(?:st|nd|rd|th)?';
  m =
    new RegExp(`^(${MONTH_RE})\\.? ${day}(?:,? (\\d{4}))?$`).exec(text) ??
    swapDayMonth(new RegExp(`^${day} (?:of )?(${MONTH_RE})\\.?(?:,? (\\d{4}))?$`).exec(text));
  if (m) {
    const month = MONTHS[m[1]];
    const dayNo = +m[2];
    const y = m[3] ? +m[3] : ymd(today.getUTCFullYear(), month, dayNo) <= today ? today.getUTCFullYear() : today.getUTCFullYear() - 1;
    return validDay(y, month, dayNo) ? iso(ymd(y, month, dayNo)) : undefined;
  }
  m = new RegExp(`^(${MONTH_RE})\\.?(?:,? (?:of )?(\\d{4}))?$`).exec(text);
  if (m) return monthRange(today, MONTHS[m[1]], m[2] ? +m[2] : undefined)[edge];
  m = /^(\d{4})$/.exec(text);
  if (m) return edge === 'from' ? `${m[1]}-01-01` : `${m[1]}-12-31`;
  return undefined;
}

function swapDayMonth(m: RegExpExecArray | null): RegExpExecArray | null {
  if (!m) return null;
  const out = [...m] as unknown as RegExpExecArray;
  [out[1], out[2]] = [m[2], m[1]];
  return out;
}

const POINT =
  `\\d{4}-\\d{2}-\\d{2}|\\d{4}-\\d{2}|(?:${MONTH_RE})\\.? \\d{1,2}(?:st|nd|rd|th)?(?:,? ` +
  `\\d{4})?|\\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:${MONTH_RE})\\.?(?:,? \\d{4})?|(?:${MONTH_RE})\\.?(?:,? (?:of ` +
  `)?\\d{4})?|\\d{4}`;

type Recogniser = { re: RegExp; range: (m: RegExpExecArray, today: Date) => DateRange | undefined };

const UNIT = '(day|days|week|weeks|month|months|quarter|quarters|year|years)';

// Most specific first: the first recogniser that matches wins.
const RECOGNISERS: Recogniser[] = [
  {
    re: new RegExp(`\\b(?:between|from) (${POINT}) (?:and|to|until|till|-) (${POINT})\\b`),
    range: (m, t) => {
      const from = parsePoint(m[1], t, 'from');
      const to = parsePoint(m[2], t, 'to');
      if (!from || !to) return undefined;
      // "from November to February": the start lies in the year before the end.
      return from <= to ? { from, to } : { from: iso(shift(parseIso(from), 'year', -1)), to };
    },
  },
  {
    // "January and February", "March through May": from the first month's start to the second's end.
    re: new RegExp(
      `\\b(?:(?:in|for|during|from|between) )?(${MONTH_RE})\\.?(?: (\\d{4}))? (?:and|&|through|thru|until|till|to|-) ` +
        `(${MONTH_RE})\\.?(?: (\\d{4}))?\\b`,
    ),
    range: (m, t) => {
      if ((m[1] === 'may' || m[3] === 'may') && !/^(in|for|during|from|between) /.test(m[0])) return undefined;
      const end = monthRange(t, MONTHS[m[3]], m[4] ? +m[4] : undefined);
      const startYear = m[2] ? +m[2] : MONTHS[m[1]] <= MONTHS[m[3]] ? +end.from.slice(0, 4) : +end.from.slice(0, 4) - 1;
      return { from: monthRange(t, MONTHS[m[1]], startYear).from, to: end.to };
    },
  },
  {
    re: /\b(?:since|from) (?:the )?(?:start|beginning) of (?:the |this )?(week|month|quarter|year)\b/,
    range: (m, t) => ({ from: iso(periodStart(t, unitOf(m[1]))), to: iso(t) }),
  },
  {
    re: new RegExp(`\\b(?:since|starting|from|after) (${POINT})\\b`),
    range: (m, t) => {
      const from = parsePoint(m[1], t, 'from');
      return from ? { from, to: iso(t) } : undefined;
    },
  },
  {
    re: new RegExp(
      `\\b(?:in |during |over |within |for )?(?:the )?(?:last|past|previous|trailing|recent) (${NUM_RE}) (?:full ` +
        `|complete |calendar )?${UNIT}\\b`,
    ),
    range: (m, t) => rolling(t, unitOf(m[2]), toNumber(m[1])),
  },
  {
    re: new RegExp(`\\b(${NUM_RE}) ${UNIT} (?:ago|back)\\b`),
    range: (m, t) => {
      const unit = unitOf(m[2]);
      const n = toNumber(m[1]);
      return unit === 'day' ? { from: iso(addDays(t, -n)), to: iso(addDays(t, -n)) } : previousPeriod(t, unit, n);
    },
  },
  {
    re: /\b(?:(?:over|in|during|within) the (?:last|past)|the past|past) (week|month|quarter|year)\b/,
    range: (m, t) => rolling(t, unitOf(m[1]), 1),
  },
  { re: /\b(?:last|previous|prior) (week|month|quarter|year)\b/, range: (m, t) => previousPeriod(t, unitOf(m[1])) },
  {
    re: /\b(?:this|current|the current) (week|month|quarter|year)(?: so far| to date)?\b/,
    range: (m, t) => ({ from: iso(periodStart(t, unitOf(m[1]))), to: iso(t) }),
  },
  {
    re: /\b(?:so far this|(week|month|quarter|year)[- ]to[- ]date|ytd|mtd|qtd|wtd)\b/,
    range: (m, t) => {
      const s = m[0];
      const unit: Unit = m[1] ? unitOf(m[1]) : s === 'mtd' ? 'month' : s === 'qtd' ? 'quarter' : s === 'wtd' ? 'week' : 'year';
      return { from: iso(periodStart(t, unit)), to: iso(t) };
    },
  },
  {
    re: /\b(?:the )?(?:last|past|previous) (?:24 hours|twenty-four hours|day)\b/,
    range: (_m, t) => ({ from: iso(addDays(t, -1)), to: iso(t) }),
  },
  { re: /\b(?:the )?(?:last|past|previous) fortnight\b|\b(?:the )?past two weeks\b/, range: (_m, t) => rolling(t, 'week', 2) },
  {
    // Saturday and Sunday: the last complete weekend, or the one under way.
    re: /\b(last|previous|this|the) weekend\b/,
    range: (m, t) => {
      const monday = periodStart(t, 'week');
      const sat = m[1] === 'this' ? addDays(monday, 5) : addDays(monday, -2);
      return { from: iso(sat), to: iso(addDays(sat, 1)) };
    },
  },
  { re: /\b(?:the )?day before yesterday\b/, range: (_m, t) => ({ from: iso(addDays(t, -2)), to: iso(addDays(t, -2)) }) },
  { re: /\byesterday\b/, range: (_m, t) => ({ from: iso(addDays(t, -1)), to: iso(addDays(t, -1)) }) },
  { re: /\btoday\b/, range: (_m, t) => ({ from: iso(t), to: iso(t) }) },
  {
    re: /\b(?:(?:in|during|for) )?(?:the )?(first|second|third|fourth|1st|2nd|3rd|4th|q[1-4])(?: quarter)?(?:,? (?:of )?(\d{4}))?\b/,
    range: (m, t) => {
      const q = { first: 1, second: 2, third: 3, fourth: 4, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4 }[m[1]] ?? Number(m[1].slice(1));
      // "first 3 …" or a bare ordinal without "quarter"/"q" is no quarter.
      if (!/^q/.test(m[1]) && !/quarter/.test(m[0])) return undefined;
      return quarterRange(t, q, m[2] ? +m[2] : undefined);
    },
  },
  {
    re: /\b(?:the )?(first|second|h1|h2) half(?: of)?(?: (\d{4}))?\b|\b(h1|h2)(?: (\d{4}))?\b/,
    range: (m, t) => {
      const h = (m[1] ?? m[3]) === 'first' || (m[1] ?? m[3]) === 'h1' ? 0 : 1;
      const year = m[2] ?? m[4];
      const y = year ? +year : h === 1 && t.getUTCMonth() < 6 ? t.getUTCFullYear() - 1 : t.getUTCFullYear();
      return { from: iso(ymd(y, h * 6, 1)), to: iso(monthEnd(y, h * 6 + 5)) };
    },
  },
  {
    re: new RegExp(`\\b(?:last|previous) (${MONTH_RE})\\b`),
    range: (m, t) => {
      const month = MONTHS[m[1]];
      return monthRange(t, month, month < t.getUTCMonth() ? t.getUTCFullYear() : t.getUTCFullYear() - 1);
    },
  },
  {
    // A day or a month named with its context; "may" alone is a verb far more often than a month.
    re: new RegExp(`\\b(?:(in|on|for|during|of|at) )?(${POINT})\\b`),
    range: (m, t) => {
      if (/^may$/.test(m[2]) && !m[1]) return undefined;
      // A bare number is a year from 2000 on; with "in", "of", "for"… from 1900 on (data of the 1990s).
      if (/^\d{4}$/.test(m[2]) && !(+m[2] >= (m[1] ? 1900 : 2000) && +m[2] <= 2100)) return undefined;
      const from = parsePoint(m[2], t, 'from');
      const to = parsePoint(m[2], t, 'to');
      return from && to ? { from, to } : undefined;
    },
  },
];

/**
 * The time phrase that comes first in the text ("this year compared to last year" is about this
 * year), with its span; ends are capped at today. At one position the earlier recogniser wins.
 */
export function findTimeRange(text: string, todayIso: string): TimeMatch | undefined {
  // One question is read for its time several times over (the parser, a comparison's two periods,
  // the composer): each text once. Callers never change what they get.
  const key = `${todayIso}\u0000${text}`;
  const known = readTimes.get(key);
  if (known !== undefined || readTimes.has(key)) return known;
  if (readTimes.size >= 512) readTimes.clear();
  const found = readTimeRange(text, todayIso);
  readTimes.set(key, found);
  return found;
}

const readTimes = new Map<string, TimeMatch | undefined>();

function readTimeRange(text: string, todayIso: string): TimeMatch | undefined {
  const today = parseIso(todayIso);
  let best: TimeMatch | undefined;
  for (const r of RECOGNISERS) {
    const re = new RegExp(r.re.source, 'g');
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (best && m.index >= best.start) break;
      const range = r.range(m, today);
      if (!range) continue;
      best = { range: { from: range.from, to: range.to > todayIso ? todayIso : range.to }, start: m.index, end: m.index + m[0].length };
      break;
    }
  }
  return best;
}

/** The period just before a range: the previous month, quarter or year when it is one, else as many days before. */
export function rangeBefore(range: DateRange): DateRange {
  const from = parseIso(range.from);
  const to = parseIso(range.to);
  const nextDay = addDays(to, 1);
  for (const months of [12, 3, 1]) {
    const whole = from.getUTCDate() === 1 && nextDay.getUTCDate() === 1 && shift(from, 'month', months).getTime() === nextDay.getTime();
    if (whole) return { from: iso(shift(from, 'month', -months)), to: iso(addDays(from, -1)) };
  }
  const days = daysBetween(fmt(from), fmt(to)) + 1;
  return { from: iso(addDays(from, -days)), to: iso(addDays(from, -1)) };
}
