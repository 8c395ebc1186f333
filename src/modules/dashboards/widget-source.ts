// Every rule about where a widget's data comes from, in one place: which fields a source needs
// (presence), whether a live source fits the insight catalog, the filter precedence (later wins:
// insight defaults < the dashboard's active preset < the widget's granularity and widget_filters <
// the refresh body, docs/insights.md), and a widget's data without an HTTP caller (the refresh and
// scheduled dashboard reports). The insight engine is seen through WidgetInsights only.
import { type ChartHint, RELATIVE_RANGES, type RelativeRange } from '../../lib/chart.schemas.ts';
import { AppError, insightNotInModel, invalidField } from '../../lib/errors.ts';
import { relativeWindow } from '../../semantic/periods.ts';
import type { SemanticQuery } from '../../semantic/query/query.schema.ts';
import type { Cell, ExecuteParams, ExecuteResult, InsightDefinition, InsightsService, Scope } from '../insights/insights.service.ts';

/** What widgets need of the insight engine: the catalog, parameter checks, execution. */
export type WidgetInsights = Pick<InsightsService, 'find' | 'resolve' | 'run' | 'today'>;

/** The parts of a dashboard the engine reads. */
export interface WidgetDashboard {
  global_filter_presets?: { id: string; filters?: Record<string, unknown> | null }[] | null;
  active_preset_id?: string | null;
}

/** The parts of a widget the engine reads. */
export interface WidgetSource {
  title?: string;
  data_source: string;
  insight_code?: string | null;
  query?: SemanticQuery | null;
  granularity?: string | null;
  widget_filters?: Record<string, unknown> | null;
  ignored_filters?: string[] | null;
  snapshot_data?: Record<string, Cell>[] | null;
  snapshot_columns?: ExecuteResult['columns'] | null;
  snapshot_chart_hint?: ChartHint | null;
  chart_hint?: ChartHint | null;
  created_at?: string | Date;
  last_refreshed_at?: string | Date | null;
}

export interface WidgetOverrides {
  granularity?: string | null;
  filters?: Record<string, unknown> | null;
  /** Given (null included): this preset instead of the dashboard's active one; null for none. */
  preset_id?: string | null;
  /**
   * The filters are the dashboard's (one state for every widget, as a PDF of a filtered dashboard
   * is asked for): what the insight does not take or the widget opts out of is skipped, not a 400.
   */
  dashboard_wide?: boolean;
}

type Key = string;

/**
 * The parameters an insight takes from a preset, a widget or a refresh: its filters (a value or a list), dates or a
 * relative range, limit, compare.
 */
function parametersFor(def: InsightDefinition): Set<string> {
  return new Set([
    ...(def.granularities.length ? ['granularity'] : []),
    ...def.filters,
    'date_from',
    'date_to',
    'range',
    ...(def.limit ? ['limit'] : []),
    'compare',
  ]);
}

/**
 * A level's relative range (`range: last_month`) as the dates it means today, so that a later level's
 * dates beat an earlier level's range and a later range beats earlier dates, as any other parameter.
 */
export function withDates<T extends Record<string, unknown>>(level: T, today: string, where: string): T {
  if (level.range === undefined) return level;
  const { range, ...rest } = level;
  if (!(RELATIVE_RANGES as readonly unknown[]).includes(range))
    throw invalidField(`${where}/range`, `must be one of: ${RELATIVE_RANGES.join(', ')}`);
  const w = relativeWindow(range as RelativeRange, today);
  return { date_from: w.from, date_to: w.to, ...rest } as unknown as T;
}

function pickKnown(source: Record<string, unknown> | null | undefined): Partial<Record<Key, unknown>> {
  const out: Partial<Record<Key, unknown>> = {};
  for (const [k, v] of Object.entries(source ?? {})) if (v !== undefined && v !== null) out[k] = v;
  return out;
}

/** 400 naming `${where}/${k}` for a key that is no parameter of the insight. */
function checkKeys(def: InsightDefinition, given: Record<string, unknown>, where: string): void {
  const accepted = parametersFor(def);
  accepted.delete('granularity');
  for (const k of Object.keys(given)) {
    if (!accepted.has(k))
      throw invalidField(`${where}/${k}`, `is not a parameter of insight ${def.code} (it takes: ${[...accepted].join(', ')})`);
  }
}

