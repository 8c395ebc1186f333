// The part Slack, Microsoft Teams and Google Chat share: one JSON POST to the channel's incoming
// webhook, through the egress guard. The URL is the credential, so it appears in no message, log
// line or error (the egress guard names the host only). Each tool's transport says how a card
// looks in its format and reads that tool's answers.
import type { Report, ReportSection } from '../../lib/report.ts';
import { cardOf, type ReportCard } from './card.ts';
import { fromEgressError, statusError, type HttpClient } from './http.ts';
import { DeliveryError, type ChannelTransport, type DeliveryContext, type DeliveryResult, type OutboundChannel } from './types.ts';

/**
 * Charts published where the chat tool can fetch them (the tools show images by URL only). Set
 * when INSIGHTS_PUBLIC_URL is; returns the image's public URL, or undefined for a section
 * without a chart.
 */
export interface ChartImages {
  publish(tenantId: string, section: ReportSection): Promise<string | undefined>;
}

export interface ChatWebhookSettings {
  /** INSIGHTS_PUBLIC_URL: links and images point there; without it cards carry neither. */
  publicUrl?: string;
  images?: ChartImages;
}

export abstract class ChatWebhookTransport implements ChannelTransport {
  /** The tool's name in messages ("Slack"). */
  protected abstract readonly tool: string;

  constructor(
    private readonly http: HttpClient,
    private readonly settings: ChatWebhookSettings = {},
  ) {}

  /** The JSON body the tool's webhook takes. */
  protected abstract body(card: ReportCard, ctx: DeliveryContext): unknown;

  /** Reads a 2xx answer; throws when the tool says it did not post. */
  protected accepted(_status: number, _text: string): void {}

  private async imageUrls(channel: OutboundChannel, report: Report): Promise<(string | undefined)[]> {
    const images = this.settings.images;
    if (!images || !this.settings.publicUrl) return [];
    // A KPI reads as a fact; only charts become pictures.
    return Promise.all(report.sections.map((s) => (s.kpi || !s.rows.length ? undefined : images.publish(channel.tenant_id, s))));
  }

  async send(channel: OutboundChannel, report: Report, ctx: DeliveryContext): Promise<DeliveryResult> {
    const url = channel.config.webhook_url;
    if (!url || !/^https?:\/\//.test(url)) throw new DeliveryError(`The channel has no ${this.tool} webhook URL`, { retryable: false });
    const card = cardOf(report, this.settings.publicUrl, await this.imageUrls(channel, report));
    let res: Awaited<ReturnType<HttpClient['request']>>;
    try {
      res = await this.http.request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'insights-reports/1' },
        body: JSON.stringify(this.body(card, ctx)),
        retryOnReset: true,
      });
    } catch (err) {
      throw fromEgressError(err);
    }
    // 429 (with Retry-After) and 5xx retry; any other 4xx is final: the tools answer those for a
    // removed webhook, an archived channel or a payload they refuse, and sending again changes nothing.
    const failure = statusError(res, this.tool);
    if (failure) throw failure;
    this.accepted(res.status, res.text());
    return {
      detail:
        `HTTP ${res.status}, ${card.facts.length} figure${card.facts.length === 1 ? '' : 's'}` +
        `${card.images.length ? `, ${card.images.length} chart${card.images.length === 1 ? '' : 's'}` : ''}`,
    };
  }
}
