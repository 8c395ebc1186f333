// Builds the application from its dependencies. The server and the tests build the same app; only
// the dependencies differ (database, clock, third-party endpoints).
import type { Config } from './config/index.ts';
import type { Db } from './db/index.ts';
import type { Clock } from './lib/clock.ts';
import type { SecretBox } from './lib/secrets.ts';
import { JwtVerifier } from './auth/jwt.ts';
import type { FastifyInstance } from 'fastify';
import { installAuth } from './plugins/auth.ts';
import { createHttpApp } from './plugins/http.ts';
import { FixedWindowCounter } from './lib/fixed-window.ts';
import { installHealth } from './plugins/health.ts';
import { installWeb } from './plugins/web.ts';
import { installAbout, packageInfo } from './plugins/about.ts';
import { EgressGuard } from './adapters/egress.ts';
import { EmbedKeysRepository } from './modules/embed/embed-keys.repository.ts';
import { EmbedKeysService } from './modules/embed/embed-keys.service.ts';
import { EmbedTokenVerifier } from './modules/embed/embed-tokens.ts';
import { EmbedService } from './modules/embed/embed.service.ts';
import { FilterValues } from './modules/mcp/filter-values.ts';
import { embedRoutes } from './modules/embed/embed.routes.ts';
import { installEmbedPages } from './plugins/embed-pages.ts';
import { TokensRepository } from './modules/tokens/tokens.repository.ts';
import { TokensService } from './modules/tokens/tokens.service.ts';
import { tokensRoutes } from './modules/tokens/tokens.routes.ts';
import { ConnectorsRepository } from './modules/connectors/connectors.repository.ts';
import { ConnectorsService } from './modules/connectors/connectors.service.ts';
import { connectorsRoutes } from './modules/connectors/connectors.routes.ts';
import { ChatRepository } from './modules/chat/chat.repository.ts';
import { ChatRateLimiter } from './modules/chat/chat.rate-limit.ts';
import { ChatService } from './modules/chat/chat.service.ts';
import { chatRoutes } from './modules/chat/chat.routes.ts';
import { DashboardsRepository } from './modules/dashboards/dashboards.repository.ts';
import { DashboardsService } from './modules/dashboards/dashboards.service.ts';
import { dashboardsRoutes } from './modules/dashboards/dashboards.routes.ts';
import { WidgetsRepository } from './modules/dashboards/widgets.repository.ts';
import { WidgetsService } from './modules/dashboards/widgets.service.ts';
import { widgetsRoutes } from './modules/dashboards/widgets.routes.ts';
import { widgetRefreshRoutes } from './modules/dashboards/widget-refresh.routes.ts';
import { checkPresetFilters } from './modules/dashboards/widget-source.ts';
import { StoredRowsAccess } from './modules/dashboards/stored-rows.ts';
import { TextBlocksRepository } from './modules/dashboards/text-blocks.repository.ts';
import { TextBlocksService } from './modules/dashboards/text-blocks.service.ts';
import { textBlocksRoutes } from './modules/dashboards/text-blocks.routes.ts';
import type { Warehouse } from './warehouse/warehouse.ts';
import { InsightsService } from './modules/insights/insights.service.ts';
import { loadModel, type SemanticModel } from './semantic/model.ts';
import { insightsFastAnswers, insightsRoutes } from './modules/insights/insights.routes.ts';
import { queryFastAnswers, queryRoutes } from './modules/query/query.routes.ts';
import { QueryService } from './modules/query/query.service.ts';
import type { WidgetQueries } from './modules/dashboards/widget-query.ts';
import { createTransports } from './adapters/delivery/index.ts';
import type { Transports } from './adapters/delivery/types.ts';
import { ChannelsRepository } from './modules/channels/channels.repository.ts';
import { ChannelsService } from './modules/channels/channels.service.ts';
import { channelsRoutes } from './modules/channels/channels.routes.ts';
import { dashboardsPort, insightsPort } from './modules/reports/report-sources.ts';
import { DashboardPdfService } from './modules/reports/dashboard-pdf.ts';
import { dashboardPdfRoutes } from './modules/reports/dashboard-pdf.routes.ts';
import { ReportImages } from './modules/reports/report-images.ts';
import { ReportImagesRepository } from './modules/reports/report-images.repository.ts';
import { reportImagesRoutes } from './modules/reports/report-images.routes.ts';
import { chartsOnFirstUse } from './adapters/charts/on-demand.ts';
import { DeliveriesRepository } from './modules/deliveries/deliveries.repository.ts';
import { deliveryLogsRoutes } from './modules/deliveries/deliveries.routes.ts';
import { cancelChannelDeliveries, DeliveryLogsService, DeliveryQueue } from './modules/deliveries/deliveries.service.ts';
import { dropChannelFromSubscriptions } from './modules/subscriptions/channel-removal.ts';
import { DashboardSubscriptionsRepository } from './modules/subscriptions/dashboard-subscriptions.repository.ts';
import { DashboardSubscriptionsService } from './modules/subscriptions/dashboard-subscriptions.service.ts';
import { InsightSubscriptionsRepository } from './modules/subscriptions/insight-subscriptions.repository.ts';
import { InsightSubscriptionsService } from './modules/subscriptions/insight-subscriptions.service.ts';
import { dashboardSubscriptionsRoutes, insightSubscriptionsRoutes } from './modules/subscriptions/subscriptions.routes.ts';
import { DeliveryWorker } from './jobs/delivery-worker.ts';
import { SubscriptionDeliveryTargets } from './modules/subscriptions/delivery-targets.ts';
import { NotificationLoops } from './jobs/notification-loops.ts';
import { Scheduler } from './jobs/scheduler.ts';
import { DataRepository } from './modules/data/data.repository.ts';
import { DataService } from './modules/data/data.service.ts';
import { modelColumns, tenantColumns } from './semantic/tenancy.ts';
import { RollupStore } from './warehouse/rollups/rollups.ts';
import { dataRoutes } from './modules/data/data.routes.ts';
import { McpService } from './modules/mcp/mcp.service.ts';
import { mcpRoutes } from './modules/mcp/mcp.routes.ts';
import { StarterRepository } from './modules/starter/starter.repository.ts';
import { starterRoutes } from './modules/starter/starter.routes.ts';
import { StarterService } from './modules/starter/starter.service.ts';

