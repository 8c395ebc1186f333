// What each tool does once its arguments passed their schema: one call of the service a REST route
// calls for the same thing, and the answer shaped as structured content plus a summary.
import type { AuthContext } from '../../auth/context.ts';
import { COMPARES, GRANULARITIES } from '../../lib/chart.schemas.ts';
import { AppError } from '../../lib/errors.ts';
import { outputColumns } from '../insights/insights.columns.ts';
import type { InsightDefinition } from '../../semantic/types.ts';
import type { ChatService } from '../chat/chat.service.ts';
import { executeParamsOf } from '../chat/chat.queries.ts';
import type { DashboardsService } from '../dashboards/dashboards.service.ts';
import type { DashboardView } from '../dashboards/dashboards.schemas.ts';
import type { WidgetsService } from '../dashboards/widgets.service.ts';
import type { ExecuteParams, ExecuteResult, InsightsService } from '../insights/insights.service.ts';
import type { QueryService } from '../query/query.service.ts';
import type { SemanticQuery } from '../../semantic/query/query.schema.ts';
import { ArgumentProblem, type JsonSchema } from './mcp.inputs.ts';
import { asData, insightResult, summarize, withUnits } from './mcp.results.ts';
import type { Column, InsightResult, WidgetData } from './mcp.schemas.ts';

export interface ToolDeps {
  insights: Pick<InsightsService, 'model' | 'catalog' | 'find' | 'execute' | 'resolve' | 'today' | 'dataVersion'>;
  queries: Pick<QueryService, 'run' | 'describe'>;
  chat: Pick<ChatService, 'ask'>;
  dashboards: Pick<DashboardsService, 'list' | 'get' | 'getEditable'>;
  widgets: Pick<WidgetsService, 'create' | 'execute'>;
}

/** What the caller's tools are made of: the catalog, the filter values in their data, today. */
export interface Context {
  catalog: readonly InsightDefinition[];
  values: Record<string, string[]>;
  today: string;
  runSchema: JsonSchema;
  querySchema: JsonSchema;
}

export interface ToolOutcome {
  summary: string;
  structured: Record<string, unknown>;
}

type Args = Record<string, unknown>;

/** A service's refusal of a field, named as the tool's argument (`/query/country` → `filters.country`). */
function asArguments(err: unknown, name: (field: string) => string): never {
  if (err instanceof AppError && err.code === 'VALIDATION_FAILED' && err.options.errors?.length) {
    throw new ArgumentProblem(
      err.options.errors.map((e) => ({
        argument: name(e.path.replace(/^\/(query|body|params)\//, '').replace(/\//g, '.')),
        message: e.message,
      })),
    );
  }
  throw err;
}

/** A dashboard the caller may not view (or that is gone) is the dashboard_id argument's problem. */
function onDashboard(err: unknown): never {
  if (err instanceof AppError && err.code === 'NOT_FOUND') throw new AppError('NOT_FOUND', `dashboard_id: ${err.detail}`);
  throw err;
}

/** run_insight's arguments that are not filters; every other execute parameter is a filter. */
const QUERY_ARGUMENTS = new Set(['insight_code', 'granularity', 'date_from', 'date_to', 'limit', 'compare']);

/** The run_insight arguments as the REST execute route's query parameters. */
function executeParams(a: Args): ExecuteParams {
  const filters = (a.filters ?? {}) as Record<string, string | string[]>;
  return {
    granularity: a.granularity as string | undefined,
    date_from: a.date_from as string | undefined,
    date_to: a.date_to as string | undefined,
    limit: a.limit as number | undefined,
    compare: a.compare as string | undefined,
    ...Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, Array.isArray(v) ? v : [v]])),
  };
}

/** Runs a query as GET /api/v1/insights/{code}/execute does; `prefix` names where its arguments sit. */
async function execute(
  deps: ToolDeps,
  auth: AuthContext,
  a: Args,
  c: Context,
  prefix = '',
): Promise<{ result: InsightResult; def: InsightDefinition }> {
  const def = deps.insights.find(a.insight_code as string)!;
  let r: ExecuteResult;
  try {
    r = await deps.insights.execute(auth, def.code, executeParams(a));
  } catch (err) {
    asArguments(err, (field) => prefix + (QUERY_ARGUMENTS.has(field) ? field : `filters.${field}`));
  }
  return { result: insightResult(r, def.kind, c.today), def };
}

export async function runInsight(deps: ToolDeps, auth: AuthContext, a: Args, c: Context): Promise<ToolOutcome> {
  const { result, def } = await execute(deps, auth, a, c);
  return { summary: summarize(result, def), structured: result };
}

