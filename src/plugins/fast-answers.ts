// Answers a repeated request from memory before Fastify routes it (docs/performance.md §5): a GET
// (or a small JSON POST, read here first) that a route has answered before and can answer again
// from its cache, for a caller known from memory. Everything the service promises on every request is still done here, the same way the
// hooks do it: the draining answer, authentication (from the
// token and JWT caches only), the per-caller rate limit (the same counters as @fastify/rate-limit
// and its headers), the request log lines and the metrics. Whatever is not certain (no cached
// answer, an unknown credential, a caller at their limit, a body on a GET, a NUL in the URL, a CORS
// request) goes to Fastify untouched, which answers it as it always did; a POST body read here goes
// to Fastify as it came (preread() and the preParsing hook of http.ts), and is parsed there.
import crypto from 'node:crypto';
import type http from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../auth/context.ts';

/** A route that can answer some requests from memory. */
export interface FastRoute {
  /** GET (the default), or POST: a JSON body of at most MAX_EARLY_BODY bytes, with a Content-Length. */
  method?: 'GET' | 'POST';
  /** The route's URL as Fastify names it (the metrics label), e.g. /api/v1/insights/:code/execute. */
  url: string;
  /** Only URLs starting with this are offered to answer() (a POST's: only this URL itself, without a query string). */
  prefix: string;
  /**
   * The JSON (UTF-8 bytes: nothing to encode per request) of a 200 answer to this request for this caller, or undefined when it is
   * not in memory (Fastify then runs the route). Must answer exactly as the route would. `body`: a POST's body as text.
   */
  answer(auth: Readonly<AuthContext>, url: string, body?: string): Buffer | undefined | Promise<Buffer | undefined>;
}

/** The largest POST body read before routing; a larger one goes to Fastify unread. */
export const MAX_EARLY_BODY = 16 * 1024;
/** Content types whose body Fastify parses as JSON text (http.ts): the only ones read early. */
const JSON_BODY = /^application\/json(?:; ?charset=utf-8)?$/i;
/** Bodies read here for requests then handed to Fastify: its preParsing hook reads them from here. */
const bodies = new WeakMap<http.IncomingMessage, Buffer>();

/** The body read before routing, for a request handed to Fastify after it was read (else undefined: Fastify reads the socket). */
export function preread(req: http.IncomingMessage): Buffer | undefined {
  return bodies.get(req);
}

/** The rate limit's decision for a caller: undefined when the request must go to Fastify. */
export interface Allowance {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export interface FastAnswerHooks {
  /** The caller of an Authorization header from memory alone; undefined when unknown. */
  caller(header: string): Readonly<AuthContext> | undefined;
  /**
   * Counts the request against the caller's limit and gives the headers' values; undefined, without
   * counting it, when the caller is at the limit (Fastify then counts it and answers the 429).
   */
  take(auth: Readonly<AuthContext>): Allowance | undefined;
  /** The request metrics of one (method, route, status): a function given each request's seconds. */
  series(method: string, route: string, status: number): (seconds: number) => void;
}

const URL_MAY_HOLD_NUL = /%00|\u0000/;
const CONTENT_TYPE = 'application/json; charset=utf-8';

export class FastAnswers {
  private readonly routes: FastRoute[] = [];
  private hooks: Partial<FastAnswerHooks> = {};
  private closing = false;
  private readonly observers = new Map<FastRoute, (seconds: number) => void>();
  /** Requests answered here (tests and benchmarks read it). */
  answered = 0;

  constructor(
    private readonly log: FastifyBaseLogger,
    /** Off when CORS is configured: its headers depend on the request's Origin. */
    private readonly enabled: boolean,
  ) {}

  add(route: FastRoute): void {
    this.routes.push(route);
  }

  /** Each plugin gives what it owns; nothing is answered here until all three are given. */
  provide(hooks: Partial<FastAnswerHooks>): void {
    this.hooks = { ...this.hooks, ...hooks };
  }

  /** The server is draining: every request goes to Fastify, which answers 503. */
  close(): void {
    this.closing = true;
  }

  /** Wraps the server's request listener (Fastify's), so that it sees first what it can answer. */
  install(server: http.Server): void {
    const listeners = server.listeners('request') as ((req: http.IncomingMessage, res: http.ServerResponse) => void)[];
    if (listeners.length !== 1) return;
    const fallback = listeners[0];
    server.removeListener('request', fallback);
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => this.handle(req, res, fallback));
  }

