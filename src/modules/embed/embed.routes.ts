// Embedding keys (owner/admin, the usual credentials) and the read-only operations an embed token
// may call (docs/embedding.md). The embed routes skip the API's authentication: an embed token is
// verified here, and only here, so it opens nothing else of the API.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { underFailureLimit } from '../../auth/failures.ts';
import { AppError } from '../../lib/errors.ts';
import type { FixedWindowCounter } from '../../lib/fixed-window.ts';
import { EmptyBody, NoContent, READS_WAREHOUSE, withErrors } from '../../lib/schemas.ts';
import { ChatBody, ChatResponse } from '../chat/chat.schemas.ts';
import { ExecuteResponse, executeQuerySchema } from '../insights/insights.schemas.ts';
import type { EmbedKeysService } from './embed-keys.service.ts';
import { EmbedTokenRejected, type EmbedTokenVerifier, type EmbedViewer } from './embed-tokens.ts';
import type { EmbedService } from './embed.service.ts';
import {
  CreateEmbedKeyBody,
  CreatedEmbedKeySchema,
  DashboardParams,
  EmbeddedDashboardSchema,
  EmbedKeySchema,
  KeyParams,
  WidgetChoicesBody,
  WidgetParams,
} from './embed.schemas.ts';

const CHALLENGE = 'Bearer realm="insights-embed"';

async function viewerOf(req: FastifyRequest, tokens: EmbedTokenVerifier, failures: FixedWindowCounter): Promise<EmbedViewer> {
  // The API's rule for failed authentications holds here too (docs/security.md).
  return underFailureLimit(failures, { ip: req.ip, authorization: req.headers.authorization }, () => verifiedViewer(req, tokens));
}

async function verifiedViewer(req: FastifyRequest, tokens: EmbedTokenVerifier): Promise<EmbedViewer> {
  const match = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i.exec(req.headers.authorization ?? '');
  if (!match)
    throw new AppError('UNAUTHENTICATED', 'Send Authorization: Bearer <embed token>.', { headers: { 'WWW-Authenticate': CHALLENGE } });
  try {
    return await tokens.verify(match[1]);
  } catch (err) {
    if (err instanceof EmbedTokenRejected) {
      throw new AppError('UNAUTHENTICATED', `The embed token was refused: ${err.message}.`, {
        headers: { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"` },
      });
    }
    throw err;
  }
}

export const embedRoutes =
  (
    keys: EmbedKeysService,
    embed: EmbedService,
    tokens: EmbedTokenVerifier,
    filters: { name: string; label: string }[],
    failures: FixedWindowCounter,
  ): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['embed'];
    app.post(
      '/api/v1/embed/keys',
      {
        schema: {
          tags,
          summary: 'Create an embedding key (the secret is shown once)',
          body: CreateEmbedKeyBody,
          response: withErrors({ 201: CreatedEmbedKeySchema }, 403),
        },
      },
      async (req, reply) => reply.code(201).send(await keys.create(req.auth, req.body)),
    );
    app.get(
      '/api/v1/embed/keys',
      { schema: { tags, summary: 'List embedding keys (secrets masked)', response: withErrors({ 200: Type.Array(EmbedKeySchema) }, 403) } },
      async (req) => keys.list(req.auth),
    );
    app.post(
      '/api/v1/embed/keys/:id/rotate',
      {
        schema: {
          tags,
          summary: 'Rotate the secret; the previous one verifies for 24 h more',
          params: KeyParams,
          body: EmptyBody,
          'x-body-optional': true,
          response: withErrors({ 200: CreatedEmbedKeySchema }, 403),
        },
      },
      async (req) => keys.rotate(req.auth, req.params.id),
    );
    app.delete(
      '/api/v1/embed/keys/:id',
      { schema: { tags, summary: 'Revoke an embedding key at once', params: KeyParams, response: withErrors({ 204: NoContent }, 403) } },
      async (req, reply) => {
        await keys.revoke(req.auth, req.params.id);
        return reply.code(204).send(null);
      },
    );

    // Embed tokens: verified per request by the routes below, never by the API's authentication.
    const embedded = { config: { public: true } };
    app.get(
      '/api/v1/embed/dashboards/:id',
      {
        ...embedded,
        schema: {
          tags,
          summary: "An embed token's dashboard: live widgets and locked filters",
          params: DashboardParams,
          response: withErrors({ 200: EmbeddedDashboardSchema }, 403, 404),
        },
      },
      async (req) => embed.dashboard(await viewerOf(req, tokens, failures), req.params.id),
    );
    app.get(
      '/api/v1/embed/dashboards/:id/filter-values',
      {
        ...embedded,
        schema: {
          tags,
          summary: "The values the viewer may pick for each of the dashboard's unlocked filters",
          params: DashboardParams,
          response: withErrors({ 200: Type.Record(Type.String(), Type.Array(Type.String())) }, 403, 404),
        },
      },
      async (req) => embed.filterValues(await viewerOf(req, tokens, failures), req.params.id),
    );
    app.get(
      '/api/v1/embed/dashboards/:id/widgets/:wid/data',
      {
        ...embedded,
        schema: {
          tags,
          summary: "A widget's data for the embed token's viewer",
          params: WidgetParams,
          querystring: executeQuerySchema(filters),
          response: withErrors({ 200: ExecuteResponse }, ...READS_WAREHOUSE, 404),
        },
      },
      async (req) => ({
        success: true as const,
        data: await embed.widgetData(await viewerOf(req, tokens, failures), req.params.id, req.params.wid, {
          ...(req.query as Record<string, unknown>),
        }),
      }),
    );
    app.post(
      '/api/v1/embed/dashboards/:id/widgets/:wid/data',
      {
        ...embedded,
        schema: {
          tags,
          summary: "A widget's data for the embed token's viewer (choices in the body)",
          params: WidgetParams,
          body: WidgetChoicesBody,
          'x-body-optional': true,
          response: withErrors({ 200: ExecuteResponse }, ...READS_WAREHOUSE, 404),
        },
      },
      async (req) => {
        const b = req.body ?? {};
        const choices = { ...(b.filters ?? {}), ...(b.granularity ? { granularity: b.granularity } : {}) };
        return {
          success: true as const,
          data: await embed.widgetData(await viewerOf(req, tokens, failures), req.params.id, req.params.wid, choices),
        };
      },
    );
    app.post(
      '/api/v1/embed/chat',
      {
        ...embedded,
        schema: {
          tags,
          summary: "Ask chat as the embed token's viewer",
          body: ChatBody,
          response: withErrors({ 200: ChatResponse }, ...READS_WAREHOUSE),
        },
      },
      async (req) => ({ success: true as const, data: await embed.ask(await viewerOf(req, tokens, failures), req.body) }),
    );
  };
