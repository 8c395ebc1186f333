// Resolves claimed deliveries to what to send and where: the subscription (gone or switched off →
// cancelled, nothing sent), the channel with plaintext config (gone → cancelled), and the report.
// A whole claimed batch is resolved with one query per subscription kind and one channel lookup
// per distinct channel, so the per-delivery cost is the send itself.
import type { OutboundChannel } from '../../adapters/delivery/types.ts';
import type { Report, ReportAlert } from '../../lib/report.ts';
import type { DashboardSubscriptionsRepository } from './dashboard-subscriptions.repository.ts';
import type { InsightSubscriptionsRepository } from './insight-subscriptions.repository.ts';
import { AppError, insightNotInModel } from '../../lib/errors.ts';
import type { ChannelDirectory, DashboardReports, InsightRunner, InsightSubscriptionRecord } from './ports.ts';
import {
  type AlertCheck,
  type AlertCondition,
  type AlertResult,
  type AlertShape,
  evaluateCondition,
  isAnomaly,
  perValue,
} from './alert-condition.ts';
import { evaluateAnomaly, historyFrom } from './anomaly-condition.ts';
import { MAX_FILTER_VALUES } from '../../lib/chart.schemas.ts';
import type { DeliveryRecord, DeliveryTarget, DeliveryTargets } from '../deliveries/delivery.ts';

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

/** A channel whose secrets cannot be opened: the delivery fails at once (a 409, no retry) with the reason in its log. */
const unreadable = (owner: string, name: string, channel: OutboundChannel): DeliveryTarget => ({
  owner,
  name,
  channel,
  report: () => Promise.reject(new AppError('CONFLICT', channel.unreadable!)),
});

export class SubscriptionDeliveryTargets implements DeliveryTargets {
  private readonly memo = new ReportMemo();

  constructor(
    private readonly insightSubs: InsightSubscriptionsRepository,
    private readonly dashboardSubs: DashboardSubscriptionsRepository,
    private readonly channels: ChannelDirectory,
    private readonly insights: InsightRunner,
    private readonly dashboards: DashboardReports,
  ) {}

  /**
   * Runs the insight and, when the subscription has an alert condition, evaluates it
   * (docs/notifications.md "Alerts"). A scheduled slot whose condition does not hold — or, with
   * notify on_change, held at the slot before too — is skipped: nothing sent, nothing logged.
   * A send-now always sends, saying how the condition stands, and records no check.
   */
  private async insightReport(s: InsightSubscriptionRecord, name: string, d: DeliveryRecord): Promise<Report | { skip: string }> {
    const shape = s.condition ? this.insights.alertShape(s.insight_code) : undefined;
    if (!s.condition || !shape) return this.insights.compose(s, name, await this.insights.run(s));
    const { result, check } = await this.evaluate(s, s.condition, shape, d.slot_at);
    let text = check.text;
    if (d.trigger === 'schedule') {
      const state = await this.insightSubs.recordCheck(s.id, d.slot_at, check.met, check.keys);
      if (!check.met) return { skip: check.text };
      if (s.notify === 'on_change') {
        // Per value: a row is news when it did not meet the condition at the slot before.
        const before = new Set(check.rows ? (state?.beforeKeys ?? []) : state?.before ? ['*'] : []);
        const fresh = check.keys.filter((k) => !before.has(k));
        if (!fresh.length) return { skip: `${check.text} It held at the slot before too (notify: on_change).` };
        if (check.rows) text = `${check.text} New since the slot before: ${fresh.join(', ')}.`;
      }
    }
    const alert: ReportAlert = {
      condition: s.condition,
      met: check.met,
      measure: check.measure,
      value: check.value,
      change_pct: check.change_pct,
      period: check.period,
      text,
      ...(check.rows
        ? {
            rows: check.rows.filter((r) => r.met).map(({ met: _met, ...r }) => r),
          }
        : {}),
    };
    return this.insights.compose(s, name, result, alert);
  }

