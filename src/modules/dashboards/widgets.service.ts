import type { AuthContext } from '../../auth/context.ts';
import type { ChartHint } from '../../lib/chart.schemas.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, conflict, invalidField, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { ExecuteResult, Scope } from '../insights/insights.service.ts';
import type { DashboardRecord } from './dashboards.repository.ts';
import type { DashboardsService } from './dashboards.service.ts';
import { checkQueryWidget, runQueryWidget, type WidgetQueries } from './widget-query.ts';
import {
  checkLiveSource,
  checkSourcePresence,
  executeWidget,
  type WidgetDashboard,
  type WidgetInsights,
  type WidgetOverrides,
  type WidgetSource,
} from './widget-source.ts';
import { StoredRowsAccess } from './stored-rows.ts';
import { toWidgetView } from './widget-view.ts';
import { EDITABLE_FIELDS, type WidgetChanges, type WidgetRecord, type WidgetsRepository } from './widgets.repository.ts';
import type { CreateWidgetInput, PatchWidgetInput, WidgetView } from './widgets.schemas.ts';

/**
 * Checks a live widget's source against the insight catalog: throws an AppError naming the field
 * (invalidField('/body/insight_code', …)) when the code is unknown or the granularity unsupported.
 * Called on create, and on PATCH when the source changes. Defaults to checkLiveSource.
 */
export type LiveSourceValidator = (
  tenantId: string,
  source: { insight_code: string; granularity: string | null; widget_filters: Record<string, unknown> | null },
) => Promise<void>;

export interface WidgetsServiceOptions {
  validateLiveSource?: LiveSourceValidator;
  /** The model's row-level access over stored rows; none without it. */
  storedRows?: StoredRowsAccess;
}

export class WidgetsService {
  private readonly validateLiveSource: LiveSourceValidator;
  private readonly storedRows: StoredRowsAccess;

  constructor(
    private readonly repo: WidgetsRepository,
    private readonly dashboards: DashboardsService,
    private readonly clock: Clock,
    /** The insight engine, through the little the widgets need of it: catalog lookup and execution. */
    private readonly insights: WidgetInsights,
    /** The semantic query engine, for widgets that hold a query. */
    private readonly queries: WidgetQueries,
    options: WidgetsServiceOptions = {},
  ) {
    this.validateLiveSource = options.validateLiveSource ?? (async (_tenantId, source) => checkLiveSource(insights, source));
    this.storedRows = options.storedRows ?? new StoredRowsAccess();
  }

  private view(scope: Scope, w: WidgetRecord): WidgetView {
    return toWidgetView(w, this.storedRows.snapshotFor(scope, w));
  }

  async list(auth: AuthContext, dashboardId: string): Promise<WidgetView[]> {
    await this.dashboards.getViewable(auth, dashboardId);
    return (await this.repo.listForDashboard(auth.tenantId, dashboardId)).map((w) => this.view(auth, w));
  }

  async create(auth: AuthContext, dashboardId: string, input: CreateWidgetInput): Promise<WidgetView> {
    await this.dashboards.getEditable(auth, dashboardId, 'add widgets to this dashboard');
    const now = this.clock.now();
    const snapshotHint = input.snapshot_chart_hint ?? null;
    const record: WidgetRecord = {
      id: newId(),
      tenant_id: auth.tenantId,
      dashboard_id: dashboardId,
      title: input.title,
      widget_type: input.widget_type,
      display_size: input.display_size ?? 'medium',
      data_source: input.data_source,
      insight_code: input.insight_code ?? null,
      query: input.query ?? null,
      granularity: input.granularity ?? null,
      widget_filters: input.widget_filters ?? null,
      ignored_filters: input.ignored_filters ?? null,
      snapshot_data: input.snapshot_data ?? null,
      snapshot_columns: input.snapshot_columns ?? null,
      snapshot_chart_hint: snapshotHint,
      snapshot_question: input.snapshot_question ?? null,
      // A snapshot is drawn as it was captured unless told otherwise; a live hint comes with its first refresh.
      chart_hint: input.chart_hint ?? (input.data_source === 'snapshot' ? snapshotHint : null),
      chart_hint_override: input.chart_hint_override ?? null,
      created_at: now,
      updated_at: now,
      last_refreshed_at: null,
    };
    checkSourcePresence(record);
    if (record.data_source === 'live_insight') await this.checkLive(auth.tenantId, record);
    if (!(await this.repo.insert(record))) throw notFound('Dashboard');
    return this.view(auth, record);
  }

