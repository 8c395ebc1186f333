// Turns the caller's parameters into a resolved query for one insight: every parameter checked
// against what the insight takes, dates and the default window resolved against the clock.
import { COMPARES, MAX_FILTER_VALUES, type CompareKind } from '../../lib/chart.schemas.ts';
import { AppError, invalidField } from '../../lib/errors.ts';
import type { InsightParams } from '../../semantic/query/insight-query.ts';
import { comparison, daysBetween, defaultFrom, isValidDate, previousPeriod, yearAgo } from '../../semantic/periods.ts';
import { GRANULARITIES, type FilterRule, type Granularity, type InsightDefinition } from '../../semantic/types.ts';

/** The same for every insight; besides these, one parameter per filter of the insight (`country=DE`). */
export interface ExecuteParams {
  granularity?: string;
  date_from?: string;
  date_to?: string;
  limit?: number;
  /** previous_period or previous_year (docs/insights.md "Comparisons"). */
  compare?: string;
  /** A filter takes one value or several (`country=DE&country=FR`: any of them). */
  [filter: string]: string | string[] | number | null | undefined;
}

/** Keeps series and scans bounded: ten years of days (so at most as many periods). */
export const MAX_PERIODS = 3660;

/** The parameters an insight takes, as listed in the catalog. */
export function parametersOf(def: InsightDefinition): string[] {
  const out: string[] = [];
  if (def.granularities.length) out.push('granularity');
  out.push(...def.filters, 'date_from', 'date_to');
  if (def.limit) out.push('limit');
  // A cohort's periods are counted from each cohort's own start: nothing lines up to compare with.
  if (def.kind !== 'cohort') out.push('compare');
  return out;
}

const bad = (name: string, message: string, where = 'query') => invalidField(`/${where}/${name}`, message);

/** A caller's filter value, normalized as its dimension says (case), then checked (values, pattern). */
function filterValue(rule: FilterRule, given: string | number, where: string): string {
  let v = String(given).trim();
  if (rule.case === 'upper') v = v.toUpperCase();
  if (rule.case === 'lower') v = v.toLowerCase();
  if (!v || v.length > 100) throw bad(rule.name, 'must be a value of 1 to 100 characters', where);
  if (rule.values && !rule.values.includes(v)) throw bad(rule.name, `must be one of: ${rule.values.join(', ')}`, where);
  if (rule.pattern && !rule.pattern.test(v)) throw bad(rule.name, `must match ${rule.pattern.source}`, where);
  return v;
}

export function resolveParams(
  def: InsightDefinition,
  tenantId: string,
  given: ExecuteParams,
  today: string,
  where = 'query',
): InsightParams {
  // null means "not given", as undefined does (structured queries from chat carry explicit nulls).
  const params = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined && v !== null)) as ExecuteParams;
  const accepted = new Set(parametersOf(def));
  const errors: { path: string; message: string }[] = [];
  for (const [name, _value] of Object.entries(params)) {
    if (!accepted.has(name))
      errors.push({
        path: `/${where}/${name}`,
        message: `is not a parameter of insight ${def.code} (it takes: ${[...accepted].join(', ')})`,
      });
  }
  if (errors.length) {
    throw new AppError('VALIDATION_FAILED', errors.map((e) => `${e.path.split('/').pop()}: ${e.message}`).join('; '), { errors });
  }

  let granularity: Granularity | null = null;
  if (def.granularities.length) {
    const g = params.granularity ?? def.defaultGranularity!;
    if (!(GRANULARITIES as readonly string[]).includes(g) || !def.granularities.includes(g as Granularity)) {
      throw bad('granularity', `must be one of: ${def.granularities.join(', ')}`, where);
    }
    granularity = g as Granularity;
  }

  const filters: Record<string, string | string[]> = {};
  let series: string | undefined;
  for (const name of def.filters) {
    const v = params[name];
    if (v === undefined || v === null) continue;
    const given = Array.isArray(v) ? v : [v];
    if (given.length === 0) continue;
    if (given.length > MAX_FILTER_VALUES) throw bad(name, `takes at most ${MAX_FILTER_VALUES} values`, where);
    const values = [...new Set(given.map((x) => filterValue(def.filterRules[name], x, where)))];
    filters[name] = values.length === 1 ? values[0] : values;
    if (values.length > 1 && def.kind === 'timeseries') {
      // Several values of one filter split a time series into a series per value.
      if (series) throw bad(name, `only one filter of a time series may take several values (${series} already does)`, where);
      if (!def.plan.facts.every((f) => f.filters[def.filterRefs[name]]))
        throw bad(name, `takes one value for insight ${def.code}: not every measure of it can be split by ${name}`, where);
      series = name;
    }
  }

  let compare: CompareKind | undefined;
  if (params.compare !== undefined) {
    if (!(COMPARES as readonly unknown[]).includes(params.compare)) throw bad('compare', `must be one of: ${COMPARES.join(', ')}`, where);
    compare = params.compare as CompareKind;
  }

  for (const name of ['date_from', 'date_to'] as const) {
    const v = params[name];
    if (v !== undefined && (typeof v !== 'string' || !isValidDate(v))) throw bad(name, 'must be a date YYYY-MM-DD', where);
  }
  const to = params.date_to ?? (params.date_from && params.date_from > today ? params.date_from : today);
  const from = params.date_from ?? defaultFrom(def.kind, granularity, to);
  if (from > to) throw bad('date_from', 'must not be after date_to', where);
  if (daysBetween(from, to) + 1 > MAX_PERIODS) throw bad('date_from', `the window may span at most ${MAX_PERIODS} days`, where);
  if (from < '1900-01-01' || to > '2999-12-31') throw bad('date_from', 'is out of range', where);

  let limit: number | undefined;
  if (def.limit) {
    limit = params.limit === undefined ? def.limit.default : Number(params.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > def.limit.max)
      throw bad('limit', `must be an integer from 1 to ${def.limit.max}`, where);
  }

  const window = { from, to };
  const q: InsightParams = { tenantId, granularity, filters, window, limit };
  if (series) q.series = series;
  if (def.kind === 'kpi') {
    // The previous period has one meaning (previousPeriod): last month against the month before,
    // this month so far against the same days of last month; previous_year: the same dates a year before.
    q.previous = compare === 'previous_year' ? { from: yearAgo(from), to: yearAgo(to) } : previousPeriod(window, granularity);
    if (compare) q.compare = { kind: compare, window: q.previous };
  } else if (compare) {
    q.compare = comparison(compare, window, granularity, def.kind === 'timeseries');
  }
  return q;
}