export async function ask(deps: ToolDeps, auth: AuthContext, a: Args): Promise<ToolOutcome> {
  const answer = await deps.chat.ask(auth, { message: a.message as string, history_id: a.history_id as string | undefined });
  const def = answer.insight_code ? deps.insights.find(answer.insight_code) : undefined;
  // An insight's query; a composed answer's semantic query names its columns itself.
  const q = answer.query && 'insight_code' in answer.query ? answer.query : undefined;
  // The rows name their columns when the insight's cannot be resolved (the query ran, so it should).
  const fromRows = (): Column[] =>
    Object.keys(answer.rows[0] ?? {}).map((name) => ({
      name,
      label: name,
      type: typeof answer.rows[0][name] === 'number' ? 'number' : 'string',
    }));
  let columns: Column[] = q ? [] : ((answer.columns as Column[] | undefined) ?? []);
  if (def && q) {
    try {
      columns = withUnits(outputColumns(def, deps.insights.resolve(auth, def.code, executeParamsOf(q))));
    } catch {
      columns = fromRows();
    }
  } else if (!columns.length && answer.rows.length) columns = fromRows();
  const structured = {
    reply_text: answer.reply_text,
    history_id: answer.history_id,
    insight_code: answer.insight_code,
    query: answer.query,
    answered_by: answer.answered_by,
    language: answer.language,
    alternatives: answer.alternatives,
    columns,
    rows: answer.rows,
    chart_hint: answer.chart_hint,
  };
  // With rows, the summary is of their cells, as the instructions promise; reply_text (the chat's
  // reply for people) may also state totals and changes, formatted for reading. Without rows, the
  // summary is that reply: a refusal or a question back.
  const summary = answer.rows.length
    ? summarize(
        {
          insight_name: def?.name ?? 'The answer',
          granularity: q?.granularity ?? null,
          filters: (q?.filters ?? {}) as Record<string, string | string[]>,
          compare: q?.compare,
          columns,
          rows: answer.rows,
          chart_hint: answer.chart_hint,
        },
        def,
      )
    : answer.reply_text;
  return { summary, structured };
}

/** A cell as the summary writes it: the number as it is in the rows, with its unit. */
const cellText = (v: unknown, unit?: string) => (v === null || v === undefined ? 'none' : `${asData(v)}${unit === '%' ? ' %' : ''}`);

export async function query(deps: ToolDeps, auth: AuthContext, a: Args, c: Context): Promise<ToolOutcome> {
  let r: Awaited<ReturnType<ToolDeps['queries']['run']>>;
  try {
    r = await deps.queries.run(auth, a as SemanticQuery);
  } catch (err) {
    asArguments(err, (field) => field.replace(/\.(\d+)(?=\.|$)/g, '[$1]'));
  }
  const columns = withUnits(r.columns);
  const shown = r.rows.slice(0, 10).map((row) => columns.map((col) => `${col.label} ${cellText(row[col.name], col.unit)}`).join(', '));
  // Every number of the summary is a cell of the rows (the instructions promise it): no counts here, total_rows says them.
  const summary = r.rows.length
    ? `${shown.join('; ')}${r.rows.length > shown.length || r.total_rows > r.rows.length ? '; more rows follow (total_rows)' : ''}.`
    : 'No rows: nothing in your data matches this query.';
  return { summary, structured: { columns, rows: r.rows, query: r.query, total_rows: r.total_rows, today: c.today } };
}

export async function listInsights(deps: ToolDeps): Promise<ToolOutcome> {
  const insights = deps.insights.catalog().map((e) => ({ ...e, measures: withUnits(e.measures) }));
  const summary = insights
    .map(
      (e) =>
        `${e.code}: ${e.name} ` +
        `(${e.kind}${e.granularities.length ? `; by ${e.granularities.join(', ')}` : ''}` +
        `${e.filters.length ? `; filters ${e.filters.join(', ')}` : ''}).`,
    )
    .join(' ');
  return { summary, structured: { insights } };
}

const GRANULARITY_TEXT: Record<string, string> = {
  day: 'calendar day (UTC)',
  week: 'ISO week, Monday to Sunday, named by its Monday',
  month: 'calendar month, named by its first day',
  quarter: 'calendar quarter, named by its first day',
  year: 'calendar year, named by 1 January',
};
const COMPARE_TEXT: Record<string, string> = {
  previous_period: 'the window of equal length just before',
  previous_year: 'the same period a year before (ISO week n with week n)',
};
const KIND_TEXT: Record<string, string> = {
  timeseries: 'one row per period of the window, zero-filled',
  breakdown: 'one row per value of a dimension over the window',
  top: 'the best rows of a breakdown, as many as limit',
  kpi: 'one row: the window, the previous window and the change',
};

