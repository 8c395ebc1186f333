// POST /api/v1/mcp: the Model Context Protocol over Streamable HTTP, stateless, answered in JSON
// (docs/mcp.md). Authenticated like every route (API token or JWT); the tools act as the caller.
// GET (a server-initiated SSE stream) and DELETE (ending a session) have nothing to do without
// sessions: 405, as the protocol provides for.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../lib/errors.ts';
import { withErrors } from '../../lib/schemas.ts';
import { JsonRpcMessageSchema, JsonRpcResponseSchema } from './mcp.schemas.ts';
import type { McpService } from './mcp.service.ts';

const Accepted = Type.Null({ description: 'The message was a notification or a response: accepted, no body' });

/** A refusal of the SDK's transport (a protocol version it does not speak…) as a problem document. */
function transportRefusal(status: number, body: string | undefined): AppError {
  let detail = 'The MCP message was refused.';
  try {
    detail = (JSON.parse(body ?? '') as { error?: { message?: string } }).error?.message ?? detail;
  } catch {
    // not JSON: keep the generic detail
  }
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', detail);
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', detail);
  return new AppError('BAD_REQUEST', detail);
}

export const mcpRoutes =
  (mcp: McpService, options: { version: string }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['mcp'];
    // The SDK is loaded on the first MCP request, not with the app (docs/footprint.md).
    let server: Promise<typeof import('./mcp.server.ts')> | undefined;
    app.post(
      '/api/v1/mcp',
      {
        schema: {
          tags,
          summary: 'Model Context Protocol (Streamable HTTP, stateless): one JSON-RPC message per request; tools act as the caller',
          body: JsonRpcMessageSchema,
          response: withErrors({ 200: JsonRpcResponseSchema, 202: Accepted }),
        },
      },
      async (req, reply) => {
        const { answerPost } = await (server ??= import('./mcp.server.ts'));
        const version = req.headers['mcp-protocol-version'];
        const out = await answerPost(
          mcp,
          req.auth,
          { version: options.version, log: (err) => req.log.error({ err }, 'MCP tool failed') },
          req.body,
          typeof version === 'string' ? version : undefined,
        );
        if (out.status === 202) return reply.code(202).send(undefined as never);
        if (out.status >= 400 && out.status < 500) throw transportRefusal(out.status, out.body);
        if (out.status !== 200) throw new Error(`The MCP transport answered ${out.status}`);
        return reply.type('application/json; charset=utf-8').send(out.body);
      },
    );
    const notOffered = async () => {
      throw new AppError(
        'METHOD_NOT_ALLOWED',
        'This MCP endpoint is stateless: POST each JSON-RPC message; it offers no SSE stream and no session to end.',
        { headers: { Allow: 'POST' } },
      );
    };
    const unused = (summary: string) => ({ schema: { tags, summary, response: withErrors({}, 405) } });
    app.get('/api/v1/mcp', unused('Not offered (405): the MCP endpoint sends no server-initiated stream'), notOffered);
    app.delete('/api/v1/mcp', unused('Not offered (405): the MCP endpoint keeps no session to end'), notOffered);
  };
