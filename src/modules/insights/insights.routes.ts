import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { READS_WAREHOUSE, withErrors } from '../../lib/schemas.ts';
import type { AuthContext } from '../../auth/context.ts';
import {
  CatalogEntrySchema,
  CodeParams,
  ExecuteResponse,
  FilterOptionsQuery,
  FilterOptionsSchema,
  executeQuerySchema,
} from './insights.schemas.ts';
import type { ExecuteParams, InsightsService } from './insights.service.ts';

/** The values of each filter dimension in the data a caller may read (src/modules/mcp/filter-values.ts). */
export interface FilterValueSource {
  of(auth: AuthContext): Promise<Record<string, string[]>>;
}

export const insightsRoutes =
  (insights: InsightsService, values: FilterValueSource): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['insights'];
    app.get(
      '/api/v1/insights/filters',
      {
        schema: {
          tags,
          summary: "The filter dimensions of the catalog with their values in the caller's data (for pickers)",
          querystring: FilterOptionsQuery,
          response: withErrors({ 200: Type.Array(FilterOptionsSchema) }),
        },
      },
      async (req) => {
        const known = await values.of(req.auth);
        const q = req.query.q?.trim().toLowerCase();
        return insights
          .filterParameters()
          .filter((f) => !req.query.name || f.name === req.query.name)
          .map((f) => {
            const all = known[f.name] ?? [];
            return {
              name: f.name,
              label: f.label,
              values: q ? all.filter((v) => v.toLowerCase().includes(q)) : all,
              listed: f.name in known,
              ...(insights.filterMember(f.name) ? { member: insights.filterMember(f.name) } : {}),
            };
          });
      },
    );
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
          response: withErrors({ 200: ExecuteResponse }, ...READS_WAREHOUSE, 404),
        },
      },
      // Text from the service, not an object: a cache hit reuses the JSON it was serialized to once.
      async (req, reply) =>
        reply
          .type('application/json; charset=utf-8')
          .send(await insights.executeJson(req.auth, req.params.code, req.query as ExecuteParams, req.url)),
    );
  };

/**
 * The execute route's answers from memory (src/plugins/fast-answers.ts): a URL this route answered
 * before, sent again by a caller of the same tenant and attributes, answered from the result cache
 * before routing. Same bytes as the handler's answer to it.
 */
export const insightsFastAnswers = (insights: InsightsService) => ({
  url: '/api/v1/insights/:code/execute',
  prefix: '/api/v1/insights/',
  answer: (auth: Readonly<AuthContext>, url: string) => insights.cachedJson(auth, url),
});
