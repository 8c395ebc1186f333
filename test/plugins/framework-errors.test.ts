// Errors raised before a route runs, over a real socket: Node's HTTP parser (headers too large →
// 431, bytes that are not HTTP → 400), the router (bad percent-encoding), the body parser
// (unsupported media type, too large, malformed JSON) and a server draining on close (503). Each is
// an application/problem+json document with a code from the error table.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { ERROR_CODES } from '../../src/lib/errors.ts';

let t: TestApp;
let port: number;
let owner: string;

before(async () => {
  t = await buildTestApp();
  owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
});
after(() => t.close());

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends raw bytes and reads every response until the server closes the connection. */
function raw(bytes: string | ((socket: net.Socket) => void)): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => (typeof bytes === 'string' ? socket.write(bytes) : bytes(socket)));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => (data += d));
    socket.on('error', reject);
    socket.on('close', () => resolve(parseResponses(data)));
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer; got ${data.slice(0, 200)}`)));
  });
}

function parseResponses(data: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = data;
  while (rest.startsWith('HTTP/1.1')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    const body = Buffer.from(rest.slice(end + 4))
      .subarray(0, length)
      .toString();
    out.push({ status: Number(statusLine.split(' ')[1]), headers, body });
    rest = Buffer.from(rest.slice(end + 4))
      .subarray(length)
      .toString();
  }
  return out;
}

function assertProblem(res: RawResponse | Response, body: string, status: number, code: string): void {
  const type = res instanceof Response ? res.headers.get('content-type') : res.headers['content-type'];
  assert.equal(res.status, status, body);
  assert.match(String(type), /^application\/problem\+json/);
  const problem = JSON.parse(body);
  assert.equal(problem.code, code);
  assert.equal(problem.status, status);
  assert.ok(problem.code in ERROR_CODES);
  assert.equal(typeof problem.detail, 'string');
}

test("headers over the limit: 431 problem, not Fastify's plain JSON", async () => {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/dashboards/`, {
    headers: { authorization: owner, 'x-padding': 'a'.repeat(20_000) },
  });
  assertProblem(res, await res.text(), 431, 'HEADERS_TOO_LARGE');
});

test('bytes that are not HTTP: 400 problem', async () => {
  for (const bytes of [
    'NOT HTTP AT ALL\r\n\r\n',
    'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n',
    'GET / HTTP/1.1\r\nBad Header Name: x\r\n\r\n',
  ]) {
    const [res] = await raw(bytes);
    assert.ok(res, JSON.stringify(bytes));
    assertProblem(res, res.body, 400, 'BAD_REQUEST');
  }
});

test('router and body parser errors over the socket: bad percent-encoding, unsupported media type, too large, malformed JSON', async () => {
  const url = `http://127.0.0.1:${port}`;
  const bad = await fetch(`${url}/api/v1/dashboards/%zz`, { headers: { authorization: owner } });
  assertProblem(bad, await bad.text(), 400, 'BAD_URL');
  const post = (body: string, type: string) =>
    fetch(`${url}/api/v1/dashboards/`, { method: 'POST', headers: { authorization: owner, 'content-type': type }, body });
  const media = await post('name=x', 'application/x-www-form-urlencoded');
  assertProblem(media, await media.text(), 415, 'UNSUPPORTED_MEDIA_TYPE');
  const large = await post(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }), 'application/json');
  assertProblem(large, await large.text(), 413, 'PAYLOAD_TOO_LARGE');
  const malformed = await post('{"name":', 'application/json');
  assertProblem(malformed, await malformed.text(), 400, 'MALFORMED_JSON');
});

test('a widget body over its 5 MiB limit is read to its end and answered 413; the connection stays open for the next request', async () => {
  const size = 5 * 1024 * 1024 + 64 * 1024;
  const head =
    `POST /api/v1/dashboards/0190b3f0-0000-7000-8000-000000000000/widgets HTTP/1.1\r\nHost: x\r\nAuthorization: ${owner}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`;
  const next = 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
  for (let round = 0; round < 3; round++) {
    let early = '';
    const responses = await raw((socket) => {
      socket.on('data', (d) => (early ||= String(d)));
      socket.write(head);
      socket.write(Buffer.alloc(1024 * 1024, 'x'));
      // The rest comes later, as from a slow client: the answer must wait for it rather than close
      // the connection under it (which the client sees as EPIPE or a reset, not the problem).
      setTimeout(() => {
        assert.equal(early, '', 'no answer before the body has arrived');
        socket.write(Buffer.alloc(size - 1024 * 1024, 'x'), () => socket.write(next));
      }, 300);
    });
    assert.equal(responses.length, 2, JSON.stringify(responses.map((r) => r.status)));
    assertProblem(responses[0], responses[0].body, 413, 'PAYLOAD_TOO_LARGE');
    assert.notEqual(responses[0].headers.connection, 'close');
    assert.match(JSON.parse(responses[0].body).detail, /limit of 5242880 bytes/);
    assert.equal(responses[1].status, 200);
  }
});

test('a request arriving while the server drains is a 503 problem with Connection: close', async () => {
  // The first request's body is held back, so close() must wait for it; the second is pipelined
  // behind it and reaches the server once it is closing.
  const body = JSON.stringify({ name: 'drain' });
  const head = `POST /api/v1/dashboards/ HTTP/1.1\r\nHost: x\r\nAuthorization: ${owner}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
  const second = `GET /api/v1/dashboards/ HTTP/1.1\r\nHost: x\r\nAuthorization: ${owner}\r\n\r\n`;
  let closed: Promise<void> | undefined;
  const responses = await raw((socket) => {
    socket.write(head + body.slice(0, 5));
    setTimeout(() => {
      closed = t.app.close();
      setTimeout(() => socket.write(body.slice(5) + second), 100);
    }, 100);
  });
  await closed;
  assert.equal(responses.length, 2, JSON.stringify(responses));
  assert.equal(responses[0].status, 201, 'the request in flight completes');
  assertProblem(responses[1], responses[1].body, 503, 'SERVICE_UNAVAILABLE');
  assert.equal(responses[1].headers.connection, 'close');
});
