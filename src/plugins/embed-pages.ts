// The embedded pages (docs/embedding.md): /embed/dashboards/{id} and /embed/chat, without the
// app's navigation, and the host script /embed/insights.js. The page is the same for every viewer;
// the embed token travels in the URL fragment, which never reaches this server, its logs or a
// Referer. `?key=<embedding key id>` names the key whose allowed origins may frame the page
// (Content-Security-Policy frame-ancestors); without it no page may frame it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { ID_PATTERN } from '../lib/ids.ts';

export const EMBED_WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src/embed');
const ID = new RegExp(ID_PATTERN);

export interface FrameOrigins {
  origins(keyId: string): Promise<string[]>;
}

const escapeAttr = (s: string) => s.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

function page(origins: string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="insights-frame-origins" content="${escapeAttr(origins.join(' '))}">
<title>Insights</title>
<link rel="stylesheet" href="/embed/assets/page.css">
</head>
<body>
<main></main>
<script type="module" src="/embed/assets/page.js"></script>
</body>
</html>
`;
}

export function installEmbedPages(app: FastifyInstance, keys: FrameOrigins, dir = EMBED_WEB_DIR): void {
  if (!fs.existsSync(path.join(dir, 'page.js'))) {
    app.log.warn(`The embedded pages are missing (${dir}); the embed API works without them.`);
    return;
  }
  // Read once: a few kilobytes that change only with a release.
  const files = new Map<string, { body: Buffer; type: string }>([
    ['/embed/assets/page.js', { body: fs.readFileSync(path.join(dir, 'page.js')), type: 'text/javascript; charset=utf-8' }],
    ['/embed/assets/page.css', { body: fs.readFileSync(path.join(dir, 'page.css')), type: 'text/css; charset=utf-8' }],
    ['/embed/insights.js', { body: fs.readFileSync(path.join(dir, 'host.js')), type: 'text/javascript; charset=utf-8' }],
  ]);
  const hidden = { schema: { hide: true }, config: { public: true } };
  for (const [url, file] of files) {
    app.get(url, hidden, async (_req, reply) =>
      reply
        .type(file.type)
        .header('Cache-Control', 'public, max-age=300')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .send(file.body),
    );
  }
  const serve = async (req: { query: unknown }, reply: import('fastify').FastifyReply) => {
    const key = (req.query as Record<string, unknown>).key;
    const origins = typeof key === 'string' && ID.test(key) ? await keys.origins(key) : [];
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header(
        'Content-Security-Policy',
        `default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors ${origins.length ? origins.join(' ') : "'none'"}`,
      )
      .send(page(origins));
  };
  app.get('/embed/dashboards/:id', hidden, serve);
  app.get('/embed/chat', hidden, serve);
}
