// The stdio bridge of `insights mcp` on its own, with streams in memory and a stand-in endpoint:
// answers written as the endpoint gave them, notifications answered by nothing, and an HTTP
// refusal (a revoked token, a rate limit) turned into a JSON-RPC error for the request it concerns.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { authorizationFor, serveStdio, type PostMessage } from '../../../src/modules/mcp/mcp.stdio.ts';

test('the credential becomes the Authorization header it is', () => {
  assert.equal(authorizationFor('ins_abc-DEF_123'), 'Svc ins_abc-DEF_123');
  assert.equal(authorizationFor('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln'), 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln');
  assert.equal(authorizationFor('  Svc ins_x '), 'Svc ins_x');
  assert.equal(authorizationFor('bearer a.b.c'), 'bearer a.b.c');
});

test('answers, notifications and HTTP refusals on stdio', async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const seen: unknown[] = [];
  const post: PostMessage = async (message) => {
    seen.push(message);
    const m = message as { id?: number; method: string };
    if (m.method === 'notifications/initialized') return { status: 202, body: '' };
    if (m.method === 'ping') return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }) };
    return {
      status: 429,
      body: JSON.stringify({ status: 429, code: 'RATE_LIMITED', detail: 'Rate limit of 600 requests per minute exceeded; retry in 12 s.' }),
    };
  };
  const logged: string[] = [];
  const served = serveStdio(post, (line) => logged.push(line), { stdin, stdout } as never);
  const lines: unknown[] = [];
  let buffer = '';
  stdout.on('data', (d) => {
    buffer += d;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      lines.push(JSON.parse(buffer.slice(0, i)));
      buffer = buffer.slice(i + 1);
    }
  });
  stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
  stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
  stdin.end();
  await served;
  assert.equal(seen.length, 3);
  assert.deepEqual(lines, [
    { jsonrpc: '2.0', id: 1, result: {} },
    {
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: -32000,
        message: 'RATE_LIMITED: Rate limit of 600 requests per minute exceeded; retry in 12 s.',
        data: { status: 429, code: 'RATE_LIMITED', detail: 'Rate limit of 600 requests per minute exceeded; retry in 12 s.' },
      },
    },
  ]);
  assert.deepEqual(logged, ['insights mcp: RATE_LIMITED: Rate limit of 600 requests per minute exceeded; retry in 12 s.']);
});
