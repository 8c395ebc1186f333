// /api/v1/dashboards/{id}/text-blocks (extension): markdown text blocks beside a dashboard's widgets.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { NoContent, withErrors } from '../../lib/schemas.ts';
import { DashboardParams } from './dashboards.schemas.ts';
import { CreateTextBlockBody, PatchTextBlockBody, TextBlockParams, TextBlockSchema } from './text-blocks.schemas.ts';
import type { TextBlocksService } from './text-blocks.service.ts';

export const textBlocksRoutes =
  (blocks: TextBlocksService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['dashboards'];
    app.get(
      '/api/v1/dashboards/:id/text-blocks',
      {
        schema: {
          tags,
          operationId: 'listDashboardTextBlocks',
          summary: "A dashboard's markdown text blocks (extension), by position; anyone who may view the dashboard",
          params: DashboardParams,
          response: withErrors({ 200: Type.Array(TextBlockSchema) }),
        },
      },
      async (req) => blocks.list(req.auth, req.params.id),
    );
    app.post(
      '/api/v1/dashboards/:id/text-blocks',
      {
        schema: {
          tags,
          operationId: 'createDashboardTextBlock',
          summary: 'Add a markdown text block (extension); owners, admins and the dashboard’s creator',
          params: DashboardParams,
          body: CreateTextBlockBody,
          response: withErrors({ 201: TextBlockSchema }, 403),
        },
      },
      async (req, reply) => reply.code(201).send(await blocks.create(req.auth, req.params.id, req.body)),
    );
    app.patch(
      '/api/v1/dashboards/:id/text-blocks/:bid',
      {
        schema: {
          tags,
          operationId: 'updateDashboardTextBlock',
          summary: 'Change a text block’s markdown, size or position (extension)',
          params: TextBlockParams,
          body: PatchTextBlockBody,
          response: withErrors({ 200: TextBlockSchema }, 403),
        },
      },
      async (req) => blocks.update(req.auth, req.params.id, req.params.bid, req.body),
    );
    app.delete(
      '/api/v1/dashboards/:id/text-blocks/:bid',
      {
        schema: {
          tags,
          operationId: 'deleteDashboardTextBlock',
          summary: 'Remove a text block (extension)',
          params: TextBlockParams,
          response: withErrors({ 204: NoContent }, 403),
        },
      },
      async (req, reply) => {
        await blocks.delete(req.auth, req.params.id, req.params.bid);
        return reply.code(204).send(null);
      },
    );
  };
