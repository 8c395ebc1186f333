// Charts for the chat tools (docs/channels.md "Charts in chat tools"). Slack, Teams and Google Chat
// show an image by URL only and fetch it themselves, without our credentials: each chart of a
// report is rendered once, stored under a random 128-bit id and served at
// INSIGHTS_PUBLIC_URL/api/v1/report-images/<id>.png for 30 days. The URL is the capability, as a
// shared link is: whoever sees the message can open the picture it shows, nothing else.
import crypto from 'node:crypto';
import type { ReportCharts } from '../../adapters/charts/on-demand.ts';
import type { ChartImages } from '../../adapters/delivery/chat-webhook.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ReportSection } from '../../lib/report.ts';
import type { ReportImagesRepository } from './report-images.repository.ts';

export const IMAGE_TTL_DAYS = 30;
export const IMAGE_ID = /^[A-Za-z0-9_-]{22}$/;

export class ReportImages implements ChartImages {
  constructor(
    private readonly repo: ReportImagesRepository,
    private readonly charts: ReportCharts,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  async publish(tenantId: string, section: ReportSection): Promise<string | undefined> {
    const chart = await this.charts.forSection(section);
    if (!chart) return undefined;
    const id = crypto.randomBytes(16).toString('base64url');
    const now = this.clock.now();
    await this.repo.insert({
      id,
      tenant_id: tenantId,
      png: chart.png,
      created_at: now,
      expires_at: new Date(now.getTime() + IMAGE_TTL_DAYS * 86_400_000),
    });
    return `${this.publicUrl.replace(/\/+$/, '')}/api/v1/report-images/${id}.png`;
  }

  /** The PNG of an image id, or undefined when unknown or expired. */
  find(id: string): Promise<Buffer | undefined> {
    return IMAGE_ID.test(id) ? this.repo.find(id, this.clock.now()) : Promise.resolve(undefined);
  }
}
