// The tools on the Model Context Protocol, with the official SDK. Loaded on the first MCP request
// only (mcp.routes.ts imports it lazily), so a server nobody asks over MCP never holds the SDK.
//
// Stateless Streamable HTTP: every POST gets a new protocol server and transport bound to the
// caller, answers in JSON and keeps nothing, so any instance behind a load balancer answers any
// request; a conversation's state lives in the database (ask's history_id), not in a session.
// The low-level Server is used rather than McpServer because the tools' schemas are JSON Schema
// generated per caller from the model and the caller's data, where McpServer wants zod schemas.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { AuthContext } from '../../auth/context.ts';
import { INSTRUCTIONS, UnknownTool, type McpService } from './mcp.service.ts';

export interface ServerOptions {
  version: string;
  /** Where a tool's unexpected failure (a bug) is logged. */
  log: (err: unknown) => void;
}

/** A protocol server whose tools act as `auth`. */
export function serverFor(mcp: McpService, auth: AuthContext, options: ServerOptions): Server {
  const server = new Server(
    { name: 'insights', title: 'Insights Service', version: options.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await mcp.list(auth) }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    try {
      return await mcp.call(auth, req.params.name, req.params.arguments, options.log);
    } catch (err) {
      if (err instanceof UnknownTool) throw new McpError(ErrorCode.InvalidParams, err.message);
      throw err;
    }
  });
  return server;
}

export interface HttpAnswer {
  status: number;
  /** The JSON-RPC response (200), or the transport's JSON-RPC error (4xx); none for 202. */
  body?: string;
}

/** Answers one JSON-RPC message POSTed by `auth` (already parsed and authenticated by the route). */
export async function answerPost(
  mcp: McpService,
  auth: AuthContext,
  options: ServerOptions,
  message: unknown,
  protocolVersion?: string,
): Promise<HttpAnswer> {
  const server = serverFor(mcp, auth, options);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    // Every answer is JSON here, whatever the client said it accepts; the body is the route's, parsed.
    const headers: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    if (protocolVersion) headers['mcp-protocol-version'] = protocolVersion;
    const res = await transport.handleRequest(new Request('http://localhost/api/v1/mcp', { method: 'POST', headers }), {
      parsedBody: message,
    });
    return { status: res.status, body: res.status === 202 ? undefined : await res.text() };
  } finally {
    await server.close();
  }
}
