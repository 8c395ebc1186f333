// A dashboard as the PDF its scheduled reports attach, on demand for a caller who may view it: the
// same composition (compose.ts) and the same renderer (src/adapters/charts/pdf.ts). Optionally under
// one filter state for the whole dashboard (the web app's filter bar), instead of its default view.
import type { AuthContext } from '../../auth/context.ts';
import { slug } from '../../adapters/delivery/format.ts';
import type { Clock } from '../../lib/clock.ts';
import type { DashboardsService } from '../dashboards/dashboards.service.ts';
import type { WidgetsService } from '../dashboards/widgets.service.ts';
import { composeDashboardReport } from './compose.ts';

export interface DashboardPdf {
  filename: string;
  content: Buffer;
}

export class DashboardPdfService {
  constructor(
    private readonly dashboards: Pick<DashboardsService, 'get'>,
    private readonly widgets: Pick<WidgetsService, 'execute'>,
    private readonly clock: Clock,
  ) {}

  /** 404 when the caller may not view the dashboard; `filters` (when given) replace its active preset. */
  async render(auth: AuthContext, id: string, filters?: Record<string, unknown>): Promise<DashboardPdf> {
    const dashboard = await this.dashboards.get(auth, id);
    const overrides = filters && Object.keys(filters).length ? { preset_id: null, filters, dashboard_wide: true } : undefined;
    const widgets = await Promise.all(
      dashboard.widgets.map(async (widget) => {
        try {
          return { widget, result: await this.widgets.execute(auth, dashboard, widget, overrides) };
        } catch (err) {
          // A widget that cannot be computed says why on its page, as in a scheduled report.
          if ((err as { status?: number }).status === undefined || (err as { status: number }).status >= 500) throw err;
          return { widget, error: (err as Error).message };
        }
      }),
    );
    const report = composeDashboardReport({
      subscription: { id: '', schedule: '', dashboard_id: dashboard.id, dashboard_name: dashboard.name },
      dashboard,
      widgets,
    });
    report.title = dashboard.name;
    // Loaded on first use, as for reports: pdfkit and its fonts cost CPU at start.
    const { renderDashboardPdf } = await import('../../adapters/charts/pdf.ts');
    return { filename: `${slug(dashboard.name) || 'dashboard'}.pdf`, content: await renderDashboardPdf(report, this.clock.now()) };
  }
}
