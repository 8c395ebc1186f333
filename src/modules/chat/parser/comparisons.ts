// Comparisons in a question: "vs last year", "MoM", and two periods set against each other
// ("compare 2017 with 2016"). Read before the window, so that "this week vs last week" keeps
// "this week" as the window and "vs last week" as what it is compared with.
import { yearAgo } from '../../../semantic/periods.ts';
import type { Span } from '../language/vocabulary.ts';
import { findTimeRange, rangeBefore, type TimeMatch } from './dates.ts';

export type Granularity = 'day' | 'week' | 'month' | 'quarter' | 'year';
export type Compare = 'previous_period' | 'previous_year';

/** Blank out a matched span so later recognisers do not read it again (keeps offsets). */
export const blank = (text: string, s: Span | undefined): string =>
  s ? text.slice(0, s.start) + ' '.repeat(s.end - s.start) + text.slice(s.end) : text;

/**
 * Comparisons, read before dates so that "this week vs last week" keeps "this week" as the window
 * and "vs last week" as the comparison. A bare "last year" is a window, not a comparison: only a
 * comparing word before it ("vs", "compared with", "on", "than"…) makes one. MoM, WoW, QoQ, DoD
 * also name the period: this one so far against the same stretch of the one before.
 */
const COMPARES: { re: RegExp; compare: Compare; unit?: Granularity; unitFrom?: boolean }[] = [
  { re: /\b(yoy|y\/y|y-o-y|year[- ]over[- ]year|year[- ]on[- ]year)\b/, compare: 'previous_year' },
  { re: /\b(mom|m\/m|month[- ]over[- ]month|month[- ]on[- ]month)\b/, compare: 'previous_period', unit: 'month' },
  { re: /\b(wow|w\/w|week[- ]over[- ]week|week[- ]on[- ]week)\b/, compare: 'previous_period', unit: 'week' },
  { re: /\b(qoq|q\/q|quarter[- ]over[- ]quarter|quarter[- ]on[- ]quarter)\b/, compare: 'previous_period', unit: 'quarter' },
  { re: /\b(dod|day[- ]over[- ]day|day[- ]on[- ]day)\b/, compare: 'previous_period', unit: 'day' },
  {
    re: new RegExp(
      String.raw`\b(?:vs\.?|versus|compared? (?:with|to)|in comparison (?:with|to)|against|` +
        String.raw`than|on|relative to)\s+(?:the\s+)?(?:same (?:\w+ )?(?:(?:of|in|as) )?)?(?:last|` +
        String.raw`previous|prior|preceding) year\b(?!')|\b(?:a|one) year (?:ago|earlier|before)\b`,
    ),
    compare: 'previous_year',
  },
  {
    re: new RegExp(
      String.raw`\b(?:vs\.?|versus|compared? (?:with|to)|in comparison (?:with|to)|against|` +
        String.raw`than|on|relative to)\s+(?:the\s+)?(?:last|previous|prior|preceding) (day|` +
        String.raw`week|month|quarter|period)\b(?!')|\b(?:vs\.?|versus|compared (?:with|to)) (?:the )?(period|` +
        String.raw`week|month|quarter|day) before\b`,
    ),
    compare: 'previous_period',
    // "revenue vs last month" with no window of its own: this month so far, as MoM.
    unitFrom: true,
  },
];

/**
 * `unit`: with no window of its own, the question asks for this unit so far ("revenue MoM", "revenue
 * vs last month"); `byUnit`: the unit is also the series' granularity (MoM, WoW…).
 */
export function findCompare(text: string): ({ compare: Compare; unit?: Granularity; byUnit: boolean } & Span) | undefined {
  for (const c of COMPARES) {
    const m = c.re.exec(text);
    if (!m) continue;
    const named = c.unitFrom ? (m[1] ?? m[2]) : undefined;
    const unit = c.unit ?? (named && named !== 'period' ? (named as Granularity) : undefined);
    return { compare: c.compare, unit, byUnit: Boolean(c.unit), start: m.index, end: m.index + m[0].length };
  }
  return undefined;
}

/** Words between two periods that make the second the comparison: "2017 vs 2016", "March vs February". */
const BETWEEN_PERIODS = new RegExp(
  String.raw`^\s*,?\s*(?:(vs\.?|versus|against|compared (?:with|to)|in comparison (?:with|` +
    String.raw`to)|relative to)|(with|to|and))\s+(?:(?:the )?same (?:\w+ )?(?:of|in) )?(?:in\s+)?$`,
);

/**
 * "compare 2017 with 2016", "2017 vs 2016", "revenue in March vs February": the first period is the
 * window and the second its comparison, when the second is the year or the stretch before the
 * first. "with", "to" and "and" join two periods only after "compare" ("from 2017 to 2019" is one
 * window). Undefined when the question names no such pair.
 */
export function findExplicitComparison(
  text: string,
  today: string,
): { time: TimeMatch; cmp: { compare: Compare; unit?: Granularity; byUnit: false } & Span; note?: string } | undefined {
  const first = findTimeRange(text, today);
  if (!first) return undefined;
  const second = findTimeRange(blank(text, first), today);
  if (!second || second.start < first.end) return undefined;
  const joint = BETWEEN_PERIODS.exec(text.slice(first.end, second.start));
  if (!joint || (joint[2] && !/\bcompar/.test(text.slice(0, first.start)))) return undefined;
  const a = first.range;
  const b = second.range;
  const span = { start: first.end, end: second.end };
  // A window capped at today ("2026 vs 2025") compares with the same days of the year before.
  if (b.from === yearAgo(a.from)) return { time: first, cmp: { compare: 'previous_year', byUnit: false, ...span } };
  const before = rangeBefore(a);
  if (b.from === before.from && b.to === before.to) return { time: first, cmp: { compare: 'previous_period', byUnit: false, ...span } };
  return {
    time: first,
    cmp: { compare: 'previous_year', byUnit: false, ...span },
    note: `a comparison with ${b.from} to ${b.to} is not supported, so it is compared with the same period a year before`,
  };
}
