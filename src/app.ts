// Builds the application from its dependencies. The server and the tests build the same app; only
// the dependencies differ (database, clock, third-party endpoints).
import Fastify, { type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import crypto from 'node:crypto';
import type { Config } from './config/index.ts';
import type { Db } from './db/index.ts';
import type { Clock } from './lib/clock.ts';
import { AppError } from './lib/errors.ts';
import { Problem } from './lib/schemas.ts';
import type { SecretBox } from './lib/secrets.ts';
import { JwtVerifier } from './auth/jwt.ts';
import { callerKey, installAuth } from './plugins/auth.ts';
import { FixedWindowCounter } from './lib/fixed-window.ts';
import { clientErrorHandler, frameworkErrorHandler, installDrainingAnswer, installErrorHandling } from './plugins/errors.ts';
import { installNulGuard } from './plugins/nul-guard.ts';
import { installMetrics } from './plugins/metrics.ts';
import { installOpenApi } from './plugins/openapi.ts';
import { installHealth } from './plugins/health.ts';
import { installWeb } from './plugins/web.ts';
import { installAbout, packageInfo } from './plugins/about.ts';
import { EgressGuard } from './adapters/egress.ts';
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
import type { Warehouse } from './warehouse/warehouse.ts';
import { InsightsService } from './modules/insights/insights.service.ts';
import { loadModel, type SemanticModel } from './semantic/model.ts';
import { insightsRoutes } from './modules/insights/insights.routes.ts';
import { FilterValues } from './modules/mcp/filter-values.ts';
import { createTransports } from './adapters/delivery/index.ts';
import type { Transports } from './adapters/delivery/types.ts';
import { ChannelsRepository } from './modules/channels/channels.repository.ts';
import { ChannelsService } from './modules/channels/channels.service.ts';
import { channelsRoutes } from './modules/channels/channels.routes.ts';
import { dashboardsPort, insightsPort } from './modules/reports/report-sources.ts';
import { DashboardPdfService } from './modules/reports/dashboard-pdf.ts';
import { dashboardPdfRoutes } from './modules/reports/dashboard-pdf.routes.ts';
import { DeliveriesRepository } from './modules/deliveries/deliveries.repository.ts';
import { deliveryLogsRoutes } from './modules/deliveries/deliveries.routes.ts';
import { DeliveryLogsService, DeliveryQueue } from './modules/deliveries/deliveries.service.ts';
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
import { RollupStore } from './warehouse/rollups.ts';
import { dataRoutes } from './modules/data/data.routes.ts';
import { McpService } from './modules/mcp/mcp.service.ts';
import { mcpRoutes } from './modules/mcp/mcp.routes.ts';

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

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    // Unknown fields are refused (schemas say additionalProperties: false), never silently dropped.
    removeAdditional: false,
    allErrors: true,
    useDefaults: true,
    // Query strings and path params arrive as text; bodies are JSON and must have the right types.
    coerceTypes: coerce ? 'array' : false,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, clock } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: 1024 * 1024,
    // Answered as problem documents by installDrainingAnswer and clientErrorHandler instead.
    return503OnClosing: false,
    clientErrorHandler,
    genReqId: () => crypto.randomUUID(),
    // Router errors (bad percent-encoding, an over-long path parameter) happen before any route or
    // error handler is chosen; they leave as problem documents too.
    frameworkErrors: frameworkErrorHandler,
    ajv: { customOptions: { removeAdditional: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const bodyAjv = makeAjv(false);
  const paramsAjv = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : paramsAjv).compile(schema as object),
  );
  // JSON only: text/plain bodies get 415 instead of reaching a schema as a string.
  app.removeContentTypeParser('text/plain');
  // Many clients send Content-Type: application/json on a DELETE or POST with no body. An empty
  // body is no body; routes that need one still say so through their schema.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    parseJson(req, body as string, done);
  });
  app.addSchema(Problem);

  installDrainingAnswer(app);
  installErrorHandling(app);
  installNulGuard(app);
  await installOpenApi(app);
  installMetrics(app, { defaultMetrics: deps.logger !== false });

  // Browser front ends on other origins: only those listed; none by default. Registered before the
  // rate limit and auth, so a preflight (which carries no credentials) is answered here.
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type'],
      exposedHeaders: ['Link', 'Retry-After', 'WWW-Authenticate'],
      maxAge: 600,
    });
  }

  // Rate limits are per caller: the authentication hook (an app-level onRequest hook) runs before
  // this plugin's route-level one, so the key is who the caller is, not how they spelled the
  // header. Requests that reach it unauthenticated (unknown routes) count per address.
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    keyGenerator: (req) => (req.auth ? callerKey(req.auth) : 'ip:' + req.ip),
    allowList: (req) => Boolean(req.routeOptions.config?.public),
    errorResponseBuilder: (_req, ctx) =>
      new AppError('RATE_LIMITED', `Rate limit of ${ctx.max} requests per minute exceeded; retry in ${Math.ceil(ctx.ttl / 1000)} s.`, {
        headers: { 'Retry-After': String(Math.ceil(ctx.ttl / 1000)) },
      }),
  });

  // Repositories and services: each gets only what it uses.
  const tokens = new TokensService(new TokensRepository(db), clock);
  const jwt = new JwtVerifier(config.jwt);

  const egress = deps.egress ?? new EgressGuard(config.egressAllow);
  app.addHook('onClose', async () => {
    if (!deps.egress) await egress.close();
  });

  const widgetsRepo = new WidgetsRepository(db);
  const dashboards = new DashboardsService(new DashboardsRepository(db), widgetsRepo, clock);
  const model = deps.model ?? loadModel(config.modelPath);
  const rollups = new RollupStore(deps.warehouse, model.rollups, clock);
  // Before the caller closes the warehouse: a background build must not run under a closed one.
  app.addHook('onClose', () => rollups.stop());
  const insights = new InsightsService(deps.warehouse, clock, model, rollups);
  const widgets = new WidgetsService(widgetsRepo, dashboards, clock, insights);

  const connectors = new ConnectorsService(new ConnectorsRepository(db), deps.secrets, clock, egress, config.providerUrls);

  const chat = new ChatService(new ChatRepository(db), insights, connectors, new ChatRateLimiter(config.chatRateLimitPerMinute, clock), clock, (d, m) =>
    app.log.warn(d, m),
  );

  const data = new DataService(deps.warehouse, new DataRepository(deps.warehouse), rollups);

  const transports = createTransports(config, egress);
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
  const dashboardSubscriptions = new DashboardSubscriptionsService(dashboardSubscriptionsRepo, dashboardSource, channels, deliveryQueue, clock);
  const deliveryLogs = new DeliveryLogsService(deliveriesRepo);
  const targets = new SubscriptionDeliveryTargets(insightSubscriptionsRepo, dashboardSubscriptionsRepo, channels, insightSource, dashboardSource);
  const onWorkerError = (err: unknown) => app.log.error({ err }, 'delivery worker');
  const deliveryWorker = new DeliveryWorker(deliveriesRepo, targets, transports, clock, { onError: onWorkerError });
  const scheduler = new Scheduler(db, clock, (at) => deliveryWorker.wakeAt(at));
  deliveryQueue.onEnqueued(() => deliveryWorker.wake());
  const notificationLoops = new NotificationLoops(scheduler, deliveryWorker, clock, 1_000, onWorkerError);
  // No loop may outlive the app (tests close it; the server closes it on SIGTERM).
  app.addHook('onClose', () => notificationLoops.stop());

  // Run inside the channels module's delete transaction (so on PGlite it must use tx): deleting a
  // channel deletes its insight subscriptions, takes it out of dashboard subscriptions (switching
  // off those left with none) and cancels its pending deliveries (docs/notifications.md).
  channels.onDelete(async (tx, tenantId, channelId) => {
    await new InsightSubscriptionsRepository(tx).deleteByChannel(tenantId, channelId);
    await new DashboardSubscriptionsRepository(tx).removeChannel(tenantId, channelId);
    await new DeliveriesRepository(tx).cancelForChannel(tenantId, channelId, clock.now());
  });

  const services: Services = { tokens, egress, connectors, chat, dashboards, widgets, insights, transports, channels, data, rollups,
    insightSubscriptions, dashboardSubscriptions, deliveryLogs, scheduler, deliveryWorker, notificationLoops };
  app.decorate('services', services);

  installAuth(app, tokens, jwt, new FixedWindowCounter(config.authFailuresPerMinute, clock));
  installHealth(app, { db });
  const web = await installWeb(app);
  installAbout(app, { commit: config.commit, warehouseDialect: deps.warehouse.dialect, redirectHome: !web });

  await app.register(tokensRoutes(tokens));
  await app.register(connectorsRoutes(connectors));
  await app.register(chatRoutes(chat));
  await app.register(dashboardsRoutes(dashboards));
  await app.register(widgetsRoutes(widgets));
  await app.register(insightsRoutes(insights, new FilterValues(insights, clock)));
  await app.register(widgetRefreshRoutes(widgets));
  await app.register(dashboardPdfRoutes(new DashboardPdfService(dashboards, widgets, clock), insights.filterParameters()));
  await app.register(channelsRoutes(channels));
  await app.register(insightSubscriptionsRoutes(insightSubscriptions));
  await app.register(dashboardSubscriptionsRoutes(dashboardSubscriptions));
  await app.register(deliveryLogsRoutes(deliveryLogs));
  await app.register(dataRoutes(data, { maxBytes: config.dataMaxBytes }));
  // AI agents over the Model Context Protocol: the tools call the services above as the caller.
  await app.register(mcpRoutes(new McpService({ insights, chat, dashboards, widgets, clock }), { version: packageInfo().version }));

  return app;
}
