import type { AuthContext } from '../../auth/context.ts';
import { mayManage, ownerScope } from '../../auth/policy.ts';
import type { Clock } from '../../lib/clock.ts';
import { insightNotInModel, invalidField, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { InsightSubscriptionsRepository } from './insight-subscriptions.repository.ts';
import { type AlertCondition, type AlertShape, checkCondition, isAnomaly } from './alert-condition.ts';
import type { ChannelDirectory, InsightRunner, InsightSubscriptionRecord } from './ports.ts';
import type { SendNowQueue } from '../deliveries/delivery.ts';
import { nextSlotAfter } from './schedule.ts';
import { resolveSchedule, scheduleOf } from './schedule-input.ts';
import type { CreateInsightSubscription, InsightSubscriptionView, SendNowView } from './subscriptions.schemas.ts';

/** What a subscription runs its insight with. */
export interface InsightParams {
  granularity: string;
  country?: string | null;
  filters?: Record<string, string | string[]> | null;
  compare?: string | null;
}

/** What the insight catalog tells about a code: enough to validate and name a subscription. */
export interface InsightCatalog {
  find(code: string): { code: string; name: string; granularities: readonly string[] } | undefined;
  /** Throws a 400 naming the body field when the insight does not take these parameters. */
  check(tenantId: string, code: string, params: InsightParams): void;
  /** What an alert condition can read on this insight. */
  alertShape(code: string): AlertShape | undefined;
}

/** The condition as stored: its fields in a fixed order, the anomaly's sensitivity made explicit. */
function storedCondition(c: AlertCondition): AlertCondition {
  const measure = c.measure ? { measure: c.measure } : {};
  if (isAnomaly(c)) return { kind: 'anomaly', ...measure, sensitivity: c.sensitivity ?? 'medium' };
  return { op: c.op, value: c.value, ...measure };
}

export class InsightSubscriptionsService {
  constructor(
    private readonly repo: InsightSubscriptionsRepository,
    private readonly catalog: InsightCatalog & Pick<InsightRunner, 'find'>,
    private readonly channels: ChannelDirectory,
    private readonly queue: SendNowQueue,
    private readonly clock: Clock,
  ) {}

  toView(s: InsightSubscriptionRecord): InsightSubscriptionView {
    return {
      id: s.id,
      insight_code: s.insight_code,
      // From the catalog, so a renamed insight shows its current name.
      insight_name: this.catalog.find(s.insight_code)?.name ?? s.insight_code,
      channel_id: s.channel_id,
      channel_type: s.channel_type,
      schedule: s.schedule,
      schedule_time: s.schedule_time,
      schedule_day_of_week: s.schedule_day_of_week,
      schedule_day_of_month: s.schedule_day_of_month,
      granularity: s.granularity,
      country: s.country,
      filters: s.filters,
      compare: s.compare,
      is_active: s.is_active,
      created_at: s.created_at.toISOString(),
      next_run_at: s.next_run_at ? s.next_run_at.toISOString() : null,
      timezone: s.timezone,
      cron: s.cron,
      condition: s.condition,
      notify: s.notify,
      last_checked_at: s.last_checked_at ? s.last_checked_at.toISOString() : null,
      last_condition_met: s.last_condition_met,
    };
  }

  async create(auth: AuthContext, b: CreateInsightSubscription): Promise<InsightSubscriptionView> {
    const insight = this.catalog.find(b.insight_code);
    if (!insight) throw invalidField('/body/insight_code', `names no insight of the catalog ("${b.insight_code}")`);
    if (b.country !== undefined && b.filters?.country !== undefined)
      throw invalidField('/body/filters/country', 'is given as country already');
    this.catalog.check(auth.tenantId, insight.code, {
      granularity: b.granularity,
      country: b.country,
      filters: b.filters,
      compare: b.compare,
    });
    const schedule = resolveSchedule(b, true);
    if (b.condition) {
      const shape = this.catalog.alertShape(insight.code)!;
      checkCondition(b.condition, shape);
      // A series per filter value has no one headline value to check; an anomaly alert judges each.
      const split = Object.entries(b.filters ?? {}).find(([, v]) => Array.isArray(v) && v.length > 1);
      if (split && shape.kind === 'timeseries' && !isAnomaly(b.condition))
        throw invalidField(`/body/filters/${split[0]}`, 'takes one value on a subscription with a condition');
    }
    if (b.notify !== undefined && !b.condition) throw invalidField('/body/notify', 'is only allowed with a condition');
    const channelType = await this.channels.typeFor(auth, b.channel_id);
    if (!channelType) throw invalidField('/body/channel_id', `names no channel of yours ("${b.channel_id}")`);
    const now = this.clock.now();
    const record: InsightSubscriptionRecord = {
      id: newId(),
      tenant_id: auth.tenantId,
      created_by: auth.userId,
      subscriber_attributes: (auth.attributes as Record<string, string[]> | undefined) ?? null,
      insight_code: insight.code,
      channel_id: b.channel_id,
      channel_type: channelType,
      schedule: schedule.schedule,
      schedule_time: schedule.time,
      schedule_day_of_week: schedule.dayOfWeek ?? null,
      schedule_day_of_month: schedule.dayOfMonth ?? null,
      granularity: b.granularity,
      country: b.country ?? null,
      filters: b.filters && Object.keys(b.filters).length ? b.filters : null,
      compare: b.compare ?? null,
      is_active: true,
      next_run_at: nextSlotAfter(schedule, now),
      created_at: now,
      timezone: schedule.timeZone,
      cron: schedule.cron,
      condition: b.condition ? storedCondition(b.condition) : null,
      notify: b.notify ?? 'every_time',
      last_checked_at: null,
      last_condition_met: null,
    };
    await this.repo.insert(record);
    return this.toView(record);
  }

  async list(auth: AuthContext): Promise<InsightSubscriptionView[]> {
    const rows = await this.repo.list(auth.tenantId, ownerScope(auth));
    return rows.map((r) => this.toView(r));
  }

  /** Managers reach the whole tenant, members their own; anything else is 404. */
  private async get(auth: AuthContext, id: string): Promise<InsightSubscriptionRecord> {
    const s = await this.repo.find(auth.tenantId, id);
    if (!s || !mayManage(auth, s)) throw notFound('Subscription');
    return s;
  }

  async setActive(auth: AuthContext, id: string, active: boolean): Promise<InsightSubscriptionView> {
    const s = await this.get(auth, id);
    // Re-activation starts from the next slot to come: slots passed while inactive are not sent.
    const next = active ? (s.is_active && s.next_run_at ? s.next_run_at : nextSlotAfter(scheduleOf(s), this.clock.now())) : null;
    const updated = await this.repo.setActive(auth.tenantId, id, active, next);
    if (!updated) throw notFound('Subscription');
    return this.toView(updated);
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    await this.get(auth, id);
    if (!(await this.repo.delete(auth.tenantId, id))) throw notFound('Subscription');
  }

  async sendNow(auth: AuthContext, id: string): Promise<SendNowView> {
    const s = await this.get(auth, id);
    if (!this.catalog.find(s.insight_code)) throw insightNotInModel(s.insight_code, 'The subscription');
    const queued = await this.queue.sendNow({ tenantId: s.tenant_id, kind: 'insight', subscriptionId: s.id, channelIds: [s.channel_id] });
    return { subscription_id: s.id, subscription_kind: 'insight', slot_at: queued.slot_at.toISOString(), deliveries: queued.deliveries };
  }
}
