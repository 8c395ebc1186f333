import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { EmptyBody, NoContent, ResourceId, withErrors } from '../../lib/schemas.ts';
import type { DashboardSubscriptionsService } from './dashboard-subscriptions.service.ts';
import type { InsightSubscriptionsService } from './insight-subscriptions.service.ts';
import {
  CreateDashboardSubscriptionBody,
  CreateInsightSubscriptionBody,
  DashboardSubscriptionSchema,
  InsightSubscriptionSchema,
  SendNowResponse,
  ToggleBody,
} from './subscriptions.schemas.ts';

const Id = Type.Object({ id: ResourceId });
const SubId = Type.Object({ subId: ResourceId });

export const insightSubscriptionsRoutes =
  (subs: InsightSubscriptionsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['insight subscriptions'];
    const base = '/api/v1/notifications/subscriptions';
    app.get(
      base,
      { schema: { tags, summary: 'List insight subscriptions', response: withErrors({ 200: Type.Array(InsightSubscriptionSchema) }) } },
      (req) => subs.list(req.auth),
    );
    app.post(
      base,
      {
        schema: {
          tags,
          summary: 'Subscribe a channel to an insight',
          body: CreateInsightSubscriptionBody,
          response: withErrors({ 201: InsightSubscriptionSchema }),
        },
      },
      async (req, reply) => reply.code(201).send(await subs.create(req.auth, req.body)),
    );
    app.patch(
      `${base}/:id`,
      {
        schema: {
          tags,
          summary: 'Switch a subscription on or off',
          params: Id,
          body: ToggleBody,
          response: withErrors({ 200: InsightSubscriptionSchema }),
        },
      },
      (req) => subs.setActive(req.auth, req.params.id, req.body.is_active),
    );
    app.delete(
      `${base}/:id`,
      { schema: { tags, summary: 'Delete a subscription (its delivery logs stay)', params: Id, response: withErrors({ 204: NoContent }) } },
      async (req, reply) => {
        await subs.delete(req.auth, req.params.id);
        return reply.code(204).send(null);
      },
    );
    app.post(
      `${base}/:id/send`,
      {
        schema: {
          tags,
          summary: 'Send now: stored before the answer, delivered at once through the queue',
          params: Id,
          body: EmptyBody,
          'x-body-optional': true,
          response: withErrors({ 202: SendNowResponse }, 409),
        },
      },
      async (req, reply) => reply.code(202).send(await subs.sendNow(req.auth, req.params.id)),
    );
  };

export const dashboardSubscriptionsRoutes =
  (subs: DashboardSubscriptionsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['dashboard subscriptions'];
    app.get(
      '/api/v1/dashboards/subscriptions',
      {
        schema: {
          tags,
          summary: 'List the dashboard subscriptions you manage',
          response: withErrors({ 200: Type.Array(DashboardSubscriptionSchema) }),
        },
      },
      (req) => subs.listAll(req.auth),
    );
    app.get(
      '/api/v1/dashboards/:id/subscriptions',
      {
        schema: {
          tags,
          summary: "List a dashboard's subscriptions",
          params: Id,
          response: withErrors({ 200: Type.Array(DashboardSubscriptionSchema) }, 403),
        },
      },
      (req) => subs.listForDashboard(req.auth, req.params.id),
    );
    app.post(
      '/api/v1/dashboards/:id/subscriptions',
      {
        schema: {
          tags,
          summary: 'Schedule a dashboard report',
          params: Id,
          body: CreateDashboardSubscriptionBody,
          response: withErrors({ 201: DashboardSubscriptionSchema }, 403),
        },
      },
      async (req, reply) => reply.code(201).send(await subs.create(req.auth, req.params.id, req.body)),
    );
    app.patch(
      '/api/v1/dashboards/subscriptions/:subId',
      {
        schema: {
          tags,
          summary: 'Switch a dashboard subscription on or off',
          params: SubId,
          body: ToggleBody,
          response: withErrors({ 200: DashboardSubscriptionSchema }, 403),
        },
      },
      (req) => subs.setActive(req.auth, req.params.subId, req.body.is_active),
    );
    app.delete(
      '/api/v1/dashboards/subscriptions/:subId',
      {
        schema: {
          tags,
          summary: 'Delete a dashboard subscription (its delivery logs stay)',
          params: SubId,
          response: withErrors({ 204: NoContent }, 403),
        },
      },
      async (req, reply) => {
        await subs.delete(req.auth, req.params.subId);
        return reply.code(204).send(null);
      },
    );
    app.post(
      '/api/v1/dashboards/subscriptions/:subId/send',
      {
        schema: {
          tags,
          summary: 'Send the report now to every channel of the subscription',
          params: SubId,
          body: EmptyBody,
          'x-body-optional': true,
          response: withErrors({ 202: SendNowResponse }, 403),
        },
      },
      async (req, reply) => reply.code(202).send(await subs.sendNow(req.auth, req.params.subId)),
    );
  };
