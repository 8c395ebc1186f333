// One error handler for the whole app: every failure leaves as application/problem+json with a
// stable code, Fastify's own errors included. Unknown errors become a generic 500 and are logged.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import http from 'node:http';
import type { Socket } from 'node:net';
import { AppError, toProblem, type ErrorCode, type FieldError } from '../lib/errors.ts';

const CONTEXT_PATH: Record<string, string> = { body: '/body', querystring: '/query', params: '/params', headers: '/headers' };

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

export function validationErrors(context: string, errors: AjvError[]): FieldError[] {
  const prefix = CONTEXT_PATH[context] ?? `/${context}`;
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    let path = prefix + e.instancePath;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') {
      path += `/${String(e.params.additionalProperty)}`;
      message = 'is not a known field';
    } else if (e.keyword === 'required') {
      path += `/${String(e.params.missingProperty)}`;
      message = 'is required';
    } else if (e.keyword === 'enum') {
      message = `must be one of: ${(e.params.allowedValues as unknown[]).join(', ')}`;
    }
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message });
  }
  return out;
}

function describe(errors: FieldError[]): string {
  return errors.map((e) => `${e.path.replace(/^\/(body|query|params|headers)\/?/, '') || e.path.slice(1)}: ${e.message}`).join('; ');
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_BAD_URL: 'BAD_URL',
};

/** The request's path, bounded: a detail must not echo a megabyte of URL back. */
function shownPath(url: string): string {
  const path = url.split('?')[0];
  return path.length > 120 ? `${path.slice(0, 120)}…` : path;
}

/**
 * Errors the router raises before any route (and so before setErrorHandler) is chosen: a path that
 * is not valid percent-encoded UTF-8, or a path parameter over the router's length limit. Passed to
 * Fastify as its frameworkErrors option.
 */
/** find-my-way's default limit on a path parameter's length. */
const MAX_PARAM_LENGTH = 100;

export function frameworkErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  reply.type('application/problem+json');
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    // Every path parameter is an id, a code or a provider name, none of them this long: like any
    // other malformed id it names nothing (see malformedPathParams).
    void reply
      .code(404)
      .send(toProblem('NOT_FOUND', `A segment of the path ${shownPath(req.url)} is longer than any id or code; nothing has it.`));
    return;
  }
  if (err.code === 'FST_ERR_BAD_URL') {
    void reply.code(400).send(toProblem('BAD_URL', `The path ${shownPath(req.url)} is not valid percent-encoded UTF-8.`));
    return;
  }
  req.log.error({ err }, 'router error');
  void reply.code(400).send(toProblem('BAD_REQUEST', 'The request could not be routed.'));
}

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (headers over http.maxHeaderSize,
 * bytes that are not HTTP, a request that took too long to arrive): written to the socket as
 * problem documents, then the connection is closed, as Node itself does. Passed to Fastify as its
 * clientErrorHandler option.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const problem =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? toProblem('HEADERS_TOO_LARGE', `The request's headers are larger than the ${http.maxHeaderSize / 1024} KiB this server accepts.`)
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? toProblem('REQUEST_TIMEOUT', 'The request did not arrive in time.')
        : toProblem('BAD_REQUEST', 'The request is not valid HTTP/1.1.');
  if (socket.writable) {
    const body = JSON.stringify(problem);
    socket.write(
      `HTTP/1.1 ${problem.status} ${http.STATUS_CODES[problem.status]}\r\nConnection: close\r\n` +
        `Content-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** A JSON body over its route's limit by this much or less is read to its end before the 413. */
const DRAINED_AT_MOST = 16 * 1024 * 1024;

/**
 * A body declared larger than its route's limit is answered 413 — after it has been read and
 * discarded, when it is no larger than DRAINED_AT_MOST. Fastify's own answer comes at once with
 * Connection: close, and the socket is closed while the client is still sending, which it sees as
 * EPIPE or a reset instead of the problem (on a busy machine, often). Larger bodies keep that
 * answer: reading them would cost more than the client's retry. Routes that stream their body
 * through their own parser (data uploads) are left alone.
 */
export function installOversizeAnswer(app: FastifyInstance): void {
  app.addHook('preParsing', async (req, _reply, payload) => {
    const limit = req.routeOptions.bodyLimit;
    const length = Number(req.headers['content-length']);
    if (req.routeOptions.config?.streamsBody || !limit || !(length > limit) || length > DRAINED_AT_MOST) return payload;
    for await (const _ of payload) {
      // discarded
    }
    throw new AppError('PAYLOAD_TOO_LARGE', `The body (${length} bytes) is larger than this operation's limit of ${limit} bytes.`);
  });
}