  async update(auth: AuthContext, dashboardId: string, widgetId: string, input: PatchWidgetInput): Promise<WidgetView> {
    await this.dashboards.getEditable(auth, dashboardId, 'change widgets of this dashboard');
    const current = await this.repo.find(auth.tenantId, dashboardId, widgetId);
    if (!current) throw notFound('Widget');
    if (input.data_source !== undefined && input.data_source !== current.data_source) {
      throw invalidField('/body/data_source', `cannot change after creation (it is ${current.data_source})`);
    }
    const changes: WidgetChanges = { updated_at: this.clock.now() };
    for (const key of EDITABLE_FIELDS) {
      if (input[key] !== undefined) (changes as Record<string, unknown>)[key] = input[key];
    }
    const next = { ...current, ...changes };
    checkSourcePresence(next);
    const sourceChanged = ['insight_code', 'query', 'granularity', 'widget_filters'].some((k) => k in changes);
    if (next.data_source === 'live_insight' && sourceChanged) await this.checkLive(auth.tenantId, next);
    const updated = await this.repo.update(auth.tenantId, dashboardId, widgetId, changes);
    if (!updated) throw notFound('Widget');
    return this.view(auth, updated);
  }

  async delete(auth: AuthContext, dashboardId: string, widgetId: string): Promise<void> {
    await this.dashboards.getEditable(auth, dashboardId, 'delete widgets of this dashboard');
    if (!(await this.repo.delete(auth.tenantId, dashboardId, widgetId, this.clock.now()))) throw notFound('Widget');
  }

  /**
   * A widget the caller may write (refresh counts as a write), with its dashboard, for the refresh
   * endpoint: 404 when the dashboard is not viewable or the widget is not on it, 403 when view-only.
   */
  async getEditable(
    auth: AuthContext,
    dashboardId: string,
    widgetId: string,
  ): Promise<{ dashboard: DashboardRecord; widget: WidgetRecord }> {
    const dashboard = await this.dashboards.getEditable(auth, dashboardId, 'refresh widgets of this dashboard');
    const widget = await this.repo.find(auth.tenantId, dashboardId, widgetId);
    if (!widget) throw notFound('Widget');
    return { dashboard, widget };
  }

  /** Records the outcome of a refresh (no caller: workers and the refresh endpoint use it). */
  async recordRefresh(
    tenantId: string,
    dashboardId: string,
    widgetId: string,
    chartHint: ChartHint | null,
    at: Date = this.clock.now(),
  ): Promise<WidgetView | undefined> {
    const updated = await this.repo.update(tenantId, dashboardId, widgetId, {
      chart_hint: chartHint,
      last_refreshed_at: at,
      updated_at: at,
    });
    return updated ? toWidgetView(updated, updated.snapshot_data) : undefined;
  }

  /**
   * A widget's data without an HTTP caller (the refresh and scheduled dashboard reports), with the
   * filter precedence of widget-source.ts. Snapshot widgets return their stored rows and hint.
   */
  /** Runs a widget's insight for `scope`: a caller (attributes and all), or a bare tenant. */
  async execute(scope: Scope, dashboard: WidgetDashboard, widget: WidgetSource, overrides?: WidgetOverrides): Promise<ExecuteResult> {
    if (widget.data_source === 'live_insight' && widget.query)
      return runQueryWidget(this.queries, scope, dashboard, widget, overrides ?? {}, this.clock.now());
    if (widget.data_source !== 'live_insight')
      return executeWidget(this.insights, scope, dashboard, { ...widget, snapshot_data: this.storedRows.rowsFor(scope, widget) });
    return executeWidget(this.insights, scope, dashboard, widget, overrides);
  }

  /**
   * A widget's data for anyone who may view the dashboard, without writing anything (no
   * last_refreshed_at, no chart_hint): what the web app draws. Snapshots return their stored rows.
   */
  async data(auth: AuthContext, dashboardId: string, widgetId: string, overrides: WidgetOverrides): Promise<ExecuteResult> {
    const dashboard = await this.dashboards.getViewable(auth, dashboardId);
    const widget = await this.repo.find(auth.tenantId, dashboardId, widgetId);
    if (!widget) throw notFound('Widget');
    try {
      return await this.execute(auth, dashboard, widget, overrides);
    } catch (err) {
      // The state came as a query: a refused value is named where the caller put it.
      const e = err instanceof AppError ? err.options.errors?.[0] : undefined;
      if (e?.path.startsWith('/body/')) throw invalidField(e.path.replace(/^\/body\/(filters\/)?/, '/query/'), e.message);
      throw err;
    }
  }

  /** Runs a live widget's insight for its editor and records the new chart_hint and last_refreshed_at. */
  async refresh(auth: AuthContext, dashboardId: string, widgetId: string, overrides: WidgetOverrides): Promise<ExecuteResult> {
    const { dashboard, widget } = await this.getEditable(auth, dashboardId, widgetId);
    if (widget.data_source !== 'live_insight') throw conflict('Only live_insight widgets can be refreshed; this one is a snapshot.');
    const data = await this.execute(auth, dashboard, widget, overrides);
    await this.recordRefresh(auth.tenantId, dashboard.id, widget.id, data.chart_hint as never);
    return data;
  }

  private async checkLive(tenantId: string, w: WidgetRecord): Promise<void> {
    if (w.query) return checkQueryWidget(this.queries, { query: w.query, widget_filters: w.widget_filters });
    await this.validateLiveSource(tenantId, {
      insight_code: w.insight_code!,
      granularity: w.granularity,
      widget_filters: w.widget_filters,
    });
  }
}