  /**
   * Runs what the condition reads and checks it. A change_* threshold per value needs each row's
   * previous figure (compare previous_period unless the subscription compares already); an
   * anomaly needs history: a time series' own over a longer window, a breakdown's rows from the
   * daily series of the same measure, one series per value (docs/notifications.md).
   */
  private async evaluate(
    s: InsightSubscriptionRecord,
    c: AlertCondition,
    shape: AlertShape,
    slotAt: Date,
  ): Promise<{ result: AlertResult; check: AlertCheck }> {
    if (!isAnomaly(c)) {
      const extra = perValue(shape) && c.op.startsWith('change_') && !s.compare ? { compare: 'previous_period' } : undefined;
      const result = await this.insights.run(s, extra);
      return { result, check: evaluateCondition(c, shape, result) };
    }
    const today = slotAt.toISOString().slice(0, 10);
    if (shape.kind === 'timeseries') {
      const result = await this.insights.run(s, { date_from: historyFrom(today, s.granularity) });
      return { result, check: evaluateAnomaly(c, shape, result) };
    }
    const result = await this.insights.run(s);
    const measure = c.measure ?? shape.defaultMeasure ?? shape.measures[0];
    const source = shape.history?.[measure];
    if (!source)
      throw new AppError('VALIDATION_FAILED', `The model has no daily series of ${measure} by this insight's dimension any more`);
    const values = [...new Set(result.rows.map((r) => String(r[source.filter] ?? '')).filter(Boolean))].slice(0, MAX_FILTER_VALUES);
    if (!values.length) return { result, check: evaluateAnomaly(c, shape, { ...result, rows: [] }) };
    const filters: Record<string, string | string[]> = { ...(s.filters ?? {}), ...(s.country ? { country: s.country } : {}) };
    const history = await this.insights.runOther(s, source.code, {
      ...filters,
      [source.filter]: values,
      granularity: 'day',
      date_from: historyFrom(today, 'day'),
    });
    return { result, check: evaluateAnomaly(c, { ...shape, kind: 'breakdown' }, history, values.length === 1 ? values[0] : undefined) };
  }

  async resolveMany(ds: DeliveryRecord[]): Promise<DeliveryTarget[]> {
    const ids = (kind: string) => [...new Set(ds.filter((d) => d.subscription_kind === kind).map((d) => d.subscription_id))];
    const [insightRows, dashboardRows] = await Promise.all([
      this.insightSubs.findMany(ids('insight')),
      this.dashboardSubs.findMany(ids('dashboard')),
    ]);
    const insightSubs = new Map(insightRows.map((s) => [s.id, s]));
    const dashboardSubs = new Map(dashboardRows.map((s) => [s.id, s]));
    const channels = new Map<string, Promise<OutboundChannel | undefined>>();
    const channel = (tenantId: string, id: string) => {
      const key = `${tenantId}\u0000${id}`;
      if (!channels.has(key)) channels.set(key, this.channels.getForDelivery(tenantId, id));
      return channels.get(key)!;
    };

    return Promise.all(
      ds.map(async (d): Promise<DeliveryTarget> => {
        if (d.subscription_kind === 'insight') {
          const s = insightSubs.get(d.subscription_id);
          if (!s || s.tenant_id !== d.tenant_id) return { cancel: 'The subscription was deleted' };
          if (!s.is_active && d.trigger === 'schedule') return { cancel: 'The subscription is inactive' };
          const ch = await channel(d.tenant_id, d.channel_id);
          if (!ch) return { cancel: 'The channel was deleted' };
          const def = this.insights.find(s.insight_code);
          const name = def?.name ?? s.insight_code;
          if (ch.unreadable) return unreadable(s.created_by, name, ch);
          // A 4xx error: the delivery fails at once (no retry) with this reason in its log.
          if (!def)
            return {
              owner: s.created_by,
              name,
              channel: ch,
              report: () => Promise.reject(insightNotInModel(s.insight_code, 'The subscription')),
            };
          return { owner: s.created_by, name, channel: ch, report: () => this.insightReport(s, name, d) };
        }
        const s = dashboardSubs.get(d.subscription_id);
        if (!s || s.tenant_id !== d.tenant_id) return { cancel: 'The subscription or its dashboard was deleted' };
        if (!s.is_active && d.trigger === 'schedule') return { cancel: 'The subscription is inactive' };
        if (!s.channel_ids.includes(d.channel_id)) return { cancel: 'The channel was removed from the subscription' };
        const ch = await channel(d.tenant_id, d.channel_id);
        if (!ch) return { cancel: 'The channel was deleted' };
        if (ch.unreadable) return unreadable(s.created_by, s.dashboard_name, ch);
        const key = `${s.id}:${d.slot_at.toISOString()}`;
        return {
          owner: s.created_by,
          name: s.dashboard_name,
          channel: ch,
          report: () =>
            this.memo.get(key, async () => {
              const report = await this.dashboards.report(s);
              if (!report) throw Object.assign(new Error('The dashboard was deleted'), { status: 404 });
              return report;
            }),
        };
      }),
    );
  }
}
