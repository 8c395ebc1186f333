// The `insights` command. Each sub-command opens only what it needs; errors a person can fix are
// printed as one line to stderr with a non-zero exit, never a stack trace.
import fs from 'node:fs';
import nodePath from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config/index.ts';
import { DataDirLockedError, } from './db/lock.ts';
import { StartupError } from './lib/startup.ts';
import { isTenantId, TENANT_ID_RULE, } from './auth/context.ts';
import { systemClock } from './lib/clock.ts';
import { openRuntime } from './runtime.ts';
import { onDemoModel, openWarehouse, WarehouseLockedError } from './warehouse/open.ts';
import { DEFAULT_SEED_ROWS, DEFAULT_TENANTS, seedDemo } from './warehouse/demo.ts';
import { loadModel, ModelError } from './semantic/model.ts';
import { RollupStore } from './warehouse/rollups.ts';
import { need, options, UsageError, type Command } from './commands/args.ts';
import { withWarehouse } from './commands/open.ts';
import { mcp } from './commands/mcp.ts';
import { migrate, serve } from './commands/serve.ts';
import { jwt, token } from './commands/tokens.ts';
import { loadDataFile } from './modules/data/data.cli.ts';
import { parseDateFormat, parseDelimiter } from './warehouse/load-formats.ts';
import { dataFileOf, LOAD_MODES, LoadError, tableNameProblem, type DataFile, type LoadMode } from './warehouse/load.ts';
import { tenantColumns } from './semantic/tenancy.ts';
import { progressReporter } from './lib/progress.ts';

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

const USAGE = `Usage: insights <command>

  serve                                   start the HTTP API (what npm start runs)
  migrate                                 apply database migrations
  token create --tenant T --user U --role owner|admin|member [--name N] [--email E]
  token list [--tenant T]
  token revoke ID
  demo seed [--rows N] [--tenants demo,acme]
                                          (re)generate the demo warehouse (N orders over all tenants)
  data load --table T --file F --tenant X [--mode append|replace] [--delimiter ';'] [--date-format D.M.YYYY]
                                          load a CSV/TSV, JSON/NDJSON or Parquet file (optionally .gz)
                                          into a warehouse table for tenant X (docs/data.md)
  rollups build [--rollup CUBE.NAME]      build the model's rollups from the current data (docs/rollups.md)
  rollups status                          each rollup's tenants, rows, build time and whether current
  model check [--model PATH]              validate a model (default INSIGHTS_MODEL, else the demo)
                                          and check its tables and columns in the warehouse
  model init --table T [--table U …] [--out F]
                                          write a starter model from loaded tables (docs/model.md)
  jwt --tenant T --user U --role R [--ttl 1h] [--name N] [--email E]
                                          mint a development JWT (needs INSIGHTS_JWT_SECRET)
  mcp [--url URL] [--token T]             the MCP server on stdin/stdout for AI agents, acting as
                                          INSIGHTS_TOKEN (or --token); --url bridges to a running
                                          server instead of opening the data dir (docs/mcp.md)
`;

