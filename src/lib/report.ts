// What a report says, transport-neutral: the contract between its composition
// (src/modules/reports/compose.ts), the transports that send it (src/adapters/delivery/), the PDF
// and chart renderers (src/adapters/charts/) and the web app, which draws the same sections.
import type { ChartHint, ChartType, DataRow } from './chart.schemas.ts';

export type ReportType = 'insight.report' | 'dashboard.report' | 'channel.test';

export interface ReportColumn {
  name: string;
  type: string;
  label: string;
  /** A money column's ISO 4217 code (EUR). */
  currency?: string;
  /** Decimals shown, from the model's format. */
  decimals?: number;
}

/** A big number with its comparison, for KPI sections. */
export interface ReportKpi {
  label: string;
  /** The value column's format (money in EUR, percent…), so the figure reads with its unit. */
  format?: { type?: string; currency?: string; decimals?: number };
  value: number | null;
  previous?: number | null;
  /** Change against the previous window in percent (12.5 = +12.5 %), null when not computable. */
  change_pct?: number | null;
  /** What the previous value is: `previous_period` (the window just before) or `previous_year`. */
  compare?: string;
}

/** One block of a report: an insight's result, or one widget of a dashboard. */
export interface ReportSection {
  title: string;
  /** How to draw the rows; type already resolved (a widget's chart_hint_override.chart_type wins). */
  chart_hint?: ChartHint & { type: ChartType };
  columns: ReportColumn[];
  rows: DataRow[];
  kpi?: ReportKpi;
  /** A line under the title, e.g. the period "2026-10-01 – 2026-10-31, month". */
  subtitle?: string;
  /** A dashboard widget's size on screen: its width in the PDF's grid. */
  display_size?: 'small' | 'medium' | 'large' | 'full';
}

/** The alert that made an insight report go out (or, on a send-now, how its condition stands). */
export interface ReportAlert {
  /** A threshold ({op, value, measure}) or an anomaly ({kind: 'anomaly', measure, sensitivity}). */
  condition: { op?: string; value?: number; kind?: string; measure?: string; sensitivity?: string };
  met: boolean;
  measure: string;
  value: number | null;
  change_pct: number | null;
  period?: string;
  /** One sentence naming the condition and the value; every transport shows it first. */
  text: string;
  /**
   * Per-value alerts (a breakdown's rows, a split series' values): the rows that met the
   * condition, each with its value and, for anomalies, the usual value and its spread.
   */
  rows?: { key: string; value: number | null; change_pct?: number | null; expected?: number; spread?: number; text: string }[];
}

/** A file that goes with the report (the dashboard as a PDF). */
export interface ReportAttachment {
  filename: string;
  contentType: string;
  /** A Buffer on the server; typed as its base class so the browser build (web/) can share this file. */
  content: Uint8Array;
}

/**
 * What a delivery carries, transport-neutral. The messenger and e-mail transports render title,
 * summary and sections; the webhook transport posts `payload` as JSON with `id` (= the delivery
 * id, the same as the webhook-id header) and `sent_at` added, so a receiver can de-duplicate.
 */
export interface Report {
  type: ReportType;
  title: string;
  /** One or two plain-text sentences (no markup): escaped by each transport. */
  summary: string;
  sections: ReportSection[];
  /**
   * The webhook body without `id` and `sent_at` (docs/product.md §6 "Payloads"): {type, subscription_id,
   * subscription_kind, …insight or dashboard fields}.
   */
  payload: { type: ReportType; [key: string]: unknown };
  alert?: ReportAlert;
  /**
   * Where the report's insight or dashboard opens in the web app ("/dashboards/<id>"): the chat
   * tools link to it on INSIGHTS_PUBLIC_URL.
   */
  web_path?: string;
  /** Made on first use and shared by the channels of one report (the PDF of a dashboard). */
  document?: () => Promise<ReportAttachment>;
}
