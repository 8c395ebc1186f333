import type { AuthContext } from '../../auth/context.ts';
import { ownerScope } from '../../auth/policy.ts';
import type { Clock } from '../../lib/clock.ts';
import { invalidField, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { DashboardSubscriptionRow, DashboardSubscriptionsRepository } from './dashboard-subscriptions.repository.ts';
import type { ChannelDirectory, DashboardAccess, DashboardSubscriptionRecord } from './ports.ts';
import type { SendNowQueue } from '../deliveries/delivery.ts';
import { nextSlotAfter } from './schedule.ts';
import { resolveSchedule, scheduleOf } from './schedule-input.ts';
import type { CreateDashboardSubscription, DashboardSubscriptionView, SendNowView } from './subscriptions.schemas.ts';

export function toDashboardSubscriptionView(s: DashboardSubscriptionRow): DashboardSubscriptionView {
  return {
    id: s.id,
    dashboard_id: s.dashboard_id,
    dashboard_name: s.dashboard_name,
    channel_ids: s.channel_ids,
    schedule: s.schedule,
    schedule_time: s.schedule_time,
    schedule_day_of_week: s.schedule_day_of_week,
    schedule_day_of_month: s.schedule_day_of_month,
    is_active: s.is_active,
    created_at: s.created_at.toISOString(),
    next_run_at: s.next_run_at ? s.next_run_at.toISOString() : null,
    timezone: s.timezone,
    cron: s.cron,
    attach_pdf: s.attach_pdf,
  };
}

/** docs/product.md §4: dashboard subscriptions belong to owners/admins and to the dashboard's creator. */
export class DashboardSubscriptionsService {
  constructor(
    private readonly repo: DashboardSubscriptionsRepository,
    private readonly dashboards: DashboardAccess,
    private readonly channels: ChannelDirectory,
    private readonly queue: SendNowQueue,
    private readonly clock: Clock,
  ) {}

  async create(auth: AuthContext, dashboardId: string, b: CreateDashboardSubscription): Promise<DashboardSubscriptionView> {
    const dashboard = await this.dashboards.getEditable(auth, dashboardId, 'subscribe to this dashboard');
    if (b.dashboard_id !== dashboardId) throw invalidField('/body/dashboard_id', 'must be the id of the dashboard in the path');
    const schedule = resolveSchedule(b, false);
    for (const [i, channelId] of b.channel_ids.entries()) {
      if (!(await this.channels.typeFor(auth, channelId))) {
        throw invalidField(`/body/channel_ids/${i}`, `names no channel of yours ("${channelId}")`);
      }
    }
    const now = this.clock.now();
    const record: DashboardSubscriptionRecord = {
      id: newId(),
      tenant_id: auth.tenantId,
      dashboard_id: dashboard.id,
      created_by: auth.userId,
      subscriber_attributes: (auth.attributes as Record<string, string[]> | undefined) ?? null,
      channel_ids: b.channel_ids,
      schedule: schedule.schedule,
      schedule_time: schedule.time,
      schedule_day_of_week: schedule.dayOfWeek ?? null,
      schedule_day_of_month: schedule.dayOfMonth ?? null,
      is_active: true,
      next_run_at: nextSlotAfter(schedule, now),
      created_at: now,
      timezone: schedule.timeZone,
      cron: schedule.cron,
      attach_pdf: b.attach_pdf ?? true,
    };
    await this.repo.insert(record);
    return toDashboardSubscriptionView({ ...record, dashboard_name: dashboard.name, dashboard_created_by: dashboard.created_by });
  }

  async listAll(auth: AuthContext): Promise<DashboardSubscriptionView[]> {
    const rows = await this.repo.list(auth.tenantId, { dashboardCreator: ownerScope(auth) });
    return rows.map(toDashboardSubscriptionView);
  }

  async listForDashboard(auth: AuthContext, dashboardId: string): Promise<DashboardSubscriptionView[]> {
    await this.dashboards.getEditable(auth, dashboardId, "see this dashboard's subscriptions");
    return (await this.repo.list(auth.tenantId, { dashboardId })).map(toDashboardSubscriptionView);
  }

  private async get(auth: AuthContext, id: string): Promise<DashboardSubscriptionRow> {
    const s = await this.repo.find(auth.tenantId, id);
    if (!s) throw notFound('Subscription');
    try {
      await this.dashboards.getEditable(auth, s.dashboard_id, "manage this dashboard's subscriptions");
    } catch (err) {
      // A dashboard the caller may not view hides its subscriptions too.
      if ((err as { status?: number }).status === 404) throw notFound('Subscription');
      throw err;
    }
    return s;
  }

  async setActive(auth: AuthContext, id: string, active: boolean): Promise<DashboardSubscriptionView> {
    const s = await this.get(auth, id);
    if (active && s.channel_ids.length === 0) {
      throw invalidField('/body/is_active', 'the subscription has no channel left (its channels were deleted)');
    }
    const next = active ? (s.is_active && s.next_run_at ? s.next_run_at : nextSlotAfter(scheduleOf(s), this.clock.now())) : null;
    await this.repo.setActive(auth.tenantId, id, active, next);
    return toDashboardSubscriptionView({ ...s, is_active: active, next_run_at: next });
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    await this.get(auth, id);
    if (!(await this.repo.delete(auth.tenantId, id))) throw notFound('Subscription');
  }

  async sendNow(auth: AuthContext, id: string): Promise<SendNowView> {
    const s = await this.get(auth, id);
    if (s.channel_ids.length === 0) throw invalidField('/params/subId', 'the subscription has no channel left');
    const queued = await this.queue.sendNow({ tenantId: s.tenant_id, kind: 'dashboard', subscriptionId: s.id, channelIds: s.channel_ids });
    return { subscription_id: s.id, subscription_kind: 'dashboard', slot_at: queued.slot_at.toISOString(), deliveries: queued.deliveries };
  }
}