  handle(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    fallback: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  ): void {
    const url = req.url ?? '';
    const method = req.method;
    const route = this.enabled && !this.closing && (method === 'GET' || method === 'POST') ? this.routeOf(method, url) : undefined;
    const { caller, take, series } = this.hooks;
    const header = req.headers.authorization;
    const length = req.headers['content-length'];
    if (
      !route ||
      !caller ||
      !take ||
      !series ||
      !header ||
      // A body on a GET, and any POST body but a small JSON one of a known length, is parsed and checked by Fastify.
      (method === 'GET'
        ? length !== undefined
        : !length ||
          !/^[1-9][0-9]{0,5}$/.test(length) ||
          Number(length) > MAX_EARLY_BODY ||
          !JSON_BODY.test(req.headers['content-type'] ?? '')) ||
      req.headers['transfer-encoding'] !== undefined ||
      URL_MAY_HOLD_NUL.test(url)
    ) {
      fallback(req, res);
      return;
    }
    const started = performance.now();
    const auth = caller(header);
    if (!auth) {
      fallback(req, res);
      return;
    }
    if (method === 'GET') {
      this.answerTo(req, res, fallback, route, auth, url, undefined, started);
      return;
    }
    // The body, all of it (Content-Length bytes, or fewer when the client stops sending); whatever
    // happens next, Fastify gets these bytes as it would have read them.
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const done = (failed: boolean) => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      const body = Buffer.concat(chunks);
      bodies.set(req, body);
      if (failed) fallback(req, res);
      else this.answerTo(req, res, fallback, route, auth, url, body.toString('utf8'), started);
    };
    const onEnd = () => done(false);
    const onError = () => done(true);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  }

  private routeOf(method: 'GET' | 'POST', url: string): FastRoute | undefined {
    for (const r of this.routes) {
      if ((r.method ?? 'GET') === method && (method === 'GET' ? url.startsWith(r.prefix) : url === r.prefix)) return r;
    }
    return undefined;
  }

  /** Asks the route for its answer (a POST's body as text); a body already in memory is written in this tick. */
  private answerTo(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    fallback: (req: http.IncomingMessage, res: http.ServerResponse) => void,
    route: FastRoute,
    auth: Readonly<AuthContext>,
    url: string,
    body: string | undefined,
    started: number,
  ): void {
    let answered: ReturnType<FastRoute['answer']>;
    try {
      answered = route.answer(auth, url, body);
    } catch {
      fallback(req, res);
      return;
    }
    if (answered instanceof Promise) {
      answered.then(
        (bytes) => this.answerWith(req, res, fallback, route, auth, bytes, started),
        () => fallback(req, res),
      );
    } else this.answerWith(req, res, fallback, route, auth, answered, started);
  }

  /** Sends `body` when there is one and the caller is under their limit; else Fastify answers. */
  private answerWith(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    fallback: (req: http.IncomingMessage, res: http.ServerResponse) => void,
    route: FastRoute,
    auth: Readonly<AuthContext>,
    body: Buffer | undefined,
    started: number,
  ): void {
    const allowance = body === undefined || this.closing ? undefined : this.hooks.take!(auth);
    if (body === undefined || !allowance) fallback(req, res);
    else this.send(req, res, route, allowance, body, started);
  }

  private send(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    route: FastRoute,
    allowance: Allowance,
    body: Buffer,
    started: number,
  ): void {
    this.answered++;
    // Fastify's logger is pino, or a no-op one (logger: false) without isLevelEnabled.
    const logged = (this.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? false;
    // The same lines Fastify writes for every request (its serializers shape `req` and `res`).
    const log = logged ? this.log.child({ reqId: crypto.randomUUID() }) : undefined;
    log?.info(
      {
        req: {
          method: req.method,
          url: req.url,
          headers: req.headers,
          host: req.headers.host,
          ip: req.socket.remoteAddress,
          socket: req.socket,
        },
      },
      'incoming request',
    );
    // The headers in the order Fastify writes them: nosniff and the rate limit's (onRequest), then the body's.
    res.writeHead(200, {
      'x-content-type-options': 'nosniff',
      'x-ratelimit-limit': allowance.limit,
      'x-ratelimit-remaining': allowance.remaining,
      'x-ratelimit-reset': allowance.resetSeconds,
      'content-type': CONTENT_TYPE,
      'content-length': body.length,
    });
    res.end(body);
    const ms = performance.now() - started;
    // Every early answer is answered 200: one series per route, found once.
    let observe = this.observers.get(route);
    if (!observe) {
      observe = this.hooks.series!(route.method ?? 'GET', route.url, 200);
      this.observers.set(route, observe);
    }
    observe(ms / 1000);
    log?.info({ res: { statusCode: 200 }, responseTime: ms }, 'request completed');
  }
}