/** The fields each kind of source needs; must hold for a widget after any write. */
export function checkSourcePresence(w: {
  data_source: string;
  insight_code: string | null;
  query?: SemanticQuery | null;
  snapshot_data: unknown;
}): void {
  if (w.data_source === 'live_insight') {
    if (w.insight_code && w.query) throw invalidField('/body/query', 'a live widget runs an insight_code or a query, not both');
    if (!w.insight_code && !w.query) throw invalidField('/body/insight_code', 'is required for a live_insight widget (or a query)');
    if (w.snapshot_data !== null) throw invalidField('/body/snapshot_data', 'is only for snapshot widgets');
  } else if (w.snapshot_data === null) {
    throw invalidField('/body/snapshot_data', 'is required for a snapshot widget');
  } else if (w.query) {
    throw invalidField('/body/query', 'is only for live_insight widgets');
  }
}

/**
 * Checks a live widget's insight_code, granularity and widget_filters against the catalog
 * (widget create and PATCH). Errors name the body field.
 */
export function checkLiveSource(
  insights: WidgetInsights,
  w: { insight_code?: string | null; granularity?: string | null; widget_filters?: Record<string, unknown> | null },
): void {
  if (!w.insight_code) throw invalidField('/body/insight_code', 'is required for a live_insight widget');
  const def = insights.find(w.insight_code);
  if (!def) throw invalidField('/body/insight_code', `"${w.insight_code}" is not an insight of the catalog`);
  if (w.granularity !== undefined && w.granularity !== null && !def.granularities.includes(w.granularity as never)) {
    throw invalidField(
      '/body/granularity',
      def.granularities.length ? `must be one of: ${def.granularities.join(', ')}` : `insight ${def.code} takes no granularity`,
    );
  }
  const filters = w.widget_filters ?? {};
  checkKeys(def, filters, '/body/widget_filters');
  checkValues(insights, def, filters, w.granularity ?? null, '/body/widget_filters', '/body/granularity');
}

/**
 * Checks filter values the way execute checks them, for insight `def`, reporting a refused one
 * under `where` (`/body/widget_filters/country`); `granularityAt` names a granularity kept apart.
 */
function checkValues(
  insights: Pick<WidgetInsights, 'resolve' | 'today'>,
  def: InsightDefinition,
  filters: Record<string, unknown>,
  granularity: string | null,
  where: string,
  granularityAt = `${where}/granularity`,
): void {
  try {
    const dated = withDates(pickKnown(filters), insights.today(), where);
    insights.resolve('-', def.code, toParams({ ...dated, granularity: granularity ?? undefined }), where.slice(1));
  } catch (err) {
    if (err instanceof AppError && err.options.errors) {
      const e = err.options.errors[0];
      throw invalidField(e.path.replace(`${where}/granularity`, granularityAt), e.message);
    }
    throw err;
  }
}

/** What a dashboard preset's check needs of the insight engine. */
export type PresetInsights = Pick<InsightsService, 'catalog' | 'find' | 'resolve' | 'today'>;

const PRESET_OWN_KEYS = new Set(['compare', 'range', 'date_from', 'date_to', 'granularity']);

/**
 * Checks a dashboard preset's filter dimensions against the model (any filter of any insight), and
 * each dimension's values as an insight that takes it checks them (the widget_filters check), under
 * `where` (`/body/global_filter_presets/0/filters`). Dates, range, compare and granularity are the
 * schema's.
 */
export function checkPresetFilters(insights: PresetInsights, filters: Record<string, unknown>, where: string): void {
  const catalog = insights.catalog();
  for (const [k, v] of Object.entries(filters)) {
    if (PRESET_OWN_KEYS.has(k) || v === undefined || v === null) continue;
    const entry = catalog.find((e) => e.filters.includes(k));
    const def = entry && insights.find(entry.code);
    if (!def) {
      const known = [...new Set(catalog.flatMap((e) => e.filters))];
      throw invalidField(`${where}/${k}`, `is not a filter of the model (its filters: ${known.join(', ') || 'none'})`);
    }
    checkValues(insights, def, { [k]: v }, null, where);
  }
}

function toParams(v: Partial<Record<Key, unknown>>): ExecuteParams {
  const p: ExecuteParams = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined || x === null) continue;
    if (k === 'limit') p.limit = typeof x === 'number' ? x : Number(x);
    // A filter may hold several values (any of them), as on execute.
    else if (Array.isArray(x)) p[k] = x.map(String);
    else p[k] = String(x);
  }
  return p;
}

