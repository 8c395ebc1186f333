// `insights mcp`: the MCP endpoint on stdin/stdout, for agents that start the server as a child
// process (desktop assistants, IDEs). Each message read is POSTed to /api/v1/mcp — of an app built
// in this process (through inject) or of a running server (--url) — with the caller's credential,
// and the answer written back; so the stdio tools are the HTTP tools, authenticated, limited and
// scoped by the same code. stdout carries the protocol only; anything else goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** One JSON-RPC message to the MCP endpoint, and its HTTP answer. */
export type PostMessage = (message: unknown) => Promise<{ status: number; body: string }>;

/**
 * The Authorization header for a credential as a user holds it: an API token (ins_…), a JWT, or
 * the whole header value ("Svc …", "Bearer …").
 */
export function authorizationFor(credential: string): string {
  const c = credential.trim();
  if (/^(svc|bearer)\s+\S+$/i.test(c)) return c;
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(c) ? `Bearer ${c}` : `Svc ${c}`;
}

/** A POST to a running server's MCP endpoint; `base` is its URL (http://127.0.0.1:8080) or the endpoint's. */
export function postToServer(base: string, authorization: string): PostMessage {
  const url = /\/api\/v1\/mcp\/?$/.test(base) ? base : `${base.replace(/\/+$/, '')}/api/v1/mcp`;
  return async (message) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(message),
    });
    return { status: res.status, body: await res.text() };
  };
}

interface Problem {
  code?: string;
  detail?: string;
}

function problemOf(body: string): Problem {
  try {
    return JSON.parse(body) as Problem;
  } catch {
    return {};
  }
}

/** Undefined when the credential is accepted; else why not (the endpoint's own words). */
export async function credentialRefusal(post: PostMessage): Promise<string | undefined> {
  const res = await post({ jsonrpc: '2.0', id: 'insights-mcp-credential-check', method: 'ping' });
  if (res.status === 200) return undefined;
  const p = problemOf(res.body);
  return `${p.code ?? `HTTP ${res.status}`}: ${p.detail ?? res.body.slice(0, 200)}`;
}

const isRequest = (m: JSONRPCMessage): m is JSONRPCMessage & { id: string | number; method: string } => 'method' in m && 'id' in m;

/**
 * Serves stdin/stdout until stdin ends (the agent quit) and every answer in flight is written.
 * An HTTP refusal (a revoked token, a rate limit) answers the request it concerns as a JSON-RPC
 * error carrying the problem document, so the agent sees why instead of waiting.
 */
export async function serveStdio(
  post: PostMessage,
  log: (line: string) => void,
  io = { stdin: process.stdin, stdout: process.stdout },
): Promise<void> {
  const transport = new StdioServerTransport(io.stdin, io.stdout);
  const inFlight = new Set<Promise<void>>();
  const forward = async (message: JSONRPCMessage) => {
    let answer: { status: number; body: string };
    try {
      answer = await post(message);
    } catch (err) {
      answer = {
        status: 503,
        body: JSON.stringify({ code: 'SERVICE_UNAVAILABLE', detail: `The MCP endpoint could not be reached: ${(err as Error).message}` }),
      };
    }
    if (answer.status === 202) return;
    if (answer.status === 200) return transport.send(JSON.parse(answer.body) as JSONRPCMessage);
    const problem = problemOf(answer.body);
    log(`insights mcp: ${problem.code ?? answer.status}: ${problem.detail ?? answer.body.slice(0, 200)}`);
    if (isRequest(message)) {
      await transport.send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32000, message: `${problem.code ?? `HTTP ${answer.status}`}: ${problem.detail ?? 'refused'}`, data: problem },
      });
    }
  };
  transport.onmessage = (message) => {
    const p = forward(message).catch((err) => log(`insights mcp: ${(err as Error).message}`));
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  transport.onerror = (err) => log(`insights mcp: ${err.message}`);
  // The agent quits by closing stdin, or with a signal: either way, answers in flight are written
  // and the caller closes what it opened (the database above all) before the process ends.
  let end = () => {};
  const ended = new Promise<void>((resolve) => (end = resolve));
  io.stdin.once('end', end);
  io.stdin.once('close', end);
  // Kept until the process exits: a second signal during the shutdown must not cut it short either.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, end);
  await transport.start();
  await ended;
  await Promise.all(inFlight);
  await transport.close();
}