/**
 * The services the app built, reachable as app.services by the process (server.ts starts workers
 * with them) and by tests. Each domain adds its own entry.
 */
export interface Services {
  tokens: TokensService;
  /** The only way out to the network: AI providers, webhooks, the messenger API. */
  egress: EgressGuard;
  /** AI connectors; activeClient(tenantId) gives the tenant's active provider client, if any. */
  connectors: ConnectorsService;
  /** Chat: ask(auth, {message, history_id?}) answers with the insight engine's figures. */
  chat: ChatService;
  /** Dashboards; findForSystem/getForSystem load one with its widgets without an HTTP caller. */
  dashboards: DashboardsService;
  /** Widgets; execute() gives a widget's data without a caller, recordRefresh stores a refresh's chart_hint. */
  widgets: WidgetsService;
  /** The insight engine: catalog(), find(), execute(), resolve(), run(). */
  insights: InsightsService;
  /** The semantic query engine (docs/query.md): run(), plan(), describe(), dimensionValues(), dataSpan(). */
  queries: QueryService;
  /** What widgets that hold a query use of the engines. */
  widgetQueries: WidgetQueries;
  /** Sends a Report to a channel by its type (messenger, webhook, email); throws DeliveryError. */
  transports: Transports;
  /** Data loading: load(auth, table, mode, upload), tables(auth). */
  data: DataService;
  /** The model's rollup tables in the warehouse: server.ts starts their upkeep (docs/rollups.md). */
  rollups: RollupStore;
  /** Notification channels; getForDelivery/typeFor for subscriptions, onDelete(hook) for the cascade. */
  channels: ChannelsService;
  /** Subscriptions, the delivery queue and log; scheduler.tick() and deliveryWorker.runOnce() drive them in tests. */
  insightSubscriptions: InsightSubscriptionsService;
  dashboardSubscriptions: DashboardSubscriptionsService;
  deliveryLogs: DeliveryLogsService;
  scheduler: Scheduler;
  deliveryWorker: DeliveryWorker;
  /** The background scheduler + worker loops: server.ts starts them; they stop when the app closes. */
  notificationLoops: NotificationLoops;
  /** The "Start here" dashboard: ensure(auth) at the demo seed, make(auth) when asked for. */
  starter: StarterService;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  /** The analytics warehouse the insight catalog runs on (DuckDB or PostgreSQL); the caller owns and closes it. */
  warehouse: Warehouse;
  /** The semantic model; loaded from config.modelPath (else the demo shop) when not given. */
  model?: SemanticModel;
  /** Outbound HTTP; built from config.egressAllow when not given (tests pass one trusting their CA). */
  egress?: EgressGuard;
  /** Pino options, or false to stay quiet (tests). */
  logger?: boolean | Record<string, unknown>;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, clock } = deps;
  const app = await createHttpApp({
    logger: deps.logger ?? false,
    metrics: deps.logger !== false,
    corsOrigins: config.corsOrigins,
    rateLimitPerMinute: config.rateLimitPerMinute,
    trustProxy: config.trustProxy,
  });

  // Repositories and services: each gets only what it uses.
  const tokens = new TokensService(new TokensRepository(db), clock);
  // Verified API tokens are answered from memory until api_tokens changes (migration 040 announces
  // every change to every instance): no query per request, revocation still immediate.
  await tokens.cacheVerified((onChange) => db.listen('insights_api_tokens', onChange));
  app.addHook('onClose', () => tokens.stopCaching());
  const jwt = new JwtVerifier(config.jwt);

  const egress = deps.egress ?? new EgressGuard(config.egressAllow);
  app.addHook('onClose', async () => {
    if (!deps.egress) await egress.close();
  });

  // Dashboards read from memory until a change touches them (migration 765 names the rows it touched).
  const dashboardsRepo = new DashboardsRepository(db);
  await dashboardsRepo.cacheReads((onChange) => db.listen('insights_dashboard_rows', onChange));
  app.addHook('onClose', () => dashboardsRepo.stopCaching());
  const widgetsRepo = new WidgetsRepository(db, (tenantId, dashboardId) => dashboardsRepo.changed(tenantId, dashboardId, false));
  const model = deps.model ?? loadModel(config.modelPath);
  const rollups = new RollupStore(deps.warehouse, model.rollups, clock);
  // Before the caller closes the warehouse: a background build must not run under a closed one.
  app.addHook('onClose', () => rollups.stop());
  const insights = new InsightsService(deps.warehouse, clock, model, rollups);
  // Semantic queries run through the insights' runner: one compiler, one set of rollups, one warehouse path.
  const queries = new QueryService(insights.runner, clock, () => insights.catalog());
  const storedRows = new StoredRowsAccess(insights.model);
  const dashboards = new DashboardsService(
    dashboardsRepo,
    widgetsRepo,
    clock,
    (filters, where) => checkPresetFilters(insights, filters, where),
    storedRows,
  );
  const widgetQueries: WidgetQueries = {
    plan: (query, where) => queries.plan(query, where),
    run: (scope, query, where) => queries.run(scope, query, where),
    filterMember: (name) => insights.filterMember(name),
    today: () => insights.today(),
  };
  const widgets = new WidgetsService(widgetsRepo, dashboards, clock, insights, widgetQueries, { storedRows });

  // Each tenant's active AI connector from memory until ai_connectors changes (migration 731).
  const connectorsRepo = new ConnectorsRepository(db);
  await connectorsRepo.cacheReads((onChange) => db.listen('insights_ai_connectors', onChange));
  app.addHook('onClose', () => connectorsRepo.stopCaching());
  const connectors = new ConnectorsService(connectorsRepo, deps.secrets, clock, egress, config.providerUrls);

  const chat = new ChatService(
    new ChatRepository(db),
    insights,
    queries,
    connectors,
    new ChatRateLimiter(config.chatRateLimitPerMinute, clock),
    clock,
    (d, m) => app.log.warn(d, m),
  );

  const tenantColumnOf = tenantColumns(model);
  const data = new DataService(deps.warehouse, new DataRepository(deps.warehouse, tenantColumnOf), rollups, {
    tenantColumnOf,
    modelColumnsOf: modelColumns(model),
    concurrentLoads: config.dataConcurrentLoads,
    modelTables: [...model.cubes.values()].flatMap((c) => (c.def.sql_table && !c.def.sql_table.includes('.') ? [c.def.sql_table] : [])),
  });

  // Charts for the chat tools are published on INSIGHTS_PUBLIC_URL (docs/channels.md); without it none.
  const charts = chartsOnFirstUse();
  const reportImages = new ReportImages(new ReportImagesRepository(db), charts, clock, config.publicUrl ?? '');
  const transports = createTransports(config, egress, charts, config.publicUrl ? reportImages : undefined);
  const channels = new ChannelsService(new ChannelsRepository(db), db, deps.secrets, clock, transports);

  // What is sent, when, exactly once: subscriptions of both kinds, the delivery queue and log, the
  // scheduler and the worker, seeing the other modules through the narrow ports of subscriptions/ports.ts.
  const insightSource = insightsPort(insights);
  const dashboardSource = dashboardsPort(dashboards, widgets, clock);
  const deliveriesRepo = new DeliveriesRepository(db);
  const insightSubscriptionsRepo = new InsightSubscriptionsRepository(db);
  const dashboardSubscriptionsRepo = new DashboardSubscriptionsRepository(db);
  const deliveryQueue = new DeliveryQueue(deliveriesRepo, clock);
  const insightSubscriptions = new InsightSubscriptionsService(insightSubscriptionsRepo, insightSource, channels, deliveryQueue, clock);
  const dashboardSubscriptions = new DashboardSubscriptionsService(
    dashboardSubscriptionsRepo,
    dashboardSource,
    channels,
    deliveryQueue,
    clock,
  );
  const deliveryLogs = new DeliveryLogsService(deliveriesRepo);
  const targets = new SubscriptionDeliveryTargets(
    insightSubscriptionsRepo,
    dashboardSubscriptionsRepo,
    channels,
    insightSource,
    dashboardSource,
  );
  const onWorkerError = (err: unknown) => app.log.error({ err }, 'delivery worker');
  const deliveryWorker = new DeliveryWorker(deliveriesRepo, targets, transports, clock, { onError: onWorkerError });
  const scheduler = new Scheduler(db, clock, (at) => deliveryWorker.wakeAt(at));
  deliveryQueue.onEnqueued(() => deliveryWorker.wake());
  const notificationLoops = new NotificationLoops(scheduler, deliveryWorker, clock, 1_000, onWorkerError);
  // No loop may outlive the app (tests close it; the server closes it on SIGTERM).
  app.addHook('onClose', () => notificationLoops.stop());

  // Deleting a channel reaches into the domains that point at it, in its delete transaction.
  channels.onDelete(dropChannelFromSubscriptions);
  channels.onDelete(cancelChannelDeliveries(clock));

  const services: Services = {
    tokens,
    egress,
    connectors,
    chat,
    dashboards,
    widgets,
    insights,
    queries,
    widgetQueries,
    transports,
    channels,
    data,
    rollups,
    insightSubscriptions,
    dashboardSubscriptions,
    deliveryLogs,
    scheduler,
    deliveryWorker,
    notificationLoops,
    starter: new StarterService(
      new StarterRepository(db),
      { dashboards, widgets, catalog: () => insights.catalog(), rolling: (code) => insights.isRolling(code) },
      clock,
    ),
  };
  app.decorate('services', services);

  // One count of failed authentications per address, for API credentials and embed tokens alike.
  const authFailures = new FixedWindowCounter(config.authFailuresPerMinute, clock);
  installAuth(app, tokens, jwt, authFailures);
  installHealth(app, { db });
  const web = await installWeb(app);
  installAbout(app, { commit: config.commit, warehouseDialect: deps.warehouse.dialect, redirectHome: !web });

  await app.register(tokensRoutes(tokens));
  await app.register(connectorsRoutes(connectors));
  await app.register(chatRoutes(chat));
  await app.register(starterRoutes(services.starter));
  await app.register(dashboardsRoutes(dashboards));
  await app.register(widgetsRoutes(widgets));
  await app.register(textBlocksRoutes(new TextBlocksService(new TextBlocksRepository(db), dashboards, clock)));
  await app.register(insightsRoutes(insights, new FilterValues(insights, clock)));
  await app.register(queryRoutes(queries));
  app.fastAnswers.add(insightsFastAnswers(insights));
  app.fastAnswers.add(queryFastAnswers(queries));
  await app.register(widgetRefreshRoutes(widgets, insights.filterParameters()));
  await app.register(dashboardPdfRoutes(new DashboardPdfService(dashboards, widgets, clock), insights.filterParameters()));
  await app.register(channelsRoutes(channels));
  await app.register(reportImagesRoutes(reportImages));
  await app.register(insightSubscriptionsRoutes(insightSubscriptions));
  await app.register(dashboardSubscriptionsRoutes(dashboardSubscriptions));
  await app.register(deliveryLogsRoutes(deliveryLogs));
  await app.register(dataRoutes(data, { maxBytes: config.dataMaxBytes, maxRows: config.dataMaxRows }));
  // AI agents over the Model Context Protocol: the tools call the services above as the caller.
  // Embedded analytics (docs/embedding.md): keys, and embed tokens verified by the embed routes alone.
  const embedKeys = new EmbedKeysService(new EmbedKeysRepository(db), deps.secrets, clock);
  const fetchJwks = async (url: string) => {
    const res = await egress.request(url, { timeoutMs: 5_000, maxBytes: 64 * 1024, headers: { accept: 'application/json' } });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    return res.json();
  };
  const embedTokens = new EmbedTokenVerifier(embedKeys, fetchJwks, clock);
  await app.register(
    embedRoutes(
      embedKeys,
      new EmbedService(dashboards, widgets, insights, chat, new FilterValues(insights, clock)),
      embedTokens,
      insights.filterParameters(),
      authFailures,
    ),
  );
  installEmbedPages(app, embedKeys);
  await app.register(
    mcpRoutes(new McpService({ insights, queries, chat, dashboards, widgets, clock }), { version: packageInfo().version }),
  );

  return app;
}
