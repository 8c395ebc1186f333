import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { NoContent, withErrors } from '../../lib/schemas.ts';
import {
  ConnectorSchema,
  ConnectorTestResult,
  PatchConnectorBody,
  ProviderParams,
  SaveConnectorBody,
  TestConnectorBody,
} from './connectors.schemas.ts';
import type { ConnectorsService } from './connectors.service.ts';

export const connectorsRoutes =
  (connectors: ConnectorsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['ai'];
    app.get(
      '/api/v1/ai/connectors',
      { schema: { tags, summary: 'List AI connectors (keys masked)', response: withErrors({ 200: Type.Array(ConnectorSchema) }) } },
      async (req) => connectors.listFor(req.auth),
    );
    app.post(
      '/api/v1/ai/connectors',
      {
        schema: {
          tags,
          summary: 'Save an AI connector (overwrites the provider) and make it the active one',
          body: SaveConnectorBody,
          response: withErrors({ 201: ConnectorSchema }, 403),
        },
      },
      async (req, reply) => reply.code(201).send(await connectors.saveFor(req.auth, req.body)),
    );
    app.post(
      '/api/v1/ai/connectors/test',
      {
        schema: {
          tags,
          summary: 'Test a connection with a real minimal request (10 s timeout)',
          body: TestConnectorBody,
          response: withErrors({ 200: ConnectorTestResult }, 403),
        },
      },
      async (req) => connectors.testFor(req.auth, req.body),
    );
    app.patch(
      '/api/v1/ai/connectors/:provider',
      {
        schema: {
          tags,
          summary: 'Activate or deactivate a connector',
          params: ProviderParams,
          body: PatchConnectorBody,
          response: withErrors({ 200: ConnectorSchema }, 403),
        },
      },
      async (req) => connectors.setActiveFor(req.auth, req.params.provider, req.body.is_active),
    );
    app.delete(
      '/api/v1/ai/connectors/:provider',
      { schema: { tags, summary: 'Delete a connector', params: ProviderParams, response: withErrors({ 204: NoContent }, 403) } },
      async (req, reply) => {
        await connectors.deleteFor(req.auth, req.params.provider);
        return reply.code(204).send(null);
      },
    );
  };
