// Child of first-use.test.ts: builds the app with a load hook that reports every package whose
// modules are loaded; serves REST requests (catalog, an
// execute, dashboards, chat through the built-in parser, the OpenAPI document) and prints what src/
// loaded of them.
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const loaded = new Set<string>();
port1.on('message', (name: string) => loaded.add(name));
// A load hook, not a resolve one: import.meta.resolve (src/db/index.ts names PGlite's module for
// its child process) resolves without loading.
const hook = `let port;
const WATCHED = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\/(?:build\\/(value)\\/)?/;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) {
  const m = WATCHED.exec(url);
  if (m) port.postMessage(m[2] ? m[1] + '/' + m[2] : m[1]);
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`, { data: { port: port2 }, transferList: [port2] });

const { buildTestApp } = await import('../helpers/app.ts');
const t = await buildTestApp();
const auth = await t.login({ tenant: 'demo', user: 'u', role: 'admin' });
const headers = { authorization: auth, 'content-type': 'application/json' };
const statuses = [
  (await t.app.inject({ method: 'GET', url: '/api/v1/insights', headers })).statusCode,
  (await t.app.inject({ method: 'GET', url: '/api/v1/insights/revenue/execute?granularity=month', headers })).statusCode,
  (await t.app.inject({ method: 'GET', url: '/api/v1/dashboards/', headers })).statusCode,
  (await t.app.inject({ method: 'POST', url: '/api/v1/ai/chat', headers, payload: JSON.stringify({ message: 'revenue last month' }) }))
    .statusCode,
  (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).statusCode,
];
await new Promise((r) => setTimeout(r, 200));
await t.close();
port1.close();
process.stdout.write(JSON.stringify({ statuses, loaded: [...loaded].sort() }));
