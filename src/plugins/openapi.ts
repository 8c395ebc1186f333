// The OpenAPI 3.1 document is generated from the same TypeBox schemas the routes validate with.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Insights Service API',
        version: '1.0.0',
        description: 'Chat, insights, dashboards with widgets, scheduled reports and notifications.',
      },
      components: {
        securitySchemes: {
          svcToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Svc <token>' },
          bearerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
      security: [{ svcToken: [] }, { bearerJwt: [] }],
    },
    // Routes whose body may be left out (the widget refresh, the channel test, send-now) say so with x-body-optional;
    // @fastify/swagger would otherwise mark every declared body as required.
    transformObject: (documentObject) => {
      const doc = (documentObject as { openapiObject: { paths?: Record<string, Record<string, any>> } }).openapiObject;
      for (const methods of Object.values(doc.paths ?? {})) {
        for (const op of Object.values(methods)) {
          if (op?.['x-body-optional']) {
            if (op.requestBody) op.requestBody.required = false;
            delete op['x-body-optional'];
          }
        }
      }
      return doc;
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  // swagger-ui's routes must stay reachable without credentials.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...(route.config ?? {}), public: true };
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/api/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
