// A live widget that holds a semantic query (docs/query.md) instead of an insight code: its query
// checked on write, and run on every refresh following the dashboard's filter bar where it fits —
// a filter of the bar applies when the dimension it names is reachable from the query's measures,
// the dates and compare when the query has a time dimension, the granularity when it groups by
// time. Precedence as for insight widgets (later wins): the dashboard's preset < the widget (its
// query's own filters, and its widget_filters: a relative range or dates, compare) < the refresh
// body or the filter bar's state. Its data comes in the ExecuteResponse shape every widget has.
import { RELATIVE_RANGES, type RelativeRange } from '../../lib/chart.schemas.ts';
import { queryChartHint } from '../../lib/charts/query-hint.ts';
import { AppError, invalidField } from '../../lib/errors.ts';
import { relativeWindow } from '../../semantic/periods.ts';
import type { QueryFilter, SemanticQuery } from '../../semantic/query/query.schema.ts';
import type { ExecuteResult, Scope } from '../insights/insights.service.ts';
import type { QueryService } from '../query/query.service.ts';
import { type WidgetDashboard, type WidgetOverrides, type WidgetSource, withDates } from './widget-source.ts';

/** What query widgets need: planning (the check) and running; and which dimension a dashboard filter names. */
export interface WidgetQueries extends Pick<QueryService, 'plan' | 'run'> {
  /** The dimension ("cube.dimension") the filter bar's filter `name` stands for, if any. */
  filterMember(name: string): string | undefined;
  today(): string;
}

/** What a query widget's widget_filters may hold: its period (dates or a relative range) and compare. */
const OWN_KEYS = new Set(['date_from', 'date_to', 'range', 'compare']);
const PERIOD_KEYS = new Set(['date_from', 'date_to', 'range']);

/** Checks a query widget on write: the query plans (400s named under /body/query), widget_filters hold only what applies. */
export function checkQueryWidget(
  queries: WidgetQueries,
  w: { query: SemanticQuery; widget_filters?: Record<string, unknown> | null },
): void {
  queries.plan(w.query, 'body/query');
  for (const k of Object.keys(w.widget_filters ?? {})) {
    if (!OWN_KEYS.has(k))
      throw invalidField(
        `/body/widget_filters/${k}`,
        'a query widget filters in its query; widget_filters holds only date_from, date_to, range and compare',
      );
    if ((PERIOD_KEYS.has(k) || k === 'compare') && !w.query.time)
      throw invalidField(`/body/widget_filters/${k}`, 'the query has no time dimension to apply it to');
  }
}

type Level = Record<string, unknown>;

function present(source: Record<string, unknown> | null | undefined): Level {
  return Object.fromEntries(Object.entries(source ?? {}).filter(([, v]) => v !== undefined && v !== null));
}

/**
 * The widget's query with the dashboard's state applied (pure but for planning, which says
 * whether a dimension is reachable). A refresh-body filter the query cannot take is a 400 naming
 * /body/filters/<name>, unless the state is the whole dashboard's (a filter bar, a PDF).
 */
