// `insights demo seed`: (re)generates the demo warehouse, refused beside a model of the user's own.
import { buildApp } from '../app.ts';
import type { Config } from '../config/index.ts';
import { systemClock } from '../lib/clock.ts';
import { DEMO_OWNER } from '../modules/starter/starter.service.ts';
import { openRuntime, type Runtime } from '../runtime.ts';
import type { Warehouse } from '../warehouse/warehouse.ts';
import { loadModel } from '../semantic/model.ts';
import { DEFAULT_SEED_ROWS, DEFAULT_TENANTS, seedDemo } from '../warehouse/demo/demo.ts';
import { onDemoModel, openWarehouse, WarehouseLockedError } from '../warehouse/open.ts';
import { RollupStore } from '../warehouse/rollups/rollups.ts';
import { options, UsageError, type Command } from './args.ts';

/** The memory ceiling of `insights demo seed` when the configured one is smaller. */
const SEED_MEMORY_LIMIT = '2GB';

const UNITS: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };

/** The larger of two sizes in DuckDB's syntax ('128MB', '2GiB'); an unreadable one loses. */
function largerSize(a: string, b: string): string {
  const bytes = (s: string) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b|b)\s*$/i.exec(s);
    return m ? Number(m[1]) * UNITS[m[2].toLowerCase()] : -1;
  };
  return bytes(a) >= bytes(b) ? a : b;
}

/**
 * The demo tenant's "Start here" dashboard, made by the same service as the API's (through the
 * app, without listening), once: a re-seed makes no second copy (docs/web.md "First run").
 */
async function starterDashboard(
  config: Config,
  runtime: Runtime,
  warehouse: Warehouse,
  model: ReturnType<typeof loadModel>,
): Promise<void> {
  const app = await buildApp({ config, db: runtime.db, clock: systemClock, secrets: runtime.secrets, warehouse, model, logger: false });
  try {
    const made = await app.services.starter.ensure(DEMO_OWNER);
    console.log(
      made
        ? `Made the "${made.name}" dashboard for tenant ${DEMO_OWNER.tenantId} (${made.widget_ids.length} widgets).`
        : `Tenant ${DEMO_OWNER.tenantId} has had its starter dashboard already: none made.`,
    );
  } finally {
    await app.close();
  }
}

export const demo: Command = async (config, args) => {
  const [sub, ...rest] = args;
  if (sub !== 'seed') throw new UsageError('demo needs seed');
  // The demo's tables (orders, products…) would take names the user's model may use.
  if (!onDemoModel(config)) {
    throw new UsageError(
      `INSIGHTS_MODEL is set (${config.modelPath}): the demo data belongs to the demo model and is not seeded beside ` +
        `a model of your own. ` +
        'Load your data with insights data load --table T --file F --tenant X (docs/data.md), or unset INSIGHTS_MODEL for the demo.',
    );
  }
  const { values } = options(rest, ['rows', 'tenants']);
  const rows = values.rows === undefined ? DEFAULT_SEED_ROWS : Number(values.rows.replace(/_/g, ''));
  if (!Number.isInteger(rows) || rows < 1 || rows > 200_000_000) throw new UsageError('--rows must be a whole number from 1 to 200000000');
  const tenants = (values.tenants ?? DEFAULT_TENANTS.join(','))
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (!tenants.length || tenants.some((t) => !/^[A-Za-z0-9_.-]{1,100}$/.test(t)))
    throw new UsageError('--tenants must be a comma-separated list of tenant ids');
  // Migrating first also takes the data-dir lock, so a running server makes this refuse cleanly.
  const runtime = await openRuntime(config);
  try {
    // The process has the warehouse to itself: generating 100 M orders needs more than the
    // server's query ceiling, and row order does not matter (docs/data.md "Demo data").
    const seedConfig = { ...config, duckdb: { ...config.duckdb, memoryLimit: largerSize(config.duckdb.memoryLimit, SEED_MEMORY_LIMIT) } };
    const warehouse = await openWarehouse(seedConfig).catch((err) => {
      throw err instanceof WarehouseLockedError ? new UsageError(err.message) : err;
    });
    try {
      const started = Date.now();
      const now = systemClock.now();
      const { perTenant } = await seedDemo(warehouse, { rows, tenants, endDay: now.toISOString().slice(0, 10), now, exclusive: true });
      const counts = Object.entries(perTenant)
        .map(([t, n]) => `${t}: ${n}`)
        .join(', ');
      console.log(
        `Seeded ${rows} orders (${counts}) into the ${warehouse.dialect} warehouse in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
      const model = loadModel(config.modelPath);
      // A re-seed outdates every rollup: rebuild them now rather than at the server's next start.
      for (const b of await new RollupStore(warehouse, model.rollups).build()) {
        console.log(
          b.skipped ? `Rollup ${b.rollup}: not built, ${b.skipped}.` : `Rollup ${b.rollup}: built in ${(b.ms / 1000).toFixed(1)} s.`,
        );
      }
      if (tenants.includes(DEMO_OWNER.tenantId)) await starterDashboard(config, runtime, warehouse, model);
    } finally {
      await warehouse.close();
    }
  } finally {
    await runtime.close();
  }
};
