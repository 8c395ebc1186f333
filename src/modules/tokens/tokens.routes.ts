import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { NoContent, ResourceId, withErrors } from '../../lib/schemas.ts';
import { CreatedTokenSchema, CreateTokenBody, TokenSchema } from './tokens.schemas.ts';
import type { TokensService } from './tokens.service.ts';

export const tokensRoutes =
  (tokens: TokensService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['auth'];
    app.post(
      '/api/v1/auth/tokens',
      { schema: { tags, summary: 'Create an API token', body: CreateTokenBody, response: withErrors({ 201: CreatedTokenSchema }, 403) } },
      async (req, reply) => {
        const b = req.body;
        const { token, view } = await tokens.createFor(req.auth, {
          name: b.name,
          userId: b.user_id,
          userName: b.user_name,
          email: b.email,
          role: b.role,
          ...(b.attributes ? { attributes: b.attributes } : {}),
        });
        return reply.code(201).send({ ...view, token });
      },
    );
    app.get(
      '/api/v1/auth/tokens',
      { schema: { tags, summary: 'List API tokens (masked)', response: withErrors({ 200: Type.Array(TokenSchema) }, 403) } },
      async (req) => tokens.listFor(req.auth),
    );
    app.delete(
      '/api/v1/auth/tokens/:id',
      {
        schema: {
          tags,
          summary: 'Revoke an API token',
          params: Type.Object({ id: ResourceId }),
          response: withErrors({ 204: NoContent }, 403),
        },
      },
      async (req, reply) => {
        await tokens.revokeFor(req.auth, req.params.id);
        return reply.code(204).send(null);
      },
    );
  };