export function widgetQuery(
  queries: WidgetQueries,
  dashboard: WidgetDashboard,
  widget: WidgetSource,
  overrides: WidgetOverrides = {},
): SemanticQuery {
  const base = widget.query!;
  const today = queries.today();
  const presetId = overrides.preset_id !== undefined ? overrides.preset_id : dashboard.active_preset_id;
  const preset = presetId ? (dashboard.global_filter_presets ?? []).find((p) => p.id === presetId) : undefined;
  if (overrides.preset_id && !preset) throw invalidField('/body/preset_id', 'is not a filter preset of this dashboard');
  const ignored = new Set(widget.ignored_filters ?? []);
  const optedOut = (k: string) => ignored.has(k) || (ignored.has('date') && PERIOD_KEYS.has(k));
  const fromPreset = Object.fromEntries(
    Object.entries(withDates(present(preset?.filters), today, '/body/global_filter_presets')).filter(([k]) => !optedOut(k)),
  );
  const fromWidget = withDates(present(widget.widget_filters), today, '/body/widget_filters');
  // The whole dashboard's state (the filter bar, a PDF) skips what the widget opts out of, as for insight widgets.
  const fromBody = Object.fromEntries(
    Object.entries(withDates(present(overrides.filters), today, '/body/filters')).filter(
      ([k]) => !(overrides.dashboard_wide && optedOut(k)),
    ),
  );

  let q: SemanticQuery = { ...base, filters: [...(base.filters ?? [])] };
  const fits = (candidate: SemanticQuery) => {
    try {
      queries.plan(candidate);
      return true;
    } catch {
      return false;
    }
  };
  // Dimension filters: the preset's where the query does not filter that dimension itself, the body's always.
  const apply = (level: Level, strong: boolean, where: string | undefined) => {
    for (const [k, v] of Object.entries(level)) {
      if (['date_from', 'date_to', 'compare', 'granularity', 'limit'].includes(k)) continue;
      if (!strong && optedOut(k)) continue;
      const member = queries.filterMember(k);
      const values = (Array.isArray(v) ? v : [v]).map(String);
      const own = (q.filters ?? []).filter((f) => f.member === member);
      if (member && own.length && !strong) continue;
      const filter: QueryFilter = { member: member ?? '', operator: 'equals', values };
      const next = { ...q, filters: [...(q.filters ?? []).filter((f) => !strong || f.member !== member), filter] };
      if (member && fits(next)) q = next;
      else if (where) throw invalidField(`${where}/${k}`, `is not a filter this widget's query can take`);
    }
  };
  apply(fromPreset, false, undefined);
  apply(fromBody, true, overrides.dashboard_wide ? undefined : '/body/filters');

  // The period, compare and granularity: only for a query with a time dimension.
  const merged = { ...fromPreset, ...fromWidget, ...fromBody };
  if (q.time) {
    const time = { ...q.time };
    if (merged.date_from !== undefined) time.date_from = String(merged.date_from);
    if (merged.date_to !== undefined) time.date_to = String(merged.date_to);
    const granularity = overrides.granularity ?? (fromBody.granularity as string | undefined);
    if (granularity && time.granularity) time.granularity = granularity as typeof time.granularity;
    q = { ...q, time };
    if (merged.compare !== undefined) q = { ...q, compare: merged.compare as SemanticQuery['compare'] };
  } else if (!overrides.dashboard_wide) {
    for (const k of ['date_from', 'date_to', 'range', 'compare'])
      if (k in present(overrides.filters)) throw invalidField(`/body/filters/${k}`, 'the query has no time dimension to apply it to');
  }
  return q;
}

/** A query widget's data in the ExecuteResponse shape: what ran in `query`, its rows keyed by member. */
export async function runQueryWidget(
  queries: WidgetQueries,
  scope: Scope,
  dashboard: WidgetDashboard,
  widget: WidgetSource,
  overrides: WidgetOverrides,
  now: Date,
): Promise<ExecuteResult> {
  const query = widgetQuery(queries, dashboard, widget, overrides);
  let r: Awaited<ReturnType<QueryService['run']>>;
  try {
    r = await queries.run(scope, query, 'body/query');
  } catch (err) {
    // The widget's stored query no longer fits the model (it changed since): the widget says so.
    if (err instanceof AppError && err.code === 'VALIDATION_FAILED' && !overrides.filters)
      throw new AppError('CONFLICT', `This widget's query no longer fits the model: ${err.detail}`, err.options);
    throw err;
  }
  const title = widget.title ?? 'Query';
  const equal = (r.query.filters ?? []).filter((f) => f.operator === 'equals');
  return {
    insight_code: '',
    insight_name: title,
    granularity: r.query.time?.granularity ?? null,
    filters: Object.fromEntries(
      equal.map((f) => [f.member, (f.values ?? []).length === 1 ? String(f.values![0]) : (f.values ?? []).map(String)]),
    ),
    period: { from: r.query.time?.date_from ?? '', to: r.query.time?.date_to ?? '' },
    ...(r.query.compare ? { compare: r.query.compare } : {}),
    columns: r.columns,
    rows: r.rows,
    chart_hint: queryChartHint(r.query, title),
    row_count: r.rows.length,
    generated_at: now.toISOString(),
    cached: false,
    query: r.query,
  };
}
