// How a report reaches a channel: one transport per channel type behind one interface. What a report says is
// src/lib/report.ts (composed by src/modules/reports/); the worker composes a Report, picks the
// channel's transport through Transports, and reads a DeliveryError to decide whether to retry.
import type { Report } from '../../lib/report.ts';

export const CHANNEL_TYPES = ['messenger', 'webhook', 'email', 'slack', 'teams', 'google_chat'] as const;
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
 * retry_after / Retry-After: the worker then retries at that time instead of its own backoff).
 * Not retryable: bad token, chat not found, other 4xx, a refused address, a 3xx redirect, a
 * missing SMTP configuration. The message is safe to store in the delivery log and to show the
 * user (never contains a secret).
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
