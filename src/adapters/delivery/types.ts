// The one seam between "what a report says" (composition, src/reports/) and "how it reaches a
// channel" (the three transports). The scheduler/queue only ever sees these types: it composes a
// Report, picks the channel's transport through Transports, and reads a DeliveryError to decide
// whether to retry.
import type { ChartHint, ChartType, DataRow } from '../../lib/chart.schemas.ts';

export const CHANNEL_TYPES = ['messenger', 'webhook', 'email'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** A channel ready to send to: config holds plaintext secrets, so it never leaves the process. */
export interface OutboundChannel {
  id: string;
  tenant_id: string;
  channel_type: ChannelType;
  config: Record<string, string>;
  /**
   * Set when the channel's sealed secrets cannot be opened with this service's master key (the
   * key changed since they were saved): nothing can be sent until the config is saved again.
   */
  unreadable?: string;
}

export type ReportType = 'insight.report' | 'dashboard.report' | 'channel.test';

export interface ReportColumn {
  name: string;
  type: string;
  label: string;
}

/** A big number with its comparison, for KPI sections. */
export interface ReportKpi {
  label: string;
  value: number | null;
  previous?: number | null;
  /** Change against the previous window in percent (12.5 = +12.5 %), null when not computable. */
  change_pct?: number | null;
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
  condition: { op: string; value: number; measure?: string };
  met: boolean;
  measure: string;
  value: number | null;
  change_pct: number | null;
  period?: string;
  /** One sentence naming the condition and the value; every transport shows it first. */
  text: string;
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
  /** Made on first use and shared by the channels of one report (the PDF of a dashboard). */
  document?: () => Promise<ReportAttachment>;
}

export interface DeliveryContext {
  /** Stable across the retries of one delivery: the webhook-id, and the payload's `id`. */
  deliveryId: string;
  sentAt: Date;
}

export interface DeliveryResult {
  /** A short human note on what was sent (e.g. "3 messages, 2 photos"); no secrets. */
  detail?: string;
}

/**
 * A failed send. retryable: network errors, timeouts, 5xx, 408 and 429 (retryAfterMs from
 * retry_after / Retry-After: the worker then retries at that time instead of its own backoff). Not retryable: bad token, chat not found, other 4xx, a refused
 * address, a 3xx redirect, a missing SMTP configuration. The message is safe to store in the
 * delivery log and to show the user (never contains a secret).
 */
export class DeliveryError extends Error {
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  constructor(message: string, options: { retryable: boolean; retryAfterMs?: number; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DeliveryError';
    this.retryable = options.retryable;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

export interface ChannelTransport {
  /** Resolves when the upstream accepted the report; throws DeliveryError otherwise. */
  send(channel: OutboundChannel, report: Report, ctx: DeliveryContext): Promise<DeliveryResult>;
}

/** Picks the transport for a channel's type. Anything thrown that is not a DeliveryError is wrapped as retryable. */
export class Transports implements ChannelTransport {
  constructor(private readonly byType: Record<ChannelType, ChannelTransport>) {}

  async send(channel: OutboundChannel, report: Report, ctx: DeliveryContext): Promise<DeliveryResult> {
    const transport = this.byType[channel.channel_type];
    if (!transport) throw new DeliveryError(`No transport for channel type ${channel.channel_type}`, { retryable: false });
    try {
      return await transport.send(channel, report, ctx);
    } catch (err) {
      if (err instanceof DeliveryError) throw err;
      throw new DeliveryError(`Unexpected failure: ${(err as Error)?.message ?? String(err)}`, { retryable: true, cause: err });
    }
  }
}
