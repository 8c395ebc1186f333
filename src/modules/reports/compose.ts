// Turns insight results into transport-neutral Reports: what a person reads (title, summary,
// sections) and what a webhook receives (payload, docs/product.md §6 "Payloads"). Inputs are typed
// structurally so composition depends on no module's internals.
import type { Report, ReportAlert, ReportColumn, ReportSection } from '../../lib/report.ts';
import { comparisonText, kpiOf, formatChange, formatNumber } from '../../adapters/charts/kpi.ts';
import { CHART_TYPES, type ChartType, type DataRow } from '../../lib/chart.schemas.ts';

/** The parts of an insight execution composition reads (insights.service ExecuteResult). */
export interface ResultLike {
  insight_code: string;
  insight_name: string;
  granularity: string | null;
  filters: Record<string, unknown>;
  period: { from: string; to: string };
  compare?: string;
  previous_period?: { from: string; to: string };
  columns: ReportColumn[];
  rows: DataRow[];
  chart_hint: { type: string; x_axis: string; y_axis?: string[]; series?: string; title?: string };
  row_count?: number;
  generated_at?: string;
}

export interface InsightSubscriptionLike {
  id: string;
  schedule: string;
  insight_name?: string;
}

export interface DashboardSubscriptionLike {
  id: string;
  schedule: string;
  dashboard_id: string;
  dashboard_name?: string;
}

export interface DashboardLike {
  id: string;
  name: string;
  description?: string | null;
}

export interface WidgetLike {
  id: string;
  title: string;
  widget_type: string;
  display_size?: 'small' | 'medium' | 'large' | 'full';
  chart_hint_override?: { chart_type?: string } | null;
}

const asChartType = (t: string | undefined): ChartType | undefined =>
  t && (CHART_TYPES as readonly string[]).includes(t) ? (t as ChartType) : undefined;

const SCHEDULE_WORD: Record<string, string> = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };

