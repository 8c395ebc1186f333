// What subscriptions and deliveries need from other modules, as narrow interfaces. The concrete
// services (channels, insights, dashboards, report composition, transports) are adapted to these
// in app.ts (reports/report-sources.ts for insights and dashboards), so this code never depends on their internals.
import type { AuthContext } from '../../auth/context.ts';
import type { ChannelTransport, ChannelType, OutboundChannel } from '../../adapters/delivery/types.ts';
import type { CompareKind, Granularity } from '../../lib/chart.schemas.ts';
import type { Report, ReportAlert } from '../../lib/report.ts';
import type { AlertCondition, AlertResult, AlertShape } from './alert-condition.ts';

export interface ChannelDirectory {
  /** The tenant's channel with its plaintext config, or undefined. Never crosses tenants. */
  getForDelivery(tenantId: string, channelId: string): Promise<OutboundChannel | undefined>;
  /** The type of a channel the caller may use (members: their own), or undefined. */
  typeFor(auth: AuthContext, channelId: string): Promise<ChannelType | undefined>;
}

/** What subscriptions read of a catalog entry. */
export interface InsightSummary {
  code: string;
  name: string;
  granularities: readonly Granularity[];
}

export interface InsightRunner {
  find(code: string): InsightSummary | undefined;
  alertShape(code: string): AlertShape | undefined;
  /**
   * Runs the subscription's insight (concurrent identical runs share one execution); extra
   * parameters override the subscription's (an alert's longer window, its comparison).
   */
  run(subscription: InsightSubscriptionRecord, extra?: Record<string, string | string[]>): Promise<AlertResult>;
  /** Runs another insight as the subscriber: the daily history an anomaly alert on a breakdown reads. */
  runOther(subscription: InsightSubscriptionRecord, code: string, params: Record<string, string | string[]>): Promise<AlertResult>;
  /** The report of a result run(); `alert` says which condition fired and the value. */
  compose(subscription: InsightSubscriptionRecord, insightName: string, result: AlertResult, alert?: ReportAlert): Report;
}

export interface DashboardSummary {
  id: string;
  name: string;
  created_by: string;
}

export interface DashboardReports {
  /** The composed report of a dashboard subscription (runs every widget), or undefined when the dashboard is gone. */
  report(subscription: DashboardSubscriptionRecord & { dashboard_name: string }): Promise<Report | undefined>;
}

export type { ChannelTransport };

export interface InsightSubscriptionRecord {
  id: string;
  tenant_id: string;
  created_by: string;
  insight_code: string;
  channel_id: string;
  channel_type: ChannelType;
  schedule: 'daily' | 'weekly' | 'monthly';
  schedule_time: string;
  schedule_day_of_week: number | null;
  schedule_day_of_month: number | null;
  granularity: string;
  country: string | null;
  /** The insight's other filters: a value or a list each. */
  filters: Record<string, string | string[]> | null;
  compare: CompareKind | null;
  is_active: boolean;
  next_run_at: Date | null;
  created_at: Date;
  timezone: string;
  cron: string | null;
  condition: AlertCondition | null;
  notify: 'every_time' | 'on_change';
  last_checked_at: Date | null;
  last_condition_met: boolean | null;
  /** The creator's attributes (row-level access): reports are computed as the subscriber. */
  subscriber_attributes?: Record<string, string[]> | null;
}

export type { AlertCondition };

export interface DashboardSubscriptionRecord {
  /** The creator's attributes (row-level access): reports are computed as the subscriber. */
  subscriber_attributes?: Record<string, string[]> | null;
  id: string;
  tenant_id: string;
  dashboard_id: string;
  created_by: string;
  channel_ids: string[];
  schedule: 'daily' | 'weekly' | 'monthly';
  schedule_time: string;
  schedule_day_of_week: number | null;
  schedule_day_of_month: number | null;
  is_active: boolean;
  next_run_at: Date | null;
  created_at: Date;
  timezone: string;
  cron: string | null;
  attach_pdf: boolean;
}

/** Dashboard access as the dashboards module decides it: 404 when not viewable, 403 when view-only. */
export interface DashboardAccess {
  getEditable(auth: AuthContext, id: string, action?: string): Promise<DashboardSummary>;
}