function snapshotResult(insights: WidgetInsights, w: WidgetSource): ExecuteResult {
  const rows = w.snapshot_data ?? [];
  const first = rows[0] ?? {};
  // The answer's columns as it had them; a snapshot saved without them is read from its first row.
  const columns = w.snapshot_columns?.length
    ? w.snapshot_columns.map((c) => ({ ...c }))
    : Object.keys(first).map((name) => ({
        name,
        type: typeof first[name] === 'number' ? 'number' : typeof first[name] === 'boolean' ? 'boolean' : 'string',
        label: name,
      }));
  const hint = w.snapshot_chart_hint ?? w.chart_hint ?? { type: 'table', x_axis: columns[0]?.name ?? '' };
  const def = w.insight_code ? insights.find(w.insight_code) : undefined;
  const when = w.last_refreshed_at ?? w.created_at ?? new Date(0);
  const at = when instanceof Date ? when.toISOString() : when;
  return {
    insight_code: w.insight_code ?? '',
    insight_name: def?.name ?? w.title ?? '',
    granularity: w.granularity ?? null,
    filters: {},
    period: { from: '', to: '' },
    columns,
    rows,
    chart_hint: hint,
    row_count: rows.length,
    generated_at: at,
    cached: true,
  };
}

/**
 * The parameters a live widget runs with (pure): insight defaults < the dashboard's active preset <
 * the widget < the overrides, later wins. What the insight does not take is skipped from the preset
 * and the widget (a preset applies to widgets of many insights); an override that is no filter is
 * a 400 naming /body/filters/<name>.
 */
export function widgetParams(
  def: InsightDefinition,
  dashboard: WidgetDashboard,
  widget: WidgetSource,
  overrides: WidgetOverrides = {},
  today = new Date().toISOString().slice(0, 10),
): ExecuteParams {
  const accepted = parametersFor(def);
  // The web app's filter bar holds a whole state (a preset's filters edited or cleared): it names the preset itself.
  const presetId = overrides.preset_id !== undefined ? overrides.preset_id : dashboard.active_preset_id;
  const preset = presetId ? (dashboard.global_filter_presets ?? []).find((p) => p.id === presetId) : undefined;
  if (overrides.preset_id && !preset) throw invalidField('/body/preset_id', 'is not a filter preset of this dashboard');
  // A dashboard preset applies to widgets of many insights: what an insight does not take is skipped.
  // A widget may opt out of dashboard filters by dimension (`date` stands for the dates and the range).
  const ignored = new Set(widget.ignored_filters ?? []);
  const optedOut = (k: string) => ignored.has(k) || (ignored.has('date') && (k === 'date_from' || k === 'date_to' || k === 'range'));
  const fromPreset = Object.fromEntries(Object.entries(pickKnown(preset?.filters)).filter(([k]) => accepted.has(k) && !optedOut(k)));
  const fromWidget = Object.fromEntries(
    Object.entries({ ...pickKnown(widget.widget_filters), ...(widget.granularity ? { granularity: widget.granularity } : {}) }).filter(
      ([k]) => accepted.has(k),
    ),
  );
  const body: Partial<Record<Key, unknown>> = {};
  if (!overrides.dashboard_wide) checkKeys(def, overrides.filters ?? {}, '/body/filters');
  for (const [k, v] of Object.entries(overrides.filters ?? {})) {
    if (v === null || v === undefined) continue;
    if (overrides.dashboard_wide && (!accepted.has(k) || optedOut(k))) continue;
    body[k] = v;
  }
  if (overrides.granularity) body.granularity = overrides.granularity;
  return toParams({
    ...withDates(fromPreset, today, '/body/global_filter_presets'),
    ...withDates(fromWidget, today, '/body/widget_filters'),
    ...withDates(body, today, '/body/filters'),
  });
}

export async function executeWidget(
  insights: WidgetInsights,
  scope: Scope,
  dashboard: WidgetDashboard,
  widget: WidgetSource,
  overrides: WidgetOverrides = {},
): Promise<ExecuteResult> {
  if (widget.data_source !== 'live_insight') return snapshotResult(insights, widget);
  const def = insights.find(widget.insight_code ?? '');
  if (!def) throw insightNotInModel(widget.insight_code ?? '', 'The widget');
  const merged = widgetParams(def, dashboard, widget, overrides, insights.today());
  try {
    return await insights.run(def, insights.resolve(scope, def.code, merged, 'body/filters'));
  } catch (err) {
    const e = err instanceof AppError ? err.options.errors?.[0] : undefined;
    if (e?.path === '/body/filters/granularity') throw invalidField('/body/granularity', e.message);
    throw err;
  }
}
