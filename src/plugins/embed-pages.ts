// The embedded pages (docs/embedding.md): /embed/dashboards/{id} and /embed/chat, without the
// app's navigation, and the host script /embed/insights.js. The page is the same for every viewer;
// the embed token travels in the URL fragment, which never reaches this server, its logs or a
// Referer. `?key=<embedding key id>` names the key whose allowed origins may frame the page
// (Content-Security-Policy frame-ancestors); without it no page may frame it. The page names the
// key it was served for, and shows nothing for a token of another key (web/src/embed/frame.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ID_PATTERN } from '../lib/ids.ts';
import { WEB_DIST } from './web.ts';

/** host.js, a plain script served as it is (/embed/insights.js): the host page's, not the built app's. */
export const EMBED_HOST_SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src/embed/host.js');
/** The Vite entry of the embedded pages, as the build's manifest names it (web/vite.config.ts). */
const EMBED_ENTRY = 'src/embed/main.tsx';
const ID = new RegExp(ID_PATTERN);

export interface FrameOrigins {
  origins(keyId: string): Promise<string[]>;
}

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
}

/** The embedded page's files in a build: its script, the chunks it imports, their styles, and the charts chunk. */
export interface EmbedAssets {
  script: string;
  preload: string[];
  styles: string[];
  /** The ECharts chunk (lazy.ts), asked for by a dashboard page before its first data arrives. */
  charts: string[];
}

/** The embed entry's files from web/dist/.vite/manifest.json, or undefined when the build has none. */
export function embedAssets(dist: string): EmbedAssets | undefined {
  const file = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) return undefined;
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  const entry = manifest[EMBED_ENTRY];
  if (!entry) return undefined;
  const preload = new Set<string>();
  const styles = new Set<string>(entry.css ?? []);
  const walk = (key: string, into: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const k of chunk.imports ?? []) walk(k, into);
  };
  for (const k of entry.imports ?? []) walk(k, preload);
  const charts = new Set<string>();
  for (const k of Object.keys(manifest).filter((k) => k.endsWith('/charts.ts'))) walk(k, charts);
  for (const f of preload) charts.delete(f);
  const url = (f: string) => `/${f}`;
  return { script: url(entry.file), preload: [...preload].map(url), styles: [...styles].map(url), charts: [...charts].map(url) };
}

/** The app's icon (web/index.html's), inline: a tab showing an embedded page asks for no /favicon.ico. */
const ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E" +
  "%3Crect width='16' height='16' rx='3' fill='%234f6bed'/%3E" +
  "%3Cpath d='M4 12V8M8 12V4M12 12V6' stroke='white' stroke-width='2'/%3E%3C/svg%3E";

const escapeAttr = (s: string) => s.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

function page(key: string, origins: string[], assets: EmbedAssets, dashboard: boolean): string {
  const preload = [...assets.preload, ...(dashboard ? assets.charts : [])];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<meta name="insights-frame-key" content="${escapeAttr(key)}">
<meta name="insights-frame-origins" content="${escapeAttr(origins.join(' '))}">
<title>Insights</title>
<link rel="icon" href="${ICON}">
${assets.styles.map((href) => `<link rel="stylesheet" href="${escapeAttr(href)}">`).join('\n')}
${preload.map((href) => `<link rel="modulepreload" href="${escapeAttr(href)}">`).join('\n')}
</head>
<body>
<main></main>
<script type="module" src="${escapeAttr(assets.script)}"></script>
</body>
</html>
`;
}

/**
 * The embedded pages, drawn by the built web app's embed entry (its assets are served under
 * /assets/ with the app's, src/plugins/web.ts); without a build only the embed API works.
 */
export function installEmbedPages(app: FastifyInstance, keys: FrameOrigins, dist = WEB_DIST): void {
  const assets = embedAssets(dist);
  if (!assets || !fs.existsSync(EMBED_HOST_SCRIPT)) {
    app.log.warn(
      `The embedded pages are not built (no ${EMBED_ENTRY} in ${dist}/.vite/manifest.json): run \`npm run build:web\`. ` +
        'The embed API works without them.',
    );
    return;
  }
  // Read once: a few kilobytes that change only with a release.
  const host = fs.readFileSync(EMBED_HOST_SCRIPT);
  const hidden = { schema: { hide: true }, config: { public: true } };
  app.get('/embed/insights.js', hidden, async (_req, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .send(host),
  );
  const pages = { dashboard: page('', [], assets, true), chat: page('', [], assets, false) };
  const serve = (dashboard: boolean) => async (req: { query: unknown }, reply: FastifyReply) => {
    const key = (req.query as Record<string, unknown>).key;
    const origins = typeof key === 'string' && ID.test(key) ? await keys.origins(key) : [];
    const html = origins.length ? page(key as string, origins, assets, dashboard) : pages[dashboard ? 'dashboard' : 'chat'];
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header(
        'Content-Security-Policy',
        // font-src: the Roboto files charts are drawn in.
        `default-src 'none'; script-src 'self'; style-src 'self'; font-src 'self'; connect-src 'self'; img-src 'self' data:; ` +
          `base-uri 'none'; form-action 'none'; frame-ancestors ${origins.length ? origins.join(' ') : "'none'"}`,
      )
      .send(html);
  };
  app.get('/embed/dashboards/:id', hidden, serve(true));
  app.get('/embed/chat', hidden, serve(false));
}
