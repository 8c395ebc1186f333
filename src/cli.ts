// The `insights` command, one of the two entry points (server.ts, which `serve` starts, is the
// other): dispatches to src/commands/. Each command opens only what it needs; errors a person can
// fix are printed as one line to stderr with a non-zero exit, never a stack trace.
import { ConfigError, loadConfig } from './config/index.ts';
import { DataDirLockedError } from './db/lock.ts';
import { StartupError } from './lib/startup.ts';
import { WarehouseLockedError } from './warehouse/open.ts';
import { ModelError } from './semantic/model.ts';
import { UsageError, type Command } from './commands/args.ts';
import { data } from './commands/data.ts';
import { demo } from './commands/demo.ts';
import { mcp } from './commands/mcp.ts';
import { model } from './commands/model.ts';
import { rollups } from './commands/rollups.ts';
import { migrate } from './commands/migrate.ts';
import { jwt, token } from './commands/tokens.ts';
import { LoadError } from './warehouse/load/rules.ts';

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

/** `insights serve` (what npm start runs): the server's process, loaded only for it. */
const serve: Command = async (config) => (await import('./server.ts')).serve(config);

const commands: Record<string, Command> = {
  serve,
  migrate,
  token,
  jwt,
  mcp,
  demo,
  data,
  model,
  rollups,
};

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
    if (
      err instanceof ConfigError ||
      err instanceof DataDirLockedError ||
      err instanceof StartupError ||
      err instanceof WarehouseLockedError ||
      err instanceof LoadError ||
      err instanceof ModelError
    ) {
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
