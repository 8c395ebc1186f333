import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { withErrors } from '../../lib/schemas.ts';
import { CatalogEntrySchema, CodeParams, ExecuteResponse, executeQuerySchema } from './insights.schemas.ts';
import type { ExecuteParams, InsightsService } from './insights.service.ts';

export const insightsRoutes =
  (insights: InsightsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['insights'];
    app.get(
      '/api/v1/insights',
      { schema: { tags, summary: 'The insight catalog', response: withErrors({ 200: Type.Array(CatalogEntrySchema) }) } },
      async () => insights.catalog(),
    );
    app.get(
      '/api/v1/insights/:code/execute',
      {
        schema: {
          tags,
          summary: 'Run a catalog insight',
          params: CodeParams,
          querystring: executeQuerySchema(insights.filterParameters()),
          response: withErrors({ 200: ExecuteResponse }, 404, 409, 503),
        },
      },
      // Text from the service, not an object: a cache hit reuses the JSON it was serialized to once.
      async (req, reply) => reply.type('application/json; charset=utf-8').send(await insights.executeJson(req.auth.tenantId, req.params.code, req.query as ExecuteParams)),
    );
  };