/**
 * While the server drains on SIGTERM, a request that still arrives on an open keep-alive
 * connection is told to go elsewhere with a 503 problem (Fastify's own return503OnClosing answer
 * is plain JSON, so it is switched off in app.ts). Registered before every other hook.
 */
export function installDrainingAnswer(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_req, reply, done) => {
    if (!closing) return done();
    void reply
      .code(503)
      .header('Connection', 'close')
      .header('Retry-After', '1')
      .type('application/problem+json')
      .send(toProblem('SERVICE_UNAVAILABLE', 'The server is shutting down; retry, another instance or the restarted one will answer.'));
  });
}

/**
 * A path parameter that does not have the shape of an id (or code) names nothing that exists, so
 * it is answered like a missing one: 404, without a query. The field is still named.
 */
function malformedPathParams(err: FastifyError & { validationContext?: string }): FieldError[] | undefined {
  if (err.validationContext !== 'params') return undefined;
  const errors = err.validation as unknown as AjvError[];
  if (!errors.every((e) => e.keyword === 'pattern')) return undefined;
  return errors.map((e) => ({ path: `/params${e.instancePath}`, message: 'is not a valid id' }));
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError & { validationContext?: string }, req, reply) => {
    reply.type('application/problem+json');
    if (err instanceof AppError) {
      if (err.options.headers) reply.headers(err.options.headers);
      if (err.status >= 500) req.log.warn({ code: err.code, detail: err.detail }, 'request failed upstream');
      return reply.code(err.status).send(toProblem(err.code, err.detail, err.options.errors));
    }
    if (err.validation) {
      const unknownIds = malformedPathParams(err);
      if (unknownIds) return reply.code(404).send(toProblem('NOT_FOUND', `${describe(unknownIds)}; nothing has it`, unknownIds));
      const errors = validationErrors(err.validationContext ?? 'body', err.validation as unknown as AjvError[]);
      return reply.code(400).send(toProblem('VALIDATION_FAILED', describe(errors), errors));
    }
    const mapped = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (mapped) {
      const detail = mapped === 'MALFORMED_JSON' ? `The body is not valid JSON: ${err.message}` : err.message;
      return reply.code(toProblem(mapped, '').status).send(toProblem(mapped, detail));
    }
    if (err.statusCode === 429) {
      return reply.code(429).send(toProblem('RATE_LIMITED', err.message || 'Rate limit exceeded, retry later'));
    }
    if (err instanceof SyntaxError && err.statusCode === 400) {
      return reply.code(400).send(toProblem('MALFORMED_JSON', `The body is not valid JSON: ${err.message}`));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.code(err.statusCode).send({ ...toProblem('BAD_REQUEST', err.message), status: err.statusCode });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send(toProblem('INTERNAL', 'An unexpected error occurred; it has been logged.'));
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    // The web app's catch-all route reaches here for /api/ paths, where the router would have
    // refused an over-long segment itself (FST_ERR_MAX_PARAM_LENGTH): answered the same way.
    if (path.split('/').some((segment) => segment.length > MAX_PARAM_LENGTH)) {
      return void reply
        .code(404)
        .type('application/problem+json')
        .send(toProblem('NOT_FOUND', `A segment of the path ${shownPath(req.url)} is longer than any id or code; nothing has it.`));
    }
    reply
      .code(404)
      .type('application/problem+json')
      .send(toProblem('ROUTE_NOT_FOUND', `No route ${req.method} ${shownPath(req.url)}`));
  });
}
