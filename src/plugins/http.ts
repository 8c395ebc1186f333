// The HTTP platform every route stands on: Fastify with our validators and body parsers, problem
// documents for every error (the framework's own included), OpenAPI, metrics, CORS and the rate
// limit. app.ts builds the domains on top of what this returns; nothing here knows a domain.
import Fastify, { type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { Registry } from 'prom-client';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { AppError } from '../lib/errors.ts';
import { Problem } from '../lib/schemas.ts';
import { callerKey } from './auth.ts';
import { clientErrorHandler, frameworkErrorHandler, installDrainingAnswer, installErrorHandling, installOversizeAnswer } from './errors.ts';
import { installNulGuard } from './nul-guard.ts';
import { installMetrics } from './metrics.ts';
import { installOpenApi } from './openapi.ts';
import { FastAnswers, preread } from './fast-answers.ts';
import { onePerSchema, sharedSerializers } from './compiled-schemas.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads its body through its own streaming parser and limit (data uploads). */
    streamsBody?: boolean;
  }
  interface FastifyInstance {
    /** Repeated GETs answered before routing (fast-answers.ts): routes add themselves, plugins give their part. */
    fastAnswers: FastAnswers;
    /** The app's Prometheus registry, served at /metrics. */
    metrics: Registry;
  }
  interface FastifyRequest {
    /** A POST body the early answers read before routing (fast-answers.ts), as sent; unset when Fastify read the socket. */
    earlyBody?: Buffer;
  }
}

/** @fastify/rate-limit's own in-memory store, whose counters the early answers count on too. */
interface RateStore {
  incr(key: string, cb: (err: Error | null, res: { current: number; ttl: number }) => void, timeWindow: number, max: number): void;
  read(key: string, cb: (err: Error | null, res: { current: number; ttl: number }) => void, timeWindow: number, max: number): void;
}
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
) => RateStore;

export interface HttpOptions {
  /** Pino options, or false to stay quiet (tests). */
  logger: boolean | Record<string, unknown>;
  /** Process-level default metrics (off in tests, where many apps share one process). */
  metrics: boolean;
  /** Browser origins allowed to call the API; none by default. */
  corsOrigins: string[];
  rateLimitPerMinute: number;
  /** Whose X-Forwarded-For names the client (request.ip); false ignores forwarded headers. */
  trustProxy: boolean | number | string[];
}

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    // Unknown fields are refused (schemas say additionalProperties: false), never silently dropped.
    removeAdditional: false,
    allErrors: true,
    useDefaults: true,
    // Query strings and path params arrive as text; bodies are JSON and must have the right types.
    coerceTypes: coerce ? 'array' : false,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

export async function createHttpApp(options: HttpOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger,
    bodyLimit: 1024 * 1024,
    // A number of hops trusts that many proxies nearest the server, whatever their addresses.
    trustProxy: typeof options.trustProxy === 'number' ? trustHops(options.trustProxy) : options.trustProxy,
    // Answered as problem documents by installDrainingAnswer and clientErrorHandler instead.
    return503OnClosing: false,
    clientErrorHandler,
    genReqId: () => crypto.randomUUID(),
    // Router errors (bad percent-encoding, an over-long path parameter) happen before any route or
    // error handler is chosen; they leave as problem documents too.
    frameworkErrors: frameworkErrorHandler,
    ajv: { customOptions: { removeAdditional: false } },
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers() } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const fast = new FastAnswers(app.log, options.corsOrigins.length === 0);
  fast.install(app.server);
  app.decorate('fastAnswers', fast);
  app.addHook('preClose', (done) => {
    fast.close();
    done();
  });
  // A POST body the early answers read and could not answer from: Fastify parses these bytes instead of the socket's.
  app.addHook('preParsing', (req, _reply, payload, done) => {
    const body = preread(req.raw);
    if (body) req.earlyBody = body;
    done(null, body ? Readable.from([body]) : payload);
  });

  const bodyAjv = makeAjv(false);
  const paramsAjv = makeAjv(true);
  const validators = onePerSchema<ReturnType<Ajv['compile']>>();
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const part = httpPart === 'body' ? 'body' : 'params';
    const ajv = part === 'body' ? bodyAjv : paramsAjv;
    return validators(schema, () => ajv.compile(schema as object), part);
  });
  // JSON only: text/plain bodies get 415 instead of reaching a schema as a string.
  app.removeContentTypeParser('text/plain');
  // Many clients send Content-Type: application/json on a DELETE or POST with no body. An empty
  // body is no body; routes that need one still say so through their schema.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    parseJson(req, body as string, done);
  });
  app.addSchema(Problem);

  // No response is read as another type than it says (a JSON body sniffed as HTML, say); the
  // early answers (fast-answers.ts) send it too.
  app.addHook('onRequest', (_req, reply, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    done();
  });
  installDrainingAnswer(app);
  installErrorHandling(app);
  installOversizeAnswer(app);
  installNulGuard(app);
  await installOpenApi(app);
  app.decorate('metrics', installMetrics(app, { defaultMetrics: options.metrics, fast }));

  // Browser front ends on other origins: only those listed; none by default. Registered before the
  // rate limit and auth, so a preflight (which carries no credentials) is answered here.
  if (options.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: options.corsOrigins,
      methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type'],
      exposedHeaders: ['Link', 'Retry-After', 'WWW-Authenticate'],
      maxAge: 600,
    });
  }

  // Rate limits are per caller: the authentication hook (an app-level onRequest hook) runs before
  // this plugin's route-level one, so the key is who the caller is, not how they spelled the
  // header. Requests that reach it unauthenticated (unknown routes) count per address.
  // The plugin's own store, built here so that the early answers count on the same counters.
  const max = options.rateLimitPerMinute;
  const store = new LocalStore(false, false);
  fast.provide({
    take: (auth) => {
      const key = callerKey(auth);
      let out = { current: 0, ttl: 0 };
      store.read(key, (_err, res) => (out = res), 60_000, max);
      if (out.current >= max) return undefined;
      store.incr(key, (_err, res) => (out = res), 60_000, max);
      return { limit: max, remaining: Math.max(0, max - out.current), resetSeconds: Math.ceil(out.ttl / 1000) };
    },
  });
  await app.register(rateLimit, {
    global: true,
    max,
    timeWindow: 60_000,
    // Called with `new` and the plugin's settings; a constructor returning an object yields it.
    store: function SharedStore() {
      return store;
    } as unknown as never,
    keyGenerator: (req) => (req.auth ? callerKey(req.auth) : 'ip:' + req.ip),
    allowList: (req) => Boolean(req.routeOptions.config?.public),
    errorResponseBuilder: (_req, ctx) =>
      new AppError('RATE_LIMITED', `Rate limit of ${ctx.max} requests per minute exceeded; retry in ${Math.ceil(ctx.ttl / 1000)} s.`, {
        headers: { 'Retry-After': String(Math.ceil(ctx.ttl / 1000)) },
      }),
  });

  return app;
}