function periodText(r: ResultLike): string {
  const range = r.period.from === r.period.to ? r.period.from : `${r.period.from} – ${r.period.to}`;
  const filters = Object.entries(r.filters ?? {})
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k} ${String(v)}`);
  return [range, r.granularity ? `by ${r.granularity}` : '', ...filters].filter(Boolean).join(' · ');
}

/** A section from a result; chartType is the type to draw (a widget's override already applied). */
function sectionOf(title: string, r: ResultLike, chartType: ChartType): ReportSection {
  const section: ReportSection = {
    title,
    subtitle: periodText(r),
    // The picture carries the section's title (a widget's own name), not the insight's default.
    chart_hint: { ...r.chart_hint, type: chartType, title } as ReportSection['chart_hint'],
    columns: r.columns,
    rows: r.rows,
  };
  const kpi = chartType === 'kpi' ? kpiOf(r.columns, r.rows, r.chart_hint.y_axis, title) : undefined;
  // The KPI says what it was compared with: the same period last year when that was chosen.
  if (kpi) section.kpi = r.compare ? { ...kpi, compare: r.compare } : kpi;
  return section;
}

function headline(s: ReportSection): string {
  if (s.kpi)
    return (
      `${s.title}: ${formatNumber(s.kpi.value, s.kpi.format)} (${formatChange(s.kpi.change_pct)} against ` +
      `${comparisonText(s.kpi.compare)})`
    );
  return `${s.title}: ${s.rows.length} row${s.rows.length === 1 ? '' : 's'}, ${s.subtitle ?? ''}`.replace(/, $/, '');
}

/** An insight's report; `alert` (when the subscription has a condition) goes first in every transport and into the payload. */
export function composeInsightReport(args: { subscription: InsightSubscriptionLike; result: ResultLike; alert?: ReportAlert }): Report {
  const { subscription: sub, result: r, alert } = args;
  const name = sub.insight_name || r.insight_name;
  const type = asChartType(r.chart_hint.type) ?? 'table';
  const section = sectionOf(name, r, type);
  return {
    type: 'insight.report',
    title: `${alert?.met ? 'Alert: ' : ''}${name} — ${(SCHEDULE_WORD[sub.schedule] ?? 'Scheduled').toLowerCase()} report`,
    summary: (alert ? `${alert.text} ` : '') + headline(section) + '.',
    sections: [section],
    ...(alert ? { alert } : {}),
    web_path: `/insights/${encodeURIComponent(r.insight_code)}`,
    payload: {
      type: 'insight.report',
      subscription_id: sub.id,
      subscription_kind: 'insight',
      insight_code: r.insight_code,
      insight_name: name,
      granularity: r.granularity,
      filters: r.filters,
      period: r.period,
      ...(r.compare ? { compare: r.compare, previous_period: r.previous_period } : {}),
      columns: r.columns,
      rows: r.rows,
      chart_hint: r.chart_hint,
      ...(alert ? { alert: { ...alert } } : {}),
    },
  };
}

/**
 * The type a widget is drawn as: chart_hint_override.chart_type wins (docs/product.md §6, Widgets), then a table or
 * KPI widget is drawn as such, then the result's own hint.
 */
export function widgetChartType(widget: WidgetLike, result: ResultLike): ChartType {
  return (
    asChartType(widget.chart_hint_override?.chart_type ?? undefined) ??
    (widget.widget_type === 'table' ? 'table' : widget.widget_type === 'kpi' ? 'kpi' : undefined) ??
    asChartType(result.chart_hint.type) ??
    'table'
  );
}

export function composeDashboardReport(args: {
  subscription: DashboardSubscriptionLike;
  dashboard: DashboardLike;
  widgets: { widget: WidgetLike; result?: ResultLike; error?: string }[];
}): Report {
  const { subscription: sub, dashboard, widgets } = args;
  const name = dashboard.name || sub.dashboard_name || 'Dashboard';
  const sections: ReportSection[] = widgets.map(({ widget, result, error }) => ({
    ...(result
      ? sectionOf(widget.title, result, widgetChartType(widget, result))
      : { title: widget.title, subtitle: `Could not be computed: ${error ?? 'unknown error'}`, columns: [], rows: [] }),
    ...(widget.display_size ? { display_size: widget.display_size } : {}),
  }));
  const kpis = sections.filter((s) => s.kpi).map(headline);
  const summary = [
    dashboard.description?.trim() || '',
    `${widgets.length} widget${widgets.length === 1 ? '' : 's'}.`,
    ...kpis.map((k) => `${k}.`),
  ]
    .filter(Boolean)
    .join(' ');
  return {
    type: 'dashboard.report',
    title: `${name} — ${(SCHEDULE_WORD[sub.schedule] ?? 'Scheduled').toLowerCase()} dashboard report`,
    summary,
    sections,
    web_path: `/dashboards/${encodeURIComponent(dashboard.id)}`,
    payload: {
      type: 'dashboard.report',
      subscription_id: sub.id,
      subscription_kind: 'dashboard',
      dashboard_id: dashboard.id,
      dashboard_name: name,
      widgets: widgets.map(({ widget, result, error }) => ({
        id: widget.id,
        title: widget.title,
        type: widget.widget_type,
        chart_type: result ? widgetChartType(widget, result) : null,
        insight_code: result?.insight_code ?? null,
        period: result?.period ?? null,
        columns: result?.columns ?? [],
        rows: result?.rows ?? [],
        chart_hint: result?.chart_hint ?? null,
        ...(error ? { error } : {}),
      })),
    },
  };
}

const TYPE_WORD: Record<string, string> = {
  messenger: 'messenger',
  webhook: 'webhook',
  email: 'e-mail',
  slack: 'Slack',
  teams: 'Microsoft Teams',
  google_chat: 'Google Chat',
};

export function composeTestReport(channel: { id: string; channel_type: string }): Report {
  const message =
    `This is a test message from Insights: the ` +
    `${TYPE_WORD[channel.channel_type] ?? channel.channel_type} channel works and will receive scheduled reports.`;
  return {
    type: 'channel.test',
    title: 'Insights: test message',
    summary: message,
    sections: [],
    payload: {
      type: 'channel.test',
      subscription_id: null,
      subscription_kind: null,
      channel_id: channel.id,
      channel_type: channel.channel_type,
      message,
    },
  };
}
