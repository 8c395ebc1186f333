// Builds the "what is sent, when, exactly once" half of notifications: subscriptions of both kinds,
// the delivery queue and log, the scheduler and the worker. app.ts calls buildNotifications with
// the other modules adapted to the narrow ports of subscriptions/ports.ts.
import type { FastifyInstance } from 'fastify';
import type { ChannelTransport } from '../../adapters/delivery/types.ts';
import type { Db, Queryable } from '../../db/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { DeliveryWorker, type WorkerOptions } from '../../jobs/delivery-worker.ts';
import { SubscriptionDeliveryTargets } from '../../jobs/delivery-targets.ts';
import { ENQUEUE_AHEAD_MS, Scheduler } from '../../jobs/scheduler.ts';
import { DashboardSubscriptionsRepository } from '../subscriptions/dashboard-subscriptions.repository.ts';
import { DashboardSubscriptionsService } from '../subscriptions/dashboard-subscriptions.service.ts';
import { InsightSubscriptionsRepository } from '../subscriptions/insight-subscriptions.repository.ts';
import { InsightSubscriptionsService, type InsightCatalog } from '../subscriptions/insight-subscriptions.service.ts';
import type { ChannelDirectory, DashboardAccess, DashboardReports, InsightRunner } from '../subscriptions/ports.ts';
import { dashboardSubscriptionsRoutes, insightSubscriptionsRoutes } from '../subscriptions/subscriptions.routes.ts';
import { DeliveriesRepository } from './deliveries.repository.ts';
import { deliveryLogsRoutes } from './deliveries.routes.ts';
import { DeliveryLogsService, DeliveryQueue } from './deliveries.service.ts';

export interface NotificationsDeps {
  db: Db;
  clock: Clock;
  channels: ChannelDirectory;
  insights: InsightRunner & InsightCatalog;
  dashboardAccess: DashboardAccess;
  dashboardReports: DashboardReports;
  transport: ChannelTransport;
  worker?: WorkerOptions;
  /** Scheduler tick period of the background loop. */
  tickMs?: number;
}

/** The background loops of one instance: started by server.ts, stopped when the app closes. */
export class NotificationLoops {
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<unknown>;
  private running = false;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly worker: DeliveryWorker,
    private readonly clock: Clock,
    private readonly tickMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.worker.start();
    const loop = () => {
      this.ticking = this.scheduler
        .tick(ENQUEUE_AHEAD_MS)
        .catch(this.onError)
        .finally(() => {
          // Aligned to the period on the injected clock, so a slot at hh:mm:00 is picked up at once.
          if (this.running) this.timer = setTimeout(loop, this.tickMs - (this.clock.now().getTime() % this.tickMs));
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearTimeout(this.timer);
    await this.ticking;
    await this.worker.stop();
  }
}

export function buildNotifications(deps: NotificationsDeps) {
  const { db, clock } = deps;
  const deliveriesRepo = new DeliveriesRepository(db);
  const insightRepo = new InsightSubscriptionsRepository(db);
  const dashboardRepo = new DashboardSubscriptionsRepository(db);
  const queue = new DeliveryQueue(deliveriesRepo, clock);
  const insightSubscriptions = new InsightSubscriptionsService(insightRepo, deps.insights, deps.channels, queue, clock);
  const dashboardSubscriptions = new DashboardSubscriptionsService(dashboardRepo, deps.dashboardAccess, deps.channels, queue, clock);
  const logs = new DeliveryLogsService(deliveriesRepo);
  const targets = new SubscriptionDeliveryTargets(insightRepo, dashboardRepo, deps.channels, deps.insights, deps.dashboardReports);
  const worker = new DeliveryWorker(deliveriesRepo, targets, deps.transport, clock, deps.worker);
  const scheduler = new Scheduler(db, clock, (at) => worker.wakeAt(at));
  queue.onEnqueued(() => worker.wake());
  const loops = new NotificationLoops(scheduler, worker, clock, deps.tickMs ?? 1_000, (err) => deps.worker?.onError?.(err));

  return {
    insightSubscriptions,
    dashboardSubscriptions,
    deliveryLogs: logs,
    deliveryQueue: queue,
    scheduler,
    deliveryWorker: worker,
    notificationLoops: loops,
    /**
     * The channels module's delete hook, run inside its transaction (so on PGlite it must use tx):
     * deleting a channel deletes its insight subscriptions, takes it out of dashboard subscriptions
     * (switching off those left with none) and cancels its pending deliveries (DESIGN.md §6).
     */
    async onChannelDeleted(tx: Queryable, tenantId: string, channelId: string): Promise<void> {
      await new InsightSubscriptionsRepository(tx).deleteByChannel(tenantId, channelId);
      await new DashboardSubscriptionsRepository(tx).removeChannel(tenantId, channelId);
      await new DeliveriesRepository(tx).cancelForChannel(tenantId, channelId, clock.now());
    },
    async register(app: FastifyInstance): Promise<void> {
      await app.register(insightSubscriptionsRoutes(insightSubscriptions));
      await app.register(dashboardSubscriptionsRoutes(dashboardSubscriptions));
      await app.register(deliveryLogsRoutes(logs));
      // No loop may outlive the app (tests close it; the server closes it on SIGTERM).
      app.addHook('onClose', () => loops.stop());
    },
  };
}

export type Notifications = ReturnType<typeof buildNotifications>;
