// An insight is a named query: its kind and its caller's parameters (insights.params.ts) say which
// query it is, and it runs through the same compiler (compile.ts) and row arrangement (rows.ts) as
// POST /api/v1/query. Only how its rows are named and laid out (period, short names, a KPI's
// columns) is the insight's own, and that is the insights module's presenting.
import type { Comparison, Window } from '../periods.ts';
import type { Attributes, FactPlan, Granularity, InsightDefinition, QueryPlan, RollupDefinition } from '../types.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { compileCohort, compileQuery, type CompiledQuery, type DimensionFilter, type ResolvedQuery } from './compile.ts';
import type { Arrangement } from './rows.ts';

/** An insight's parameters, checked and resolved against the day (insights.params.ts). */
export interface InsightParams {
  tenantId: string;
  granularity: Granularity | null;
  /** Filter name (a dimension of the insight's filters) → the caller's value, or values (any of them). */
  filters: Record<string, string | string[]>;
  /**
   * Time series: the filter given several values, whose dimension becomes a column (a row per
   * period per value) and the chart's series.
   */
  series?: string;
  /** compare=previous_period|previous_year: the window (and, for a time series, the periods) compared with. */
  compare?: Comparison;
  window: Window;
  /** KPIs: the window compared with. */
  previous?: Window;
  /** top and breakdowns with a limit: rows to return. */
  limit?: number;
  rollups?: readonly RollupDefinition[];
  attributes?: Attributes;
}

/** A filter's value or values, as a list. */
export const filterValues = (v: string | string[]): string[] => (typeof v === 'string' ? [v] : v);

export interface InsightQuery {
  plan: QueryPlan;
  q: ResolvedQuery;
  arrangement: Arrangement;
}

/** Execute's filters as conditions: text compared whole, whatever the dimension's type. */
function insightFilters(def: InsightDefinition, p: InsightParams): DimensionFilter[] {
  return def.filters
    .filter((name) => p.filters[name] !== undefined)
    .map((name) => ({ member: def.filterRefs[name], operator: 'equals', values: filterValues(p.filters[name]), type: 'string' }));
}

/** A cohort insight's SQL (compile-cohort.ts): cohort, period and active per row. */
export function cohortQuery(def: InsightDefinition, dialect: Dialect, p: InsightParams): CompiledQuery {
  const granularity = def.cohort!.granularity;
  const q = { tenantId: p.tenantId, window: p.window, granularity, filters: insightFilters(def, p), attributes: p.attributes };
  return compileCohort(def.plan, dialect, q);
}

/** The query an insight asks with these parameters (not a cohort's: cohortQuery). */
export function insightQuery(def: InsightDefinition, p: InsightParams): InsightQuery {
  const filters = insightFilters(def, p);
  const measures = def.measures.map((m) => m.ref!);
  const base = { tenantId: p.tenantId, window: p.window, filters, rollups: p.rollups, attributes: p.attributes };
  if (def.kind === 'kpi') {
    return {
      plan: def.plan,
      q: { ...base, granularity: null, previous: p.previous },
      arrangement: { granularity: null, keys: [], measures, previous: true },
    };
  }
  if (def.kind === 'timeseries') {
    const series = p.series ? def.filterRefs[p.series] : undefined;
    // A series is its filter's dimension grouped by, for the values asked for (in their order).
    const facts: FactPlan[] = series
      ? def.plan.facts.map((f) => ({
          ...f,
          keys: [{ name: series, sql: f.filters[series] }],
          refs: { ...f.refs, keys: [f.refs.filters[series]] },
        }))
      : def.plan.facts;
    return {
      plan: { ...def.plan, facts },
      q: { ...base, granularity: p.granularity, compare: p.compare },
      arrangement: {
        granularity: p.granularity,
        window: p.window,
        keys: series ? [series] : [],
        measures,
        compare: p.compare,
        ...(series ? { combinations: filterValues(p.filters[p.series!]).map((v) => [v]) } : {}),
      },
    };
  }
  const keys = def.plan.facts[0].keys.map((k) => k.name);
  return {
    plan: def.plan,
    q: {
      ...base,
      granularity: null,
      compare: p.compare,
      order: [{ column: measures[0], desc: true }],
      limit: p.limit ?? def.limit?.default,
    },
    arrangement: { granularity: null, keys, measures, compare: p.compare },
  };
}

/** The SQL an insight runs with these parameters (tests, and the rollup report's "read from a rollup"). */
export function compileInsight(def: InsightDefinition, dialect: Dialect, p: InsightParams): CompiledQuery {
  if (def.kind === 'cohort') return cohortQuery(def, dialect, p);
  const { plan, q } = insightQuery(def, p);
  return compileQuery(plan, dialect, q);
}
