// The web app (web/, built into web/dist by `npm run build:web`, which `npm install` runs) is
// served by the API process itself: hashed assets under /assets/ cached for good, and index.html
// for the app's own paths, so a reload or a shared link opens the right page. Everything else
// (/api, /docs, /healthz, /readyz, /metrics, unknown paths) stays with the API and its problems.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** The client routes of web/src/App.tsx; each answers with index.html. */
const APP_ROUTES = [
  '/',
  '/sign-in',
  '/dashboards',
  '/dashboards/:id',
  '/chat',
  '/insights',
  '/insights/:code',
  '/explore',
  '/notifications',
  '/settings',
];

/** Serves the app when it has been built; returns whether it did. */
export async function installWeb(app: FastifyInstance, dist = WEB_DIST): Promise<boolean> {
  const indexFile = path.join(dist, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn(`The web app is not built (${indexFile} is missing): run \`npm run build:web\`. The API works without it.`);
    return false;
  }
  // index.html is small and changes only with a build: read once, sent with no-cache so a new
  // build is picked up at the next load, while the hashed assets it names are cached for good.
  const index = fs.readFileSync(indexFile);
  // The app's files are public (the token is entered in the page); rate limits do not count them.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/assets/')) route.config = { ...(route.config ?? {}), public: true };
  });
  await app.register(fastifyStatic, {
    root: path.join(dist, 'assets'),
    prefix: '/assets/',
    index: false,
    wildcard: true,
    immutable: true,
    preCompressed: true,
    maxAge: '365d',
    decorateReply: false,
  });
  const hidden = { schema: { hide: true }, config: { public: true } };
  const page = (reply: FastifyReply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header(
        'Content-Security-Policy',
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; font-src 'self'; connect-src " +
          "'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
      )
      .send(index);
  for (const url of APP_ROUTES) app.get(url, hidden, async (_req, reply) => page(reply));
  // Any other path: a browser gets the app's "Page not found" (status 404), never a JSON problem;
  // API clients, and every path under /api/, get the problem as before.
  app.get('/*', hidden, async (req, reply) => {
    const html = /\btext\/html\b/.test(req.headers.accept ?? '');
    if (!html || req.url.startsWith('/api/')) return reply.callNotFound();
    return page(reply.code(404));
  });
  return true;
}