export async function describeModel(deps: ToolDeps, _auth: AuthContext, _a: Args, c: Context): Promise<ToolOutcome> {
  const filterNames = [...new Set(c.catalog.flatMap((d) => d.filters))];
  const filters = filterNames.map((name) => {
    const takers = c.catalog.filter((d) => d.filters.includes(name));
    const rule = takers[0].filterRules[name];
    const data = c.values[name];
    const values = rule.values ?? (data?.length && data.length <= 50 ? data : undefined);
    return {
      name,
      label: rule.label,
      insights: takers.map((d) => d.code),
      ...(values ? { values: [...values], values_from: rule.values ? 'model' : 'data' } : {}),
      ...(rule.pattern ? { pattern: rule.pattern.source } : {}),
      ...(rule.case ? { case: rule.case } : {}),
    };
  });
  const measures = new Map<string, Column & { description?: string; insights: string[] }>();
  const dimensions = new Map<string, { name: string; label: string; insights: string[] }>();
  // The insights' own measures (a KPI's is its headline measure, not its value/change columns).
  for (const e of c.catalog) {
    for (const m of withUnits(e.measures)) {
      const description = [...deps.insights.model.cubes.values()].map((cube) => cube.measures.get(m.name)?.def.description).find(Boolean);
      const known = measures.get(m.name) ?? { ...m, ...(description ? { description } : {}), insights: [] };
      known.insights.push(e.code);
      measures.set(m.name, known);
    }
    for (const d of e.dimensions) {
      const known = dimensions.get(d.name) ?? { ...d, insights: [] };
      known.insights.push(e.code);
      dimensions.set(d.name, known);
    }
  }
  const structured = {
    today: c.today,
    cubes: deps.queries.describe().cubes,
    granularities: GRANULARITIES.map((name) => ({ name, description: GRANULARITY_TEXT[name] })),
    compare: COMPARES.map((name) => ({ name, description: COMPARE_TEXT[name] })),
    kinds: Object.entries(KIND_TEXT).map(([name, description]) => ({ name, description })),
    filters,
    measures: [...measures.values()],
    dimensions: [...dimensions.values()],
  };
  const filterText = filters
    .map((f) => `${f.name} (${f.values ? f.values.map(asData).join(', ') : f.pattern ? `matching ${f.pattern}` : 'any value'})`)
    .join('; ');
  const measureText = [...measures.values()].map((m) => `${m.label}${m.unit ? ` [${m.unit}]` : ''}`).join(', ');
  return { summary: `Today is ${c.today} (UTC). Filters: ${filterText}. Measures: ${measureText}.`, structured };
}

function dashboardSummary(d: DashboardView) {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    is_shared: d.is_shared,
    created_by: d.created_by,
    created_by_name: d.created_by_name,
    widget_count: d.widget_ids.length,
    updated_at: d.updated_at,
  };
}

export async function listDashboards(deps: ToolDeps, auth: AuthContext, a: Args): Promise<ToolOutcome> {
  const limit = (a.limit as number | undefined) ?? 100;
  const rows = await deps.dashboards.list(auth, { limit, cursor: a.cursor as string | undefined });
  const page = rows.slice(0, limit);
  const dashboards = page.map(dashboardSummary);
  const next = rows.length > limit ? page[page.length - 1].id : null;
  const summary = dashboards.length
    ? `Dashboards you may view, newest first: ` +
      `${dashboards.map((d) => `${asData(d.name)} (id ${d.id}${d.is_shared ? ', shared' : ''})`).join(', ')}` +
      `${next ? '; more with cursor' : ''}.`
    : 'There is no dashboard you may view.';
  return { summary, structured: { dashboards, next_cursor: next } };
}

