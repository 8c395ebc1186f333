// Child of sdk-load.test.ts: builds the app with a resolve hook that reports every module of the
// MCP SDK as it is imported, serves a REST request, then an MCP one, and prints what was loaded when.
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const loaded: string[] = [];
port1.on('message', (url: string) => loaded.push(url));
const hook = `let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.includes('@modelcontextprotocol')) port.postMessage(r.url);
  return r;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`, { data: { port: port2 }, transferList: [port2] });

const settle = () => new Promise((r) => setTimeout(r, 200));
const { buildTestApp } = await import('../../helpers/app.ts');
const t = await buildTestApp();
const auth = await t.login({ tenant: 'demo', user: 'u', role: 'member' });
const headers = { authorization: auth, 'content-type': 'application/json' };
await t.app.inject({ method: 'GET', url: '/api/v1/insights/revenue/execute', headers: { authorization: auth } });
await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
await settle();
const atStart = loaded.length;
const mcp = await t.app.inject({
  method: 'POST',
  url: '/api/v1/mcp',
  headers,
  payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
});
await settle();
await t.close();
port1.close();
process.stdout.write(JSON.stringify({ atStart, afterMcp: loaded.length, status: mcp.statusCode }));
