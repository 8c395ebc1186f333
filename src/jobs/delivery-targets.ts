// Resolves a claimed delivery to what to send and where: its subscription (gone or switched off →
// cancelled, nothing sent), its channel with plaintext config (gone → cancelled), and the report.
import type { Report } from '../adapters/delivery/types.ts';
import type { DeliveryRecord } from '../modules/deliveries/deliveries.repository.ts';
import type { DashboardSubscriptionsRepository } from '../modules/subscriptions/dashboard-subscriptions.repository.ts';
import type { InsightSubscriptionsRepository } from '../modules/subscriptions/insight-subscriptions.repository.ts';
import type { ChannelDirectory, DashboardReports, InsightRunner } from '../modules/subscriptions/ports.ts';
import type { DeliveryTarget, DeliveryTargets } from './delivery-worker.ts';

/**
 * A dashboard report goes to several channels, one delivery each: compose it once per
 * (subscription, slot) and share it between them for a short while.
 */
class ReportMemo {
  private entries = new Map<string, { at: number; report: Promise<Report> }>();
  constructor(private readonly ttlMs = 60_000) {}

  get(key: string, compose: () => Promise<Report>): Promise<Report> {
    const now = Date.now();
    for (const [k, e] of this.entries) if (now - e.at > this.ttlMs) this.entries.delete(k);
    const hit = this.entries.get(key);
    if (hit) return hit.report;
    const report = compose();
    this.entries.set(key, { at: now, report });
    // A failed composition is not remembered: the retry composes again.
    report.catch(() => this.entries.delete(key));
    return report;
  }
}

export class SubscriptionDeliveryTargets implements DeliveryTargets {
  private readonly memo = new ReportMemo();

  constructor(
    private readonly insightSubs: InsightSubscriptionsRepository,
    private readonly dashboardSubs: DashboardSubscriptionsRepository,
    private readonly channels: ChannelDirectory,
    private readonly insights: InsightRunner,
    private readonly dashboards: DashboardReports,
  ) {}

  async resolve(d: DeliveryRecord): Promise<DeliveryTarget> {
    if (d.subscription_kind === 'insight') {
      const s = await this.insightSubs.find(d.tenant_id, d.subscription_id);
      if (!s) return { cancel: 'The subscription was deleted' };
      if (!s.is_active && d.trigger === 'schedule') return { cancel: 'The subscription is inactive' };
      const channel = await this.channels.getForDelivery(d.tenant_id, d.channel_id);
      if (!channel) return { cancel: 'The channel was deleted' };
      const name = this.insights.find(s.insight_code)?.name ?? s.insight_code;
      return { owner: s.created_by, name, channel, report: () => this.insights.report(s, name) };
    }
    const s = await this.dashboardSubs.find(d.tenant_id, d.subscription_id);
    if (!s) return { cancel: 'The subscription or its dashboard was deleted' };
    if (!s.is_active && d.trigger === 'schedule') return { cancel: 'The subscription is inactive' };
    if (!s.channel_ids.includes(d.channel_id)) return { cancel: 'The channel was removed from the subscription' };
    const channel = await this.channels.getForDelivery(d.tenant_id, d.channel_id);
    if (!channel) return { cancel: 'The channel was deleted' };
    const key = `${s.id}:${d.slot_at.toISOString()}`;
    return {
      owner: s.created_by,
      name: s.dashboard_name,
      channel,
      report: () =>
        this.memo.get(key, async () => {
          const report = await this.dashboards.report(s);
          if (!report) throw Object.assign(new Error('The dashboard was deleted'), { status: 404 });
          return report;
        }),
    };
  }
}
