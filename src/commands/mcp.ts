// `insights mcp`: the MCP server on stdin/stdout, acting as one credential; in this process (the
// same app as the server, without its workers) or bridged to a running server with --url.
import { DataDirLockedError } from '../db/lock.ts';
import { systemClock } from '../lib/clock.ts';
import { connectCause, StartupError } from '../lib/startup.ts';
import type { PostMessage } from '../modules/mcp/mcp.stdio.ts';
import { openRuntime } from '../runtime.ts';
import { loadModel } from '../semantic/model.ts';
import { openWarehouse, WarehouseLockedError } from '../warehouse/open.ts';
import { options, UsageError, type Command } from './args.ts';

export const mcp: Command = async (config, args) => {
  const { values, positionals } = options(args, ['token', 'url']);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const credential = values.token ?? config.token;
  if (!credential) throw new UsageError('needs a credential: set INSIGHTS_TOKEN to an API token or a JWT (or pass --token)');
  const stdio = await import('../modules/mcp/mcp.stdio.ts');
  const authorization = stdio.authorizationFor(credential);
  const log = (line: string) => void process.stderr.write(`${line}\n`);
  const serve = async (post: PostMessage) => {
    const refusal = await stdio.credentialRefusal(post).catch((err) => {
      throw new StartupError('--url', connectCause(err));
    });
    if (refusal) throw new StartupError(values.token ? '--token' : 'INSIGHTS_TOKEN', `refused: ${refusal}`);
    await stdio.serveStdio(post, log);
  };
  if (values.url) return serve(stdio.postToServer(values.url, authorization));
  // In this process: the same app as the server (without its workers), its logs on stderr.
  const model = loadModel(config.modelPath);
  const runtime = await openRuntime(config).catch((err) => {
    if (err instanceof DataDirLockedError)
      throw new UsageError(`${err.message} While it runs, bridge to it: insights mcp --url http://${config.host}:${config.port}`);
    throw err;
  });
  try {
    const warehouse = await openWarehouse(config).catch((err) => {
      throw err instanceof WarehouseLockedError ? new UsageError(err.message) : err;
    });
    try {
      const { buildApp } = await import('../app.ts');
      const app = await buildApp({
        config,
        db: runtime.db,
        clock: systemClock,
        secrets: runtime.secrets,
        warehouse,
        model,
        logger: { level: config.logLevel, stream: process.stderr },
      });
      try {
        await serve(async (message) => {
          const res = await app.inject({
            method: 'POST',
            url: '/api/v1/mcp',
            headers: { authorization, 'content-type': 'application/json' },
            payload: JSON.stringify(message),
          });
          return { status: res.statusCode, body: res.body };
        });
      } finally {
        await app.close();
      }
    } finally {
      await warehouse.close();
    }
  } finally {
    await runtime.close();
  }
};
