// What a subscription's report is made of: the insight engine and dashboards, adapted to the
// narrow ports subscriptions and deliveries use (subscriptions/ports.ts) and composed into Reports.
import { composeDashboardReport, composeInsightReport } from './compose.ts';
import { slug } from '../../adapters/delivery/format.ts';
import type { Report, ReportAttachment } from '../../lib/report.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, invalidField } from '../../lib/errors.ts';
import { GRANULARITIES } from '../../lib/chart.schemas.ts';
import type { DashboardsService } from '../dashboards/dashboards.service.ts';
import type { WidgetsService } from '../dashboards/widgets.service.ts';
import type { ExecuteParams, ExecuteResult, InsightsService, Scope } from '../insights/insights.service.ts';
import type { InsightCatalog, InsightParams } from '../subscriptions/insight-subscriptions.service.ts';
import type { DashboardAccess, DashboardReports, InsightRunner } from '../subscriptions/ports.ts';
import type { AlertShape } from '../subscriptions/alert-condition.ts';

/** A report is computed as its subscriber: their tenant and the attributes they had when subscribing. */
function asSubscriber(s: { tenant_id: string; subscriber_attributes?: Record<string, string[]> | null }): Scope {
  return s.subscriber_attributes ? { tenantId: s.tenant_id, attributes: s.subscriber_attributes } : s.tenant_id;
}

/**
 * Insights without a time axis (breakdowns, KPIs) take no granularity, yet the API contract (docs/product.md §1) requires one
 * on a subscription: any granularity is accepted for them and not passed on.
 */
function paramsFor(insights: InsightsService, code: string, p: InsightParams): ExecuteParams {
  const def = insights.find(code);
  return {
    ...(def?.granularities.length ? { granularity: p.granularity } : {}),
    ...(p.country ? { country: p.country } : {}),
    ...(p.filters ?? {}),
    ...(p.compare ? { compare: p.compare } : {}),
  };
}

/**
 * Per measure of a breakdown with one dimension: a daily time series of the very same measure
 * (the same model member) that filters by that dimension and takes every filter the breakdown
 * takes — where an anomaly alert reads each value's history. None when the model has no such
 * series: the alert is then refused, never read off another measure.
 */
function dailyHistories(insights: InsightsService, code: string): Record<string, { code: string; filter: string }> {
  const b = insights.find(code);
  const out: Record<string, { code: string; filter: string }> = {};
  if (b?.dimensions.length !== 1 || !b.dimensions[0].ref) return out;
  const dim = b.dimensions[0].ref;
  for (const entry of insights.catalog()) {
    const t = insights.find(entry.code);
    if (t?.kind !== 'timeseries' || !t.granularities.includes('day')) continue;
    const filter = Object.entries(t.filterRefs).find(([, ref]) => ref === dim)?.[0];
    if (!filter) continue;
    if (!b.filters.every((f) => t.filterRefs[f] !== undefined && t.filterRefs[f] === b.filterRefs[f])) continue;
    for (const m of b.measures) {
      if (out[m.name] || !m.ref) continue;
      if (t.measures.some((tm) => tm.ref === m.ref)) out[m.name] = { code: t.code, filter };
    }
  }
  return out;
}

export function insightsPort(insights: InsightsService): InsightRunner & InsightCatalog {
  // Many subscriptions of one slot ask for the same result at once: run it once, the others wait
  // for it (the engine's cache serves them once it is stored).
  const running = new Map<string, Promise<ExecuteResult>>();
  const execute = (scope: Scope, code: string, params: ExecuteParams) => {
    const key = JSON.stringify([scope, code, params]);
    let p = running.get(key);
    if (!p) {
      p = insights.execute(scope, code, params).finally(() => running.delete(key));
      running.set(key, p);
    }
    return p;
  };
  const shapes = new Map<string, AlertShape>(
    insights.catalog().map((e) => [
      e.code,
      {
        kind: e.kind,
        measures: e.measures.map((m) => m.name),
        defaultMeasure: e.chart_hint.y_axis?.find((y) => e.measures.some((m) => m.name === y)),
        granularities: e.granularities,
        ...(e.kind === 'breakdown' || e.kind === 'top' ? { history: dailyHistories(insights, e.code) } : {}),
      },
    ]),
  );
  return {
    alertShape: (code) => shapes.get(code),
    find(code) {
      const def = insights.find(code);
      return def && { code: def.code, name: def.name, granularities: def.granularities.length ? def.granularities : GRANULARITIES };
    },
    check(tenantId, code, p) {
      if (!(GRANULARITIES as readonly string[]).includes(p.granularity)) {
        throw invalidField('/body/granularity', `must be one of: ${GRANULARITIES.join(', ')}`);
      }
      try {
        insights.resolve(tenantId, code, paramsFor(insights, code, p), 'body');
      } catch (err) {
        // A filter given in `filters` is named there.
        const e = err instanceof AppError ? err.options.errors?.[0] : undefined;
        const name = e?.path.replace(/^\/body\//, '');
        if (e && name && p.filters && name in p.filters) throw invalidField(`/body/filters/${name}`, e.message);
        throw err;
      }
    },
    run: (subscription, extra = {}) =>
      execute(asSubscriber(subscription), subscription.insight_code, {
        ...paramsFor(insights, subscription.insight_code, subscription),
        ...extra,
      }),
    runOther: (subscription, code, params) => execute(asSubscriber(subscription), code, params),
    compose: (subscription, insightName, result, alert) =>
      composeInsightReport({ subscription: { ...subscription, insight_name: insightName }, result: result as ExecuteResult, alert }),
  };
}

/** The report's PDF, made once on first use and shared by every channel the report goes to. */
function attachPdf(report: Report, name: string, clock: Clock): void {
  let made: Promise<ReportAttachment> | undefined;
  report.document = () => {
    // Loaded on first use: pdfkit and its fonts cost ~0.3 s of CPU at start for every command.
    made ??= import('../../adapters/charts/pdf.ts')
      .then(({ renderDashboardPdf }) => renderDashboardPdf(report, clock.now()))
      .then((content) => ({ filename: `${slug(name) || 'dashboard'}.pdf`, contentType: 'application/pdf', content }));
    return made;
  };
}

export function dashboardsPort(
  dashboards: DashboardsService,
  widgetData: WidgetsService,
  clock: Clock,
): DashboardAccess & DashboardReports {
  return {
    getEditable: (auth, id, action) => dashboards.getEditable(auth, id, action),
    async report(subscription) {
      const dashboard = await dashboards.findForSystem(subscription.tenant_id, subscription.dashboard_id);
      if (!dashboard) return undefined;
      // Widgets run side by side: the report is as slow as its slowest widget, not their sum. A
      // widget that cannot be computed (its insight left the catalog) shows why; the rest is sent.
      const widgets = await Promise.all(
        dashboard.widgets.map(async (widget) => {
          try {
            return { widget, result: await widgetData.execute(asSubscriber(subscription), dashboard, widget as never) };
          } catch (err) {
            if ((err as { status?: number }).status === undefined || (err as { status: number }).status >= 500) throw err;
            return { widget, error: (err as Error).message };
          }
        }),
      );
      const report = composeDashboardReport({ subscription: { ...subscription, dashboard_name: dashboard.name }, dashboard, widgets });
      if (subscription.attach_pdf) attachPdf(report, dashboard.name, clock);
      return report;
    },
  };
}
