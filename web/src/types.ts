// The shapes of the public API the app reads: generated from the OpenAPI document
// (api-types.ts, `npm run web:types`), named here in the app's words.
import type { components } from './api-types.ts';

type S = components['schemas'];

export type Role = S['ApiToken']['role'];
export type ChartType = S['ChartType'];
export const CHART_TYPES: ChartType[] = ['line', 'bar', 'stacked_bar', 'area', 'pie', 'scatter', 'table', 'kpi'];
export type WidgetType = S['DashboardWidget']['widget_type'];
export type DisplaySize = S['DashboardWidget']['display_size'];
export const DISPLAY_SIZES: DisplaySize[] = ['small', 'medium', 'large', 'full'];
export type Granularity = S['Granularity'];
export const GRANULARITIES: Granularity[] = ['day', 'week', 'month', 'quarter', 'year'];
export type Cell = string | number | boolean | null;
export type DataRow = Record<string, Cell>;

export type ChartHint = S['ChartHint'];

export type Column = S['ExecuteResponse']['data']['columns'][number];

export type PresetFilters = S['GlobalFilterPreset']['filters'];

export type FilterPreset = S['GlobalFilterPreset'];

export type Dashboard = S['Dashboard'] & { widgets?: Widget[] };

export type Widget = S['DashboardWidget'];

export type ExecuteData = S['ExecuteResponse']['data'];

export type SemanticQuery = S['SemanticQuery'];

export type ExecuteResponse = S['ExecuteResponse'];

export type FilterOptions = S['FilterOptions'];

export type Insight = S['Insight'];

export type ChatData = S['ChatResult']['data'];

export type ChannelType = S['NotificationChannel']['channel_type'];

export type Channel = S['NotificationChannel'];

export type Schedule = S['DashboardSubscription']['schedule'];

export type InsightSubscription = S['InsightSubscription'];

export type DashboardSubscription = S['DashboardSubscription'];

export type DeliveryLog = S['DeliveryLog'];

export type Connector = S['AIConnector'];

export type ApiToken = S['ApiToken'];

export type TextBlock = S['DashboardTextBlock'];

export type EmbedKey = S['EmbedKey'];

export type CreatedEmbedKey = S['CreatedEmbedKey'];
