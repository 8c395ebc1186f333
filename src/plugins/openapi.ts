// The OpenAPI 3.1 document is generated from the same TypeBox schemas the routes validate with;
// src/plugins/openapi-document.ts completes it (operation ids, named schemas, problem responses).
import fs from 'node:fs';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { completeDocument, type OpenApiDocument } from './openapi-document.ts';

const PACKAGE_VERSION = packageVersion();

/**
 * The version of the package this file belongs to: the nearest package.json above it, so it is
 * found from src/ and from a compiled copy alike (a JSON import would pin the layout).
 */
function packageVersion(): string {
  for (let dir = new URL('.', import.meta.url); ; dir = new URL('..', dir)) {
    const file = new URL('package.json', dir);
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')).version;
    if (dir.pathname === '/') throw new Error('No package.json above src/plugins/openapi.ts');
  }
}

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Insights Service API',
        version: PACKAGE_VERSION,
        description: 'Chat, insights, dashboards with widgets, scheduled reports and notifications.',
      },
      // Relative to where the document is served, so it is right behind any host or proxy.
      servers: [{ url: '/', description: 'The server this document is served from' }],
      components: {
        securitySchemes: {
          svcToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Svc <token>' },
          bearerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
      security: [{ svcToken: [] }, { bearerJwt: [] }],
    },
    // A public route (health, the version, the document itself) needs no credentials: say so with
    // an empty security list, which also keeps 401 off its responses.
    transform: ({ schema, url, route }) => ({
      schema: route.config && (route.config as { public?: boolean }).public && schema ? { ...schema, security: [] } : schema,
      url,
    }),
    transformObject: (documentObject) =>
      completeDocument((documentObject as unknown as { openapiObject: OpenApiDocument }).openapiObject) as never,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  // swagger-ui's routes must stay reachable without credentials.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/docs')) return;
    route.config = { ...(route.config ?? {}), public: true };
    // For browsers that know no frame-ancestors.
    const own = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [
      ...own,
      (_req, reply, done) => {
        reply.header('X-Frame-Options', 'DENY');
        done();
      },
    ];
  });
  // The docs page may not be framed (clickjacking) and runs only its own scripts: swagger-ui's
  // CSP (with the hashes of its inline parts), framed by nothing and without
  // upgrade-insecure-requests, which would break it on a plain-HTTP server.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', validatorUrl: null },
    staticCSP: true,
    transformStaticCSP: (csp) =>
      csp
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'; form-action 'self'")
        .replace(' validator.swagger.io', '')
        .replace(/ ?upgrade-insecure-requests;/, ''),
  });
  app.get('/api/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
