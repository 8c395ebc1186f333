// Process concerns only: configuration, runtime, listen, graceful close.
import { buildApp } from './app.ts';
import type { Config } from './config/index.ts';
import { systemClock } from './lib/clock.ts';
import { openRuntime } from './runtime.ts';
import { TokensRepository } from './modules/tokens/tokens.repository.ts';
import { TokensService } from './modules/tokens/tokens.service.ts';
import type { Db } from './db/index.ts';
import { openWarehouse } from './warehouse/open.ts';
import { DEFAULT_SEED_ROWS, DEFAULT_TENANTS, seedDemo, warehouseIsEmpty } from './warehouse/demo.ts';
import { formatIssue, loadModel } from './semantic/model.ts';
import { probeModel } from './semantic/probe.ts';

/** On the very first start, an owner token for tenant demo, so the service can be tried at once. */
async function issueFirstOwnerToken(db: Db): Promise<string | undefined> {
  const claimed = await db.query(
    `INSERT INTO app_state (key, value) VALUES ('first_owner_token', to_jsonb(now()))
     ON CONFLICT (key) DO NOTHING RETURNING key`,
  );
  if (claimed.length === 0) return undefined;
  const tokens = new TokensService(new TokensRepository(db), systemClock);
  const { token } = await tokens.create({
    tenantId: 'demo',
    name: 'first start',
    userId: 'owner',
    userName: 'Demo Owner',
    email: 'owner@demo.example',
    role: 'owner',
  });
  return token;
}

export async function serve(config: Config): Promise<void> {
  // An invalid model stops start-up before anything is opened (ModelError lists every problem).
  const model = loadModel(config.modelPath);
  const runtime = await openRuntime(config);
  const warehouse = await openWarehouse(config).catch(async (err) => {
    await runtime.close();
    throw err;
  });
  // First start with the demo model: demo data, generated only into an empty warehouse.
  let seeded: string | undefined;
  if (!config.modelPath && (await warehouseIsEmpty(warehouse))) {
    const started = Date.now();
    const now = systemClock.now();
    await seedDemo(warehouse, { rows: DEFAULT_SEED_ROWS, tenants: DEFAULT_TENANTS, endDay: now.toISOString().slice(0, 10), now });
    seeded = `Generated the demo warehouse (${DEFAULT_SEED_ROWS} orders for ${DEFAULT_TENANTS.join(', ')}) in ${Date.now() - started} ms`;
  }
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
  if (seeded) app.log.info(seeded);
  // Tables and columns the warehouse lacks are warnings: their data may be loaded later.
  for (const w of await probeModel(model, warehouse)) app.log.warn(`model: ${formatIssue(w).trim()}`);
  if (runtime.masterKeyGenerated) {
    app.log.warn(`No INSIGHTS_MASTER_KEY set: generated one into ${config.dataDir}/master.key (keep it; secrets depend on it)`);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
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

  await app.listen({ host: config.host, port: config.port });
  // Scheduled deliveries: the first tick also sends slots missed while down (< 6 h late). The
  // loops stop when the app closes (app.close() above waits for sends in flight to be recorded).
  app.services.notificationLoops.start();
  const token = await issueFirstOwnerToken(runtime.db);
  if (token) {
    const { port } = app.server.address() as { port: number };
    // Printed, never logged: it is shown once and only its hash is stored.
    process.stdout.write(
      `\nFirst start: an owner token for tenant "demo" (shown once, keep it):\n\n  ${token}\n\n` +
        `Try: curl -H "Authorization: Svc ${token}" http://${config.host}:${port}/api/v1/dashboards/\n\n`,
    );
  }
}
