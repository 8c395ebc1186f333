import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { pageOf, sendPage } from '../../lib/paging.ts';
import { Nullable, PageQuery, Timestamp, withErrors } from '../../lib/schemas.ts';
import type { DeliveryLogsService } from './deliveries.service.ts';

export const DeliveryLogSchema = Type.Object(
  {
    id: Type.String(),
    subscription_id: Type.String(),
    subscription_kind: Type.Enum(['insight', 'dashboard']),
    insight_name: Type.String({ description: "The insight's name, or the dashboard's for a dashboard report" }),
    channel_id: Type.String(),
    channel_type: Type.Enum(['messenger', 'webhook', 'email']),
    sent_at: Timestamp,
    status: Type.Enum(['success', 'failed']),
    error_message: Nullable(Type.String()),
    attempt: Type.Integer({ minimum: 1, description: 'Which attempt of this delivery (1 … 5)' }),
  },
  { title: 'DeliveryLog' },
);

const LogsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(Type.Enum(['success', 'failed'])),
    subscription_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

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
