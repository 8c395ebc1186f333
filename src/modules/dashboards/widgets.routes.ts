import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { NoContent, withErrors } from '../../lib/schemas.ts';
import { DashboardParams } from './dashboards.schemas.ts';
import { CreateWidgetBody, PatchWidgetBody, WidgetParams, WidgetSchema } from './widgets.schemas.ts';
import type { WidgetsService } from './widgets.service.ts';

/** Snapshot widgets carry their rows, so creating one may send more than the 1 MiB default. */
export const WIDGET_CREATE_BODY_LIMIT = 5 * 1024 * 1024;

export const widgetsRoutes =
  (widgets: WidgetsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['widgets'];
    app.get(
      '/api/v1/dashboards/:id/widgets',
      {
        schema: {
          tags,
          summary: "A dashboard's widgets, in widget_ids order",
          params: DashboardParams,
          response: withErrors({ 200: Type.Array(WidgetSchema) }),
        },
      },
      async (req) => widgets.list(req.auth, req.params.id),
    );
    app.post(
      '/api/v1/dashboards/:id/widgets',
      {
        bodyLimit: WIDGET_CREATE_BODY_LIMIT,
        schema: {
          tags,
          summary: 'Add a widget (appended to widget_ids); body up to 5 MiB',
          params: DashboardParams,
          body: CreateWidgetBody,
          response: withErrors({ 201: WidgetSchema }, 403),
        },
      },
      async (req, reply) => reply.code(201).send(await widgets.create(req.auth, req.params.id, req.body)),
    );
    app.patch(
      '/api/v1/dashboards/:id/widgets/:wid',
      {
        schema: {
          tags,
          summary: 'Update a widget (data_source cannot change)',
          params: WidgetParams,
          body: PatchWidgetBody,
          response: withErrors({ 200: WidgetSchema }, 403),
        },
      },
      async (req) => widgets.update(req.auth, req.params.id, req.params.wid, req.body),
    );
    app.delete(
      '/api/v1/dashboards/:id/widgets/:wid',
      {
        schema: {
          tags,
          summary: 'Delete a widget (removed from widget_ids)',
          params: WidgetParams,
          response: withErrors({ 204: NoContent }, 403),
        },
      },
      async (req, reply) => {
        await widgets.delete(req.auth, req.params.id, req.params.wid);
        return reply.code(204).send(null);
      },
    );
  };
