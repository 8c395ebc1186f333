import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AuthContext } from '../../auth/context.ts';
import { READS_WAREHOUSE, withErrors } from '../../lib/schemas.ts';
import { SemanticQuerySchema } from '../../semantic/query/query.schema.ts';
import { MemberParams, ModelResponse, QueryResponse, ValuesQuery } from './query.schemas.ts';
import type { QueryService } from './query.service.ts';

/** POST /api/v1/query's answers from memory (src/plugins/fast-answers.ts): a body answered before, sent again as it was. */
export const queryFastAnswers = (queries: QueryService) => ({
  method: 'POST' as const,
  url: '/api/v1/query',
  prefix: '/api/v1/query',
  answer: (auth: Readonly<AuthContext>, _url: string, body?: string) => (body === undefined ? undefined : queries.cachedJson(auth, body)),
});

export const queryRoutes =
  (queries: QueryService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['query'];
    app.post(
      '/api/v1/query',
      {
        schema: {
          tags,
          summary: 'Ask any question the model can answer: measures by dimensions, filtered, over a window (docs/query.md)',
          body: SemanticQuerySchema,
          response: withErrors({ 200: QueryResponse }, ...READS_WAREHOUSE),
        },
      },
      // Text from the service, not an object: a cache hit reuses the JSON it was serialized to once. A
      // body read before routing (fast-answers.ts) is remembered as sent, to be answered early next time.
      async (req, reply) =>
        reply.type('application/json; charset=utf-8').send(await queries.runJson(req.auth, req.body, req.earlyBody?.toString('utf8'))),
    );
    app.get(
      '/api/v1/model',
      {
        schema: {
          tags,
          summary: "What a query may name: the cubes' measures, dimensions and segments, the joins, the insights",
          response: withErrors({ 200: ModelResponse }),
        },
      },
      async () => ({ data: queries.describe() }),
    );
    app.get(
      '/api/v1/model/dimensions/:member/values',
      {
        schema: {
          tags,
          summary: "A dimension's values in the caller's data (at most 1,000), optionally those containing q",
          params: MemberParams,
          querystring: ValuesQuery,
          response: withErrors({ 200: Type.Array(Type.String()) }, ...READS_WAREHOUSE, 404),
        },
      },
      async (req) => queries.dimensionValues(req.auth, req.params.member, req.query.q),
    );
  };
