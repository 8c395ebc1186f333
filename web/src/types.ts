// The shapes of the public API the app reads (docs/decisions.md and /api/v1/openapi.json).

export type Role = 'owner' | 'admin' | 'member';
export type ChartType = 'line' | 'bar' | 'stacked_bar' | 'area' | 'pie' | 'scatter' | 'table' | 'kpi';
export const CHART_TYPES: ChartType[] = ['line', 'bar', 'stacked_bar', 'area', 'pie', 'scatter', 'table', 'kpi'];
export type WidgetType = 'chart' | 'table' | 'kpi';
export type DisplaySize = 'small' | 'medium' | 'large' | 'full';
export const DISPLAY_SIZES: DisplaySize[] = ['small', 'medium', 'large', 'full'];
export const GRANULARITIES = ['day', 'week', 'month', 'quarter', 'year'];
export type Cell = string | number | boolean | null;
export type DataRow = Record<string, Cell>;

export interface ChartHint {
  type: ChartType;
  x_axis: string;
  y_axis?: string[];
  series?: string;
  title?: string;
}

export interface Column {
  name: string;
  type: string;
  label: string;
  currency?: string;
  decimals?: number;
}

export interface PresetFilters {
  country?: string | string[];
  channel?: string | string[];
  category?: string | string[];
  range?: string;
  compare?: string;
  date_from?: string;
  date_to?: string;
  granularity?: string;
}

export interface FilterPreset {
  id: string;
  name: string;
  filters: PresetFilters;
}

export interface Dashboard {
  id: string;
  tenant_id: string;
  name: string;
  description?: string | null;
  created_by: string;
  created_by_name: string;
  is_shared: boolean;
  shared_with_emails?: string[] | null;
  widget_ids: string[];
  global_filter_presets: FilterPreset[];
  active_preset_id?: string | null;
  created_at: string;
  updated_at: string;
  widgets?: Widget[];
}

export interface Widget {
  id: string;
  dashboard_id: string;
  title: string;
  widget_type: WidgetType;
  display_size: DisplaySize;
  data_source: 'live_insight' | 'snapshot';
  insight_code?: string | null;
  granularity?: string | null;
  widget_filters?: Record<string, unknown> | null;
  ignored_filters?: string[] | null;
  snapshot_data?: DataRow[] | null;
  snapshot_chart_hint?: ChartHint | null;
  snapshot_question?: string | null;
  chart_hint?: ChartHint | null;
  chart_hint_override?: { chart_type?: ChartType } | null;
  created_at: string;
  last_refreshed_at?: string | null;
}

export interface ExecuteData {
  insight_code: string;
  insight_name: string;
  granularity?: string | null;
  filters: Record<string, unknown>;
  period?: { from: string; to: string } | null;
  columns: Column[];
  rows: DataRow[];
  chart_hint: ChartHint;
  row_count: number;
  generated_at: string;
  cached: boolean;
}

export interface ExecuteResponse {
  success: boolean;
  data: ExecuteData;
}

export interface FilterOptions {
  name: string;
  label: string;
  values: string[];
  listed: boolean;
}

export interface Insight {
  code: string;
  name: string;
  description: string;
  kind: string;
  granularities: string[];
  default_granularity: string | null;
  filters: string[];
  parameters: string[];
  measures: Column[];
  dimensions: Column[];
  default_limit: number | null;
  chart_hint: ChartHint;
}

export interface ChatData {
  reply_text: string;
  chart_hint: ChartHint;
  rows: DataRow[];
  history_id: string;
  insight_code?: string | null;
  query?: {
    insight_code: string;
    granularity?: string;
    filters?: Record<string, string>;
    date_from?: string;
    date_to?: string;
    limit?: number;
  } | null;
}

export type ChannelType = 'messenger' | 'webhook' | 'email';

export interface Channel {
  id: string;
  channel_type: ChannelType;
  config: Record<string, string>;
  is_verified: boolean;
  created_at: string;
}

export type Schedule = 'daily' | 'weekly' | 'monthly';

export interface InsightSubscription {
  id: string;
  insight_code: string;
  insight_name: string;
  channel_id: string;
  channel_type: ChannelType;
  schedule: Schedule;
  granularity: string;
  country?: string | null;
  schedule_time?: string | null;
  schedule_day_of_week?: number | null;
  schedule_day_of_month?: number | null;
  is_active: boolean;
  created_at: string;
  next_run_at?: string | null;
}

export interface DashboardSubscription {
  id: string;
  dashboard_id: string;
  dashboard_name: string;
  channel_ids: string[];
  schedule: Schedule;
  schedule_time: string;
  schedule_day_of_week?: number | null;
  schedule_day_of_month?: number | null;
  is_active: boolean;
  created_at: string;
  next_run_at?: string | null;
}

export interface DeliveryLog {
  id: string;
  subscription_id: string;
  subscription_kind?: 'insight' | 'dashboard';
  insight_name: string;
  channel_type: ChannelType;
  channel_id?: string | null;
  attempt?: number;
  sent_at: string;
  status: 'success' | 'failed';
  error_message?: string | null;
}

export interface Connector {
  provider: string;
  api_key_masked: string;
  is_active: boolean;
  created_at: string;
  model?: string | null;
  model_label?: string | null;
  base_url?: string | null;
}

export interface ApiToken {
  id: string;
  tenant_id: string;
  name: string;
  user_id: string;
  user_name?: string | null;
  email?: string | null;
  role: Role;
  token_masked: string;
  created_at: string;
  revoked_at?: string | null;
}
