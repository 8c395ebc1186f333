import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { pageOf, sendPage } from '../../lib/paging.ts';
import { NoContent, withErrors } from '../../lib/schemas.ts';
import {
  CreateDashboardBody,
  DashboardDetailSchema,
  DashboardListQuery,
  DashboardParams,
  DashboardSchema,
  PatchDashboardBody,
} from './dashboards.schemas.ts';
import type { DashboardsService } from './dashboards.service.ts';

export const dashboardsRoutes =
  (dashboards: DashboardsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['dashboards'];
    // The API contract (docs/product.md §1) spells the collection with a trailing slash; clients
    // commonly drop it. Both are served, and the document shows the contract's spelling only.
    for (const url of ['/api/v1/dashboards/', '/api/v1/dashboards']) {
      const hide = url === '/api/v1/dashboards';
      app.get(
        url,
        {
          schema: {
            hide,
            tags,
            summary: 'List the dashboards you may view (newest first)',
            querystring: DashboardListQuery,
            response: withErrors({ 200: Type.Array(DashboardSchema) }),
          },
        },
        async (req, reply) => {
          const page = pageOf(req.query);
          return sendPage(req, reply, await dashboards.list(req.auth, page), page);
        },
      );
      app.post(
        url,
        {
          schema: {
            hide,
            tags,
            summary: 'Create a dashboard (owner or admin)',
            body: CreateDashboardBody,
            response: withErrors({ 201: DashboardSchema }, 403),
          },
        },
        async (req, reply) => reply.code(201).send(await dashboards.create(req.auth, req.body)),
      );
    }
    app.get(
      '/api/v1/dashboards/:id',
      {
        schema: {
          tags,
          summary: 'A dashboard with its widgets (in widget_ids order)',
          params: DashboardParams,
          response: withErrors({ 200: DashboardDetailSchema }),
        },
      },
      async (req) => dashboards.get(req.auth, req.params.id),
    );
    app.patch(
      '/api/v1/dashboards/:id',
      {
        schema: {
          tags,
          summary: 'Update a dashboard: name, description, sharing, filter presets, widget order',
          params: DashboardParams,
          body: PatchDashboardBody,
          response: withErrors({ 200: DashboardSchema }, 403),
        },
      },
      async (req) => dashboards.update(req.auth, req.params.id, req.body),
    );
    app.delete(
      '/api/v1/dashboards/:id',
      {
        schema: {
          tags,
          summary: 'Delete a dashboard with its widgets and subscriptions',
          params: DashboardParams,
          response: withErrors({ 204: NoContent }, 403),
        },
      },
      async (req, reply) => {
        await dashboards.delete(req.auth, req.params.id);
        return reply.code(204).send(null);
      },
    );
  };