const commands: Record<string, Command> = {
  serve,
  migrate,
  token,
  jwt,
  mcp,

  async demo(config, args) {
    const [sub, ...rest] = args;
    if (sub !== 'seed') throw new UsageError('demo needs seed');
    // The demo's tables (orders, products…) would take names the user's model may use.
    if (!onDemoModel(config)) {
      throw new UsageError(
        `INSIGHTS_MODEL is set (${config.modelPath}): the demo data belongs to the demo model and is not seeded beside a model of your own. ` +
          'Load your data with insights data load --table T --file F --tenant X (docs/data.md), or unset INSIGHTS_MODEL for the demo.',
      );
    }
    const { values } = options(rest, ['rows', 'tenants']);
    const rows = values.rows === undefined ? DEFAULT_SEED_ROWS : Number(values.rows.replace(/_/g, ''));
    if (!Number.isInteger(rows) || rows < 1 || rows > 200_000_000) throw new UsageError('--rows must be a whole number from 1 to 200000000');
    const tenants = (values.tenants ?? DEFAULT_TENANTS.join(',')).split(',').map((t) => t.trim()).filter(Boolean);
    if (!tenants.length || tenants.some((t) => !/^[A-Za-z0-9_.-]{1,100}$/.test(t))) throw new UsageError('--tenants must be a comma-separated list of tenant ids');
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
        if (warehouse.dialect === 'duckdb') await warehouse.exec('SET preserve_insertion_order = false');
        const started = Date.now();
        const now = systemClock.now();
        const { perTenant } = await seedDemo(warehouse, { rows, tenants, endDay: now.toISOString().slice(0, 10), now });
        const counts = Object.entries(perTenant).map(([t, n]) => `${t}: ${n}`).join(', ');
        console.log(`Seeded ${rows} orders (${counts}) into the ${warehouse.dialect} warehouse in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
        // A re-seed outdates every rollup: rebuild them now rather than at the server's next start.
        for (const b of await new RollupStore(warehouse, loadModel(config.modelPath).rollups).build()) {
          console.log(b.skipped ? `Rollup ${b.rollup}: not built, ${b.skipped}.` : `Rollup ${b.rollup}: built in ${(b.ms / 1000).toFixed(1)} s.`);
        }
      } finally {
        await warehouse.close();
      }
    } finally {
      await runtime.close();
    }
  },

  async data(config, args) {
    const [sub, ...rest] = args;
    if (sub !== 'load') throw new UsageError('data needs load');
    const { values, positionals } = options(rest, ['table', 'file', 'tenant', 'mode', 'delimiter', 'date-format']);
    if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const table = need(values, 'table');
    const tableProblem = tableNameProblem(table);
    if (tableProblem) throw new UsageError(`--table ${tableProblem}`);
    const tenantId = need(values, 'tenant');
    if (!isTenantId(tenantId)) throw new UsageError(`--tenant must be ${TENANT_ID_RULE}`);
    const mode = (values.mode ?? 'append') as LoadMode;
    if (!LOAD_MODES.includes(mode)) throw new UsageError('--mode must be append or replace');
    const path = need(values, 'file');
    let file: DataFile;
    try {
      file = dataFileOf(path);
    } catch (err) {
      throw new UsageError(`--file: ${(err as Error).message}`);
    }
    for (const [option, set] of [
      ['delimiter', (v: string) => (file.delimiter = parseDelimiter(v))],
      ['date-format', (v: string) => (file.dateFormat = parseDateFormat(v).format)],
    ] as const) {
      try {
        if (values[option] !== undefined) set(values[option]);
      } catch (err) {
        throw new UsageError(`--${option}: ${(err as Error).message}`);
      }
    }
    if (!fs.existsSync(path)) throw new UsageError(`--file ${path} does not exist`);
    await loadDataFile(config, { table, file, tenantId, mode });
  },

  async model(config, args) {
    const [sub, ...rest] = args;
    if (sub === 'init') return modelInit(config, rest);
    if (sub !== 'check') throw new UsageError('model needs check or init');
    const { values } = options(rest, ['model']);
    const { runModelCheck } = await import('./semantic/model-check.ts');
    // The system of record, when one exists: an embedded one not created yet has nothing to check.
    const openRecords = async () =>
      config.databaseUrl || fs.existsSync(nodePath.join(config.dataDir, 'pgdata')) ? openRuntime(config) : undefined;
    process.exitCode = await runModelCheck(
      values.model ?? config.modelPath,
      () => openWarehouse(config),
      { out: (line) => console.log(line), err: (line) => console.error(line) },
      openRecords,
    );
  },

  async rollups(config, args) {
    const [sub, ...rest] = args;
    if (sub !== 'build' && sub !== 'status') throw new UsageError('rollups needs build or status');
    const { values } = options(rest, sub === 'build' ? ['rollup'] : []);
    const model = loadModel(config.modelPath);
    if (values.rollup && !model.rollups.some((r) => r.id === values.rollup || r.name === values.rollup)) {
      throw new UsageError(`--rollup: the model has no rollup ${values.rollup} (it has: ${model.rollups.map((r) => r.id).join(', ') || 'none'})`);
    }
    await withWarehouse(config, async (warehouse) => {
      const store = new RollupStore(warehouse, model.rollups);
      if (sub === 'build') {
        if (!model.rollups.length) return void console.log('The model declares no rollups (pre_aggregations).');
        for (const b of await store.build(values.rollup ? [values.rollup] : undefined)) {
          if (b.failed) {
            console.log(`${b.rollup}: failed: ${b.failed}`);
            process.exitCode = 1;
            continue;
          }
          console.log(b.skipped ? `${b.rollup}: not built, ${b.skipped}` : `${b.rollup}: built for ${b.tenants.length} tenant${b.tenants.length === 1 ? '' : 's'} in ${(b.ms / 1000).toFixed(1)} s`);
          for (const x of b.left_out ?? []) console.log(`  ${x.tenant}: left out, ${x.problem}`);
        }
      } else {
        for (const r of await store.status()) {
          console.log(`${r.rollup} (${r.table}, ${r.granularity}${r.partition_granularity ? `, partitions by ${r.partition_granularity}` : ''})`);
          if (!r.tenants.length) console.log('  not built');
          for (const t of r.tenants) console.log(`  ${t.tenant}: ${t.rows.toLocaleString('en')} rows, built ${t.built_at}, ${t.current ? 'current' : 'outdated (the raw rows answer until it is rebuilt)'}`);
          for (const p of r.problems) console.log(`  ${p.tenant || 'every tenant'}: problem (${p.attempts} attempt${p.attempts === 1 ? '' : 's'}, last ${p.failed_at}): ${p.problem}`);
        }
      }
    });
  },

};

/** `insights model init`: a starter model from loaded tables (src/semantic/starter.ts). */
async function modelInit(config: Config, args: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { table: { type: 'string', multiple: true }, out: { type: 'string' } }, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const tables = (parsed.values.table ?? []).map((t) => t.trim()).filter(Boolean);
  if (!tables.length) throw new UsageError('--table is required (once per table: --table sales --table customers)');
  const out = parsed.values.out;
  if (out && fs.existsSync(out)) throw new UsageError(`--out ${out} exists; name a new file (the starter model never overwrites one)`);
  const { profileTable, starterModel } = await import('./semantic/starter.ts');
  // The tables' tenant columns as the configured model names them (tenant_id where it names none).
  let tenantColumnOf;
  try {
    tenantColumnOf = tenantColumns(loadModel(config.modelPath));
  } catch {
    tenantColumnOf = undefined;
  }
  await withWarehouse(config, async (warehouse) => {
    const loaded = await warehouse.tables(tenantColumnOf);
    const progress = progressReporter();
    const profiles = [];
    for (const name of tables) {
      const table = loaded.find((t) => t.name === name);
      if (!table) {
        const names = loaded.map((t) => t.name);
        throw new UsageError(`--table ${name}: no such table in the ${warehouse.dialect} warehouse (${names.length ? `loaded: ${names.join(', ')}` : 'load one first: insights data load --table … --file …'})`);
      }
      progress.step(`Reading ${name}`);
      profiles.push(await profileTable(warehouse, { name, columns: table.columns, tenantColumn: table.tenantColumn }));
    }
    const { yaml, model, notes } = starterModel(profiles, systemClock.now().toISOString().slice(0, 10));
    if (out) fs.writeFileSync(out, yaml, { flag: 'wx' });
    else process.stdout.write(yaml);
    for (const n of notes) process.stderr.write(`note: ${n}\n`);
    const counts = `${model.cubes?.length} cube${model.cubes?.length === 1 ? '' : 's'}, ${model.insights?.length} insights`;
    if (out) progress.done(`Wrote ${out} (${counts}). Check it with: insights model check --model ${out}`);
  });
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return name ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`insights: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  try {
    const { config: loadEnv } = await import('dotenv');
    loadEnv({ quiet: true } as never);
    await command(loadConfig(), args);
    return Number(process.exitCode ?? 0);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`insights ${name}: ${err.message}\n`);
      return 2;
    }
    if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof StartupError || err instanceof WarehouseLockedError || err instanceof LoadError || err instanceof ModelError) {
      process.stderr.write(`insights: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

const code = await main(process.argv.slice(2));
// serve keeps running on its own handles; the other commands end here.
if (process.argv[2] !== 'serve') process.exit(code);
else if (code !== 0) process.exit(code);