/** A widget's data as get_dashboard shows it: the widget's hint as drawn, its rows, or why it has none. */
async function widgetData(
  deps: ToolDeps,
  auth: AuthContext,
  dashboard: Awaited<ReturnType<ToolDeps['dashboards']['get']>>,
  w: (typeof dashboard)['widgets'][number],
): Promise<WidgetData> {
  const base = {
    id: w.id,
    title: w.title,
    widget_type: w.widget_type,
    display_size: w.display_size,
    data_source: w.data_source,
    insight_code: w.insight_code,
    granularity: w.granularity,
  };
  try {
    const r = await deps.widgets.execute(auth, dashboard, w);
    const def = w.insight_code ? deps.insights.find(w.insight_code) : undefined;
    // A snapshot's columns are read off its rows; the insight it was taken from knows their labels and units.
    const known = new Map([...(def?.measures ?? []), ...(def?.dimensions ?? [])].map((col) => [col.name, col]));
    const columns = withUnits(
      r.columns.map((col) => (w.data_source === 'snapshot' && known.has(col.name) ? { ...known.get(col.name)! } : col)),
    );
    const override = w.chart_hint_override?.chart_type;
    return {
      ...base,
      chart_hint: override ? { ...r.chart_hint, type: override } : (r.chart_hint as WidgetData['chart_hint']),
      granularity: r.granularity,
      filters: r.filters,
      period: r.period.from ? r.period : null,
      columns,
      rows: r.rows,
      generated_at: r.generated_at,
    };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return {
      ...base,
      chart_hint: w.chart_hint,
      filters: {},
      period: null,
      columns: [],
      rows: [],
      generated_at: null,
      error: { code: err.code, detail: err.detail },
    };
  }
}

export async function getDashboard(deps: ToolDeps, auth: AuthContext, a: Args): Promise<ToolOutcome> {
  const d = await deps.dashboards.get(auth, a.dashboard_id as string).catch(onDashboard);
  const widgets = await Promise.all(d.widgets.map((w) => widgetData(deps, auth, d, w)));
  const dashboard = { ...dashboardSummary(d), active_preset_id: d.active_preset_id };
  const parts = widgets.map((w) => {
    if (w.error) return `Widget ${asData(w.title)}: no data: ${w.error.detail}`;
    const def = w.insight_code ? deps.insights.find(w.insight_code) : undefined;
    const { granularity, filters, columns, rows } = w;
    return summarize(
      { insight_name: `Widget ${asData(w.title)}`, granularity, filters, columns, rows, chart_hint: w.chart_hint ?? { x_axis: '' } },
      def,
    );
  });
  return {
    summary: `Dashboard ${asData(d.name)}: ${parts.length ? parts.join(' ') : 'no widgets yet.'}`,
    structured: { dashboard, widgets },
  };
}

export async function addWidget(deps: ToolDeps, auth: AuthContext, a: Args, c: Context): Promise<ToolOutcome> {
  const dashboardId = a.dashboard_id as string;
  // The same check, in the same words, as POST /api/v1/dashboards/{id}/widgets, before anything runs.
  await deps.dashboards.getEditable(auth, dashboardId, 'add widgets to this dashboard').catch(onDashboard);
  const { result, def } = await execute(deps, auth, a.query as Args, c, 'query.');
  const hint = result.chart_hint;
  const question =
    (a.question as string | undefined) ??
    `${result.insight_name}${result.granularity ? ` by ${result.granularity}` : ''}, ${result.period.from} to ` +
      `${result.period.to}${result.compare ? `, compared with ${COMPARE_TEXT[result.compare]}` : ''}`;
  let widget: Awaited<ReturnType<ToolDeps['widgets']['create']>>;
  try {
    widget = await deps.widgets.create(auth, dashboardId, {
      title: (a.title as string | undefined) ?? hint.title ?? result.insight_name,
      widget_type:
        (a.widget_type as 'chart' | 'table' | 'kpi' | undefined) ??
        (hint.type === 'kpi' ? 'kpi' : hint.type === 'table' ? 'table' : 'chart'),
      display_size: a.display_size as 'small' | 'medium' | 'large' | 'full' | undefined,
      data_source: 'snapshot',
      insight_code: result.insight_code,
      granularity: result.granularity as 'day' | 'week' | 'month' | 'quarter' | 'year' | null,
      snapshot_data: result.rows,
      snapshot_columns: result.columns,
      snapshot_chart_hint: hint,
      snapshot_question: question,
    });
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') onDashboard(err);
    asArguments(err, (field) => field);
  }
  const structured = {
    widget: {
      id: widget.id,
      dashboard_id: widget.dashboard_id,
      title: widget.title,
      widget_type: widget.widget_type,
      display_size: widget.display_size,
      data_source: widget.data_source,
      snapshot_question: widget.snapshot_question,
      created_at: widget.created_at,
    },
    result,
  };
  return { summary: `Added ${asData(widget.title)} to the dashboard as a snapshot. ${summarize(result, def)}`, structured };
}
