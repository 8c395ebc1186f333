import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { pageOf, sendPage } from '../../lib/paging.ts';
import { EmptyBody, NoContent, PageQuery, ResourceId, withErrors } from '../../lib/schemas.ts';
import { ChannelSchema, ChannelTestResultSchema, CreateChannelBody, PatchChannelBody } from './channels.schemas.ts';
import type { ChannelsService } from './channels.service.ts';

export const channelsRoutes =
  (channels: ChannelsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['notifications'];
    const Params = Type.Object({ id: ResourceId });
    app.get(
      '/api/v1/notifications/channels',
      {
        schema: {
          tags,
          summary: 'List notification channels (secrets masked)',
          querystring: Type.Object(PageQuery, { additionalProperties: false }),
          response: withErrors({ 200: Type.Array(ChannelSchema) }),
        },
      },
      async (req, reply) => {
        const page = pageOf(req.query);
        return sendPage(req, reply, await channels.list(req.auth, page), page);
      },
    );
    app.post(
      '/api/v1/notifications/channels',
      {
        schema: {
          tags,
          summary: 'Create a notification channel',
          description:
            'A webhook channel gets a Standard Webhooks signing secret, returned in plaintext in this answer only (config.signing_secret).',
          body: CreateChannelBody,
          response: withErrors({ 201: ChannelSchema }),
        },
      },
      async (req, reply) => reply.code(201).send(await channels.create(req.auth, req.body)),
    );
    app.patch(
      '/api/v1/notifications/channels/:id',
      {
        schema: {
          tags,
          summary: 'Replace the config of a channel (resets is_verified), or rename it',
          params: Params,
          body: PatchChannelBody,
          response: withErrors({ 200: ChannelSchema }),
        },
      },
      async (req) => channels.patch(req.auth, req.params.id, req.body),
    );
    app.delete(
      '/api/v1/notifications/channels/:id',
      {
        schema: {
          tags,
          summary: 'Delete a channel (its insight subscriptions go, dashboard subscriptions drop it; logs stay)',
          params: Params,
          response: withErrors({ 204: NoContent }),
        },
      },
      async (req, reply) => {
        await channels.delete(req.auth, req.params.id);
        return reply.code(204).send(null);
      },
    );
    app.post(
      '/api/v1/notifications/channels/:id/test',
      {
        schema: {
          tags,
          summary: 'Send a real test message through the channel',
          description:
            '200 and is_verified = true when the upstream accepted it; 502 problem (UPSTREAM_FAILED) with its reason, ' +
            "and is_verified = false, otherwise; 409 when the channel's secrets were sealed under another master " +
            'key.',
          params: Params,
          body: EmptyBody,
          'x-body-optional': true,
          response: withErrors({ 200: ChannelTestResultSchema }, 409, 502),
        },
      },
      async (req) => channels.test(req.auth, req.params.id),
    );
  };
