import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EmptyBody, withErrors } from '../../lib/schemas.ts';
import { DashboardSchema } from '../dashboards/dashboards.schemas.ts';
import type { StarterService } from './starter.service.ts';

export const starterRoutes =
  (starter: StarterService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/v1/dashboards/starter',
      {
        schema: {
          tags: ['dashboards'],
          summary: 'The starter dashboard ("Start here") made from the insight catalog',
          description:
            '201 with a new one: two KPIs, a time series, two breakdowns and a top list, the first insights of each ' +
            "kind. 200 with the tenant's starter when it still exists (asking twice makes no second copy). " +
            'Owners and admins. 409 when the model has no insights.',
          body: EmptyBody,
          'x-body-optional': true,
          response: withErrors({ 200: DashboardSchema, 201: DashboardSchema }, 403, 409),
        },
      },
      async (req, reply) => {
        const { dashboard, created } = await starter.make(req.auth);
        return reply.code(created ? 201 : 200).send(dashboard);
      },
    );
  };
