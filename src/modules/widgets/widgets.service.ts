import type { AuthContext } from '../../auth/context.ts';
import type { ChartHint } from '../../lib/chart.schemas.ts';
import type { Clock } from '../../lib/clock.ts';
import { invalidField, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { DashboardRecord } from '../dashboards/dashboards.repository.ts';
import type { DashboardsService } from '../dashboards/dashboards.service.ts';
import type { WidgetChanges, WidgetRecord, WidgetsRepository } from './widgets.repository.ts';
import type { CreateWidgetInput, PatchWidgetInput, WidgetView } from './widgets.schemas.ts';

/**
 * Checks a live widget's source against the insight catalog (owned by the insight engine): throws
 * an AppError naming the field (invalidField('/body/insight_code', …)) when the code is unknown or
 * the granularity unsupported. Called on create, and on PATCH when either field changes.
 */
export type LiveSourceValidator = (
  tenantId: string,
  source: { insight_code: string; granularity: string | null; widget_filters: Record<string, unknown> | null },
) => Promise<void>;

export interface WidgetsServiceOptions {
  validateLiveSource?: LiveSourceValidator;
}

export function toWidgetView(w: WidgetRecord): WidgetView {
  return {
    id: w.id,
    dashboard_id: w.dashboard_id,
    title: w.title,
    widget_type: w.widget_type,
    display_size: w.display_size,
    data_source: w.data_source,
    insight_code: w.insight_code,
    granularity: w.granularity,
    widget_filters: w.widget_filters,
    snapshot_data: w.snapshot_data,
    snapshot_chart_hint: w.snapshot_chart_hint,
    snapshot_question: w.snapshot_question,
    chart_hint: w.chart_hint,
    chart_hint_override: w.chart_hint_override,
    created_at: w.created_at.toISOString(),
    last_refreshed_at: w.last_refreshed_at ? w.last_refreshed_at.toISOString() : null,
  };
}

/** The data-source rules that must hold for a widget after any write. */
function checkSource(w: Pick<WidgetRecord, 'data_source' | 'insight_code' | 'snapshot_data'>): void {
  if (w.data_source === 'live_insight') {
    if (!w.insight_code) throw invalidField('/body/insight_code', 'is required for a live_insight widget');
    if (w.snapshot_data !== null) throw invalidField('/body/snapshot_data', 'is only for snapshot widgets');
  } else if (w.snapshot_data === null) {
    throw invalidField('/body/snapshot_data', 'is required for a snapshot widget');
  }
}

export class WidgetsService {
  private readonly validateLiveSource?: LiveSourceValidator;

  constructor(
    private readonly repo: WidgetsRepository,
    private readonly dashboards: DashboardsService,
    private readonly clock: Clock,
    options: WidgetsServiceOptions = {},
  ) {
    this.validateLiveSource = options.validateLiveSource;
  }

  async list(auth: AuthContext, dashboardId: string): Promise<WidgetView[]> {
    await this.dashboards.getViewable(auth, dashboardId);
    return (await this.repo.listForDashboard(auth.tenantId, dashboardId)).map(toWidgetView);
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
      granularity: input.granularity ?? null,
      widget_filters: input.widget_filters ?? null,
      snapshot_data: input.snapshot_data ?? null,
      snapshot_chart_hint: snapshotHint,
      snapshot_question: input.snapshot_question ?? null,
      // A snapshot is drawn as it was captured unless told otherwise; a live hint comes with its first refresh.
      chart_hint: input.chart_hint ?? (input.data_source === 'snapshot' ? snapshotHint : null),
      chart_hint_override: input.chart_hint_override ?? null,
      created_at: now,
      updated_at: now,
      last_refreshed_at: null,
    };
    checkSource(record);
    if (record.data_source === 'live_insight') await this.checkLive(auth.tenantId, record);
    if (!(await this.repo.insert(record))) throw notFound('Dashboard');
    return toWidgetView(record);
  }

  async update(auth: AuthContext, dashboardId: string, widgetId: string, input: PatchWidgetInput): Promise<WidgetView> {
    await this.dashboards.getEditable(auth, dashboardId, 'change widgets of this dashboard');
    const current = await this.repo.find(auth.tenantId, dashboardId, widgetId);
    if (!current) throw notFound('Widget');
    if (input.data_source !== undefined && input.data_source !== current.data_source) {
      throw invalidField('/body/data_source', `cannot change after creation (it is ${current.data_source})`);
    }
    const changes: WidgetChanges = { updated_at: this.clock.now() };
    const keys = [
      'title', 'widget_type', 'display_size', 'insight_code', 'granularity', 'widget_filters', 'snapshot_data',
      'snapshot_chart_hint', 'snapshot_question', 'chart_hint', 'chart_hint_override',
    ] as const;
    for (const key of keys) {
      if (input[key] !== undefined) (changes as Record<string, unknown>)[key] = input[key];
    }
    const next = { ...current, ...changes };
    checkSource(next);
    const sourceChanged = ['insight_code', 'granularity', 'widget_filters'].some((k) => k in changes);
    if (next.data_source === 'live_insight' && sourceChanged) await this.checkLive(auth.tenantId, next);
    const updated = await this.repo.update(auth.tenantId, dashboardId, widgetId, changes);
    if (!updated) throw notFound('Widget');
    return toWidgetView(updated);
  }

  async delete(auth: AuthContext, dashboardId: string, widgetId: string): Promise<void> {
    await this.dashboards.getEditable(auth, dashboardId, 'delete widgets of this dashboard');
    if (!(await this.repo.delete(auth.tenantId, dashboardId, widgetId, this.clock.now()))) throw notFound('Widget');
  }

  /**
   * A widget the caller may write (refresh counts as a write), with its dashboard, for the refresh
   * endpoint: 404 when the dashboard is not viewable or the widget is not on it, 403 when view-only.
   */
  async getEditable(auth: AuthContext, dashboardId: string, widgetId: string): Promise<{ dashboard: DashboardRecord; widget: WidgetRecord }> {
    const dashboard = await this.dashboards.getEditable(auth, dashboardId, 'refresh widgets of this dashboard');
    const widget = await this.repo.find(auth.tenantId, dashboardId, widgetId);
    if (!widget) throw notFound('Widget');
    return { dashboard, widget };
  }

  /** Records the outcome of a refresh (no caller: workers and the refresh endpoint use it). */
  async recordRefresh(tenantId: string, dashboardId: string, widgetId: string, chartHint: ChartHint | null, at: Date = this.clock.now()): Promise<WidgetView | undefined> {
    const updated = await this.repo.update(tenantId, dashboardId, widgetId, { chart_hint: chartHint, last_refreshed_at: at, updated_at: at });
    return updated ? toWidgetView(updated) : undefined;
  }

  private async checkLive(tenantId: string, w: WidgetRecord): Promise<void> {
    if (!this.validateLiveSource) return;
    await this.validateLiveSource(tenantId, { insight_code: w.insight_code!, granularity: w.granularity, widget_filters: w.widget_filters });
  }
}
