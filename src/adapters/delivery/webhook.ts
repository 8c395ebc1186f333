// Reports as JSON POSTs signed per the Standard Webhooks spec (the reference `standardwebhooks`
// package signs): webhook-id is the delivery id, the same on every retry of one delivery and
// repeated as the body's `id`, so a receiver can drop duplicates.
import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { fromEgressError, statusError, type HttpClient } from './http.ts';
import { DeliveryError, type ChannelTransport, type DeliveryContext, type DeliveryResult, type OutboundChannel } from './types.ts';
import type { Report, ReportAttachment } from '../../lib/report.ts';

/** A new signing secret in the spec's form: "whsec_" + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64')}`;
}

export const SIGNING_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/;

/**
 * The largest PDF a webhook body carries inline (as base64, which adds a third): receivers and
 * their proxies commonly cap bodies at a few MiB. A larger one is left out with a note
 * (docs/channels.md "Dashboard PDF").
 */
export const WEBHOOK_PDF_LIMIT_BYTES = 4 * 1024 * 1024;

/** The payload's `pdf` field: the document inline, or why it is not there. */
export function pdfField(doc: ReportAttachment, limitBytes = WEBHOOK_PDF_LIMIT_BYTES): Record<string, unknown> {
  const head = { filename: doc.filename, content_type: doc.contentType, size_bytes: doc.content.length };
  if (doc.content.length > limitBytes) {
    return {
      ...head,
      omitted:
        `The PDF is larger than the ${Math.round(limitBytes / 1024)} KiB a webhook body carries; it is sent by ` +
        `e-mail and messenger channels.`,
    };
  }
  return { ...head, content_base64: Buffer.from(doc.content.buffer, doc.content.byteOffset, doc.content.byteLength).toString('base64') };
}

/** The JSON body: `type`, `id`, `sent_at` first, then the report's own fields (and the PDF, last). */
export function webhookBody(report: Report, ctx: DeliveryContext, pdf?: Record<string, unknown>): string {
  const { type, ...rest } = report.payload;
  return JSON.stringify({ type, id: ctx.deliveryId, sent_at: ctx.sentAt.toISOString(), ...rest, ...(pdf ? { pdf } : {}) });
}

export class WebhookTransport implements ChannelTransport {
  /**
   * now is wall-clock time for webhook-timestamp: receivers compare it with their own clock
   * (the spec's 5-minute tolerance), so it must be real time even when business time is not.
   */
  constructor(
    private readonly http: HttpClient,
    private readonly now: () => Date = () => new Date(),
    private readonly pdfLimitBytes = WEBHOOK_PDF_LIMIT_BYTES,
  ) {}

  async send(channel: OutboundChannel, report: Report, ctx: DeliveryContext): Promise<DeliveryResult> {
    const url = channel.config.webhook_url;
    const secret = channel.config.signing_secret;
    if (!url?.startsWith('https://')) throw new DeliveryError('The channel has no https:// webhook_url', { retryable: false });
    if (!secret) throw new DeliveryError('The channel has no signing secret', { retryable: false });

    const body = webhookBody(report, ctx, report.document ? pdfField(await report.document(), this.pdfLimitBytes) : undefined);
    const at = this.now();
    let signature: string;
    try {
      signature = new Webhook(secret).sign(ctx.deliveryId, at, body);
    } catch (err) {
      throw new DeliveryError('The channel signing secret is unusable', { retryable: false, cause: err });
    }
    let res: Awaited<ReturnType<HttpClient['request']>>;
    try {
      res = await this.http.request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'insights-webhooks/1',
          'webhook-id': ctx.deliveryId,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body,
        retryOnReset: true,
      });
    } catch (err) {
      throw fromEgressError(err);
    }
    const failure = statusError(res, 'The webhook receiver');
    if (failure) throw failure;
    return { detail: `HTTP ${res.status}` };
  }
}
