// Process concerns only: configuration, runtime, listen, graceful close.
import { buildApp } from './app.ts';
import type { Config } from './config/index.ts';
import { systemClock } from './lib/clock.ts';
import { openRuntime } from './runtime.ts';
import { DEMO_OWNER } from './modules/starter/starter.service.ts';
import { listenError } from './lib/startup.ts';
import { lowerOtherThreads } from './lib/thread-priority.ts';
import { releaseHeapWhenIdle } from './lib/idle-heap.ts';
import { heapReleaseMetric } from './plugins/metrics.ts';
import { seedDemoIfEmpty } from './warehouse/demo/demo.ts';
import { onDemoModel, openWarehouse, seedNewEmbedded } from './warehouse/open.ts';
import { formatIssue, loadModel } from './semantic/model.ts';
import { probeModel } from './semantic/probe.ts';

export async function serve(config: Config): Promise<void> {
  // An invalid model stops start-up before anything is opened (ModelError lists every problem).
  const model = loadModel(config.modelPath);
  const runtime = await openRuntime(config);
  // First start with the demo model: demo data, generated only into an empty warehouse. A new
  // DuckDB file is seeded by a child process, so this one never holds the seed's memory. On a
  // model of the user's own nothing of the demo is created or seeded.
  const demo = onDemoModel(config);
  const seededInChild = await seedNewEmbedded(config, systemClock.now()).catch(async (err) => {
    await runtime.close();
    throw err;
  });
  const warehouse = await openWarehouse(config).catch(async (err) => {
    await runtime.close();
    throw err;
  });
  const seeded = seededInChild ?? (demo ? await seedDemoIfEmpty(warehouse, systemClock.now()) : undefined);
  const app = await buildApp({
    config,
    db: runtime.db,
    clock: systemClock,
    secrets: runtime.secrets,
    warehouse,
    model,
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
  });
  if (seeded) app.log.info(`Generated the demo warehouse (${seeded.rows} orders for ${seeded.tenants.join(', ')}) in ${seeded.ms} ms`);
  // With the demo data comes the demo tenant's "Start here" dashboard, once (docs/web.md "First run").
  if (seeded?.tenants.includes(DEMO_OWNER.tenantId) && (await app.services.starter.ensure(DEMO_OWNER)))
    app.log.info('Made the demo tenant\'s "Start here" dashboard');
  if (seededInChild?.rollups?.length) app.log.info(`Built the demo rollups with it: ${seededInChild.rollups.join(', ')}`);
  // Tables and columns the warehouse lacks are warnings: their data may be loaded later.
  for (const w of await probeModel(model, warehouse)) app.log[w.severity === 'error' ? 'error' : 'warn'](`model: ${formatIssue(w).trim()}`);
  if (runtime.masterKeyGenerated) {
    app.log.warn(`No INSIGHTS_MASTER_KEY set: generated one into ${config.dataDir}/master.key (keep it; secrets depend on it)`);
  }

  let stopIdleRelease = () => {};
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    stopIdleRelease();
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await warehouse.close();
      await runtime.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    // Nothing was served: close what was opened, so the process can exit with the one-line reason.
    await app.close().catch(() => {});
    await warehouse.close().catch(() => {});
    await runtime.close().catch(() => {});
    throw listenError(err, config.host, config.port) ?? err;
  }
  // Listening, every thread exists (libuv's pool, DuckDB's workers, V8's helpers): they yield to the event loop.
  if (config.threadNice > 0) {
    const lowered = lowerOtherThreads(config.threadNice);
    if (lowered) app.log.info(`${lowered} threads but the event loop's run at nice ${config.threadNice}`);
  }
  // V8's heap, grown by a burst of requests, goes back to the system once nothing is in flight
  // (docs/footprint.md, "Giving the heap back when idle").
  if (config.idleReleaseMs > 0 && !process.features.inspector) {
    app.log.info("idle: this node has no inspector, so V8's heap is left to V8's own memory reducer");
  } else if (config.idleReleaseMs > 0) {
    const pauses = heapReleaseMetric(app.metrics);
    const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
    stopIdleRelease = releaseHeapWhenIdle(app.server, {
      idleMs: config.idleReleaseMs,
      onRelease: (r) => {
        pauses.observe(r.ms / 1000);
        app.log.debug(`idle: V8's heap ${mb(r.before)} → ${mb(r.after)} MB in ${r.ms.toFixed(0)} ms`);
      },
      onError: (err) => app.log.warn({ err }, "idle: V8's heap was not given back"),
    }).stop;
  }
  // Scheduled deliveries: the first tick also sends slots missed while down (< 6 h late). The
  // loops stop when the app closes (app.close() above waits for sends in flight to be recorded).
  app.services.notificationLoops.start();
  // Rollups not built from the current data are built in the background; queries read the raw
  // rows meanwhile (docs/rollups.md).
  app.services.rollups.start(
    (err) => app.log.error({ err }, 'rollup build failed'),
    (builds) => {
      for (const b of builds) {
        if (b.failed) app.log.error(`rollup ${b.rollup}: build failed (the raw rows answer; see insights rollups status): ${b.failed}`);
        else
          app.log.info(
            b.skipped
              ? `rollup ${b.rollup}: not built, ${b.skipped}`
              : `rollup ${b.rollup}: built for ${b.tenants.length} tenants in ${b.ms} ms`,
          );
        for (const x of b.left_out ?? []) app.log.warn(`rollup ${b.rollup}: tenant ${x.tenant} left out: ${x.problem}`);
      }
    },
  );
  const token = await app.services.tokens.createFirstOwnerToken();
  if (token) {
    const { port } = app.server.address() as { port: number };
    // Printed, never logged: it is shown once and only its hash is stored.
    process.stdout.write(
      `\nFirst start: an owner token for tenant "demo" (shown once, keep it):\n\n  ${token}\n\n` +
        `Try: curl -H "Authorization: Svc ${token}" http://${config.host}:${port}/api/v1/dashboards/\n\n`,
    );
  }
}
