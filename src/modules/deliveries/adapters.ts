// Adapts the other modules' services to the narrow ports subscriptions and deliveries use
// (subscriptions/ports.ts): the insight engine, dashboards, and report composition.
import type { Report } from '../../adapters/delivery/types.ts';
import { invalidField } from '../../lib/errors.ts';
import { GRANULARITIES } from '../../lib/chart.schemas.ts';
import type { DashboardsService } from '../dashboards/dashboards.service.ts';
import type { ExecuteResult, InsightsService } from '../insights/insights.service.ts';
import type { InsightCatalog } from '../subscriptions/insight-subscriptions.service.ts';
import type {
  DashboardAccess,
  DashboardReports,
  DashboardSubscriptionRecord,
  InsightRunner,
  InsightSubscriptionRecord,
} from '../subscriptions/ports.ts';

export interface ReportComposers {
  insight(args: { subscription: InsightSubscriptionRecord & { insight_name: string }; result: ExecuteResult }): Report;
  dashboard(args: {
    subscription: DashboardSubscriptionRecord & { dashboard_name: string };
    dashboard: Awaited<ReturnType<DashboardsService['getForSystem']>>;
    widgets: { widget: Awaited<ReturnType<DashboardsService['getForSystem']>>['widgets'][number]; result: ExecuteResult }[];
  }): Report;
}

/**
 * Insights without a time axis (breakdowns, KPIs) take no granularity, yet the seed requires one
 * on a subscription: any granularity is accepted for them and not passed on.
 */
function paramsFor(insights: InsightsService, code: string, p: { granularity: string; country?: string | null }) {
  const def = insights.find(code);
  return {
    ...(def && def.granularities.length ? { granularity: p.granularity } : {}),
    ...(p.country ? { country: p.country } : {}),
  };
}

export function insightsPort(insights: InsightsService, compose: ReportComposers): InsightRunner & InsightCatalog {
  return {
    find(code) {
      const def = insights.find(code);
      return def && { code: def.code, name: def.name, granularities: def.granularities.length ? def.granularities : GRANULARITIES };
    },
    check(tenantId, code, p) {
      if (!(GRANULARITIES as readonly string[]).includes(p.granularity)) {
        throw invalidField('/body/granularity', `must be one of: ${GRANULARITIES.join(', ')}`);
      }
      insights.resolve(tenantId, code, paramsFor(insights, code, p), 'body');
    },
    async report(subscription, insightName) {
      const result = await insights.execute(subscription.tenant_id, subscription.insight_code, paramsFor(insights, subscription.insight_code, subscription));
      return compose.insight({ subscription: { ...subscription, insight_name: insightName }, result });
    },
  };
}

export function dashboardsPort(dashboards: DashboardsService, insights: InsightsService, compose: ReportComposers): DashboardAccess & DashboardReports {
  return {
    getEditable: (auth, id, action) => dashboards.getEditable(auth, id, action),
    async report(subscription) {
      const dashboard = await dashboards.findForSystem(subscription.tenant_id, subscription.dashboard_id);
      if (!dashboard) return undefined;
      // Widgets run side by side: the report is as slow as its slowest widget, not their sum.
      const widgets = await Promise.all(
        dashboard.widgets.map(async (widget) => ({
          widget,
          result: await insights.executeWidget(subscription.tenant_id, dashboard, widget as never),
        })),
      );
      return compose.dashboard({ subscription: { ...subscription, dashboard_name: dashboard.name }, dashboard, widgets });
    },
  };
}
