// What an embed token may do (docs/embedding.md "What an embed token can call"): read its one
// dashboard and its live widgets' data, list a widget's filter values, and ask chat — always as
// its viewer (the key's tenant, the token's attributes), with its locked filters on every query.
import type { AuthContext } from '../../auth/context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { ChatService } from '../chat/chat.service.ts';
import type { DashboardDetail, DashboardsService } from '../dashboards/dashboards.service.ts';
import type { WidgetsService } from '../dashboards/widgets.service.ts';
import type { ExecuteResult, InsightsService } from '../insights/insights.service.ts';
import type { FilterValues } from '../mcp/filter-values.ts';
import type { EmbedViewer } from './embed-tokens.ts';
import type { EmbeddedDashboard } from './embed.schemas.ts';

const WINDOW_PARAMS = ['granularity', 'date_from', 'date_to'];

/**
 * A value or a list as a comparable text: `DE`, `["DE"]` and `[DE]` from a query string are one
 * choice, in any case (`de` too: the locked value is what is applied).
 */
const sameValues = (v: unknown) => JSON.stringify((Array.isArray(v) ? v : [v]).map((x) => String(x).toLowerCase()).sort());

/** Refused because the token is for something else: the same answer whatever exists. */
const otherResource = () => new AppError('FORBIDDEN', 'This embed token is for another resource.');

export class EmbedService {
  constructor(
    private readonly dashboards: Pick<DashboardsService, 'findForSystem'>,
    private readonly widgets: Pick<WidgetsService, 'execute'>,
    private readonly insights: Pick<InsightsService, 'find'>,
    private readonly chat: Pick<ChatService, 'ask'>,
    private readonly values: Pick<FilterValues, 'of'>,
  ) {}

  /** The viewer as the services know callers: a member of the key's tenant with the token's attributes. */
  static asCaller(v: EmbedViewer): AuthContext {
    // Prefixed, so an embedded viewer never shares chat history or limits with a real user of the same id.
    return {
      tenantId: v.tenantId,
      userId: `embed|${v.viewer}`,
      name: v.viewer,
      email: null,
      role: 'member',
      ...(v.attributes ? { attributes: v.attributes } : {}),
    };
  }

  private async dashboardOf(v: EmbedViewer, id: string): Promise<DashboardDetail> {
    if (v.resource.kind !== 'dashboard' || v.resource.id !== id) throw otherResource();
    const d = await this.dashboards.findForSystem(v.tenantId, id);
    if (!d) throw notFound('Dashboard');
    return d;
  }

  async dashboard(v: EmbedViewer, id: string): Promise<EmbeddedDashboard> {
    const d = await this.dashboardOf(v, id);
    return {
      id: d.id,
      name: d.name,
      description: d.description ?? null,
      locked_filters: { ...v.filters },
      widgets: d.widgets
        .filter((w) => w.data_source === 'live_insight' && w.insight_code && this.insights.find(w.insight_code))
        .map((w) => ({
          id: w.id,
          title: w.title,
          widget_type: w.widget_type,
          display_size: w.display_size,
          insight_code: w.insight_code!,
          granularity: w.granularity ?? null,
          filters: this.insights.find(w.insight_code!)!.filters.filter((f) => !(f in v.filters)),
          chart_hint_override: w.chart_hint_override ?? null,
        })),
    };
  }

  /**
   * A live widget's data for the viewer: the viewer's choices (query string or body), then the
   * locked filters over them. A choice that differs from a locked value is refused, and so is a
   * widget whose insight cannot apply a locked filter: showing it unfiltered would show more than
   * the token allows.
   */
  async widgetData(v: EmbedViewer, dashboardId: string, widgetId: string, choices: Record<string, unknown>): Promise<ExecuteResult> {
    const d = await this.dashboardOf(v, dashboardId);
    const w = d.widgets.find((x) => x.id === widgetId);
    if (!w) throw notFound('Widget');
    if (w.data_source !== 'live_insight')
      throw new AppError(
        'FORBIDDEN',
        'Snapshot widgets are not served to embedded dashboards: their rows were fixed for whoever saved them.',
      );
    const def = this.insights.find(w.insight_code ?? '');
    for (const [name, locked] of Object.entries(v.filters)) {
      const given = choices[name];
      if (given !== undefined && sameValues(given) !== sameValues(locked)) {
        throw new AppError('FORBIDDEN', `The filter ${name} is locked by the embed token and cannot be changed.`, {
          errors: [{ path: `/query/${name}`, message: 'locked by the embed token' }],
        });
      }
      if (def && !def.filters.includes(name) && !WINDOW_PARAMS.includes(name)) {
        throw new AppError('FORBIDDEN', `The widget's insight ${def.code} cannot apply the locked filter ${name}, so it is not shown.`);
      }
    }
    const merged: Record<string, unknown> = { ...choices, ...v.filters };
    const { granularity, ...filters } = merged;
    return this.widgets.execute(EmbedService.asCaller(v), d, w as never, {
      ...(typeof granularity === 'string' ? { granularity } : {}),
      filters,
    });
  }

  /**
   * The values a viewer may pick for each filter the dashboard's widgets take and the token does
   * not lock: read as the viewer, so row-level access narrows them like everything else.
   */
  async filterValues(v: EmbedViewer, dashboardId: string): Promise<Record<string, string[]>> {
    const d = await this.dashboard(v, dashboardId);
    const open = new Set(d.widgets.flatMap((w) => w.filters));
    const all = await this.values.of(EmbedService.asCaller(v));
    return Object.fromEntries(Object.entries(all).filter(([name]) => open.has(name)));
  }

  async ask(v: EmbedViewer, input: { message: string; history_id?: string }) {
    if (v.resource.kind !== 'chat') throw otherResource();
    return this.chat.ask(EmbedService.asCaller(v), input);
  }
}
