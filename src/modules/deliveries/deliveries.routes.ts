import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { pageOf, sendPage } from '../../lib/paging.ts';
import { withErrors } from '../../lib/schemas.ts';
import { DeliveryLogSchema, LogsQuery } from './deliveries.schemas.ts';
import type { DeliveryLogsService } from './deliveries.service.ts';

export const deliveryLogsRoutes =
  (logs: DeliveryLogsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/v1/notifications/logs',
      {
        schema: {
          tags: ['delivery logs'],
          summary: 'Delivery attempts, newest first (Link rel="next" announces the next page)',
          querystring: LogsQuery,
          response: withErrors({ 200: Type.Array(DeliveryLogSchema) }),
        },
      },
      async (req, reply) => {
        const page = pageOf(req.query);
        const rows = await logs.list(req.auth, { ...req.query, limit: page.limit });
        return sendPage(req, reply, rows, page);
      },
    );
  };
