// Completes the OpenAPI document @fastify/swagger builds from the route schemas, with what the
// schemas alone cannot say:
// - operationId: a stable camelCase name per operation (clients generate method names from it);
// - named schemas: a schema carrying a `title` (Dashboard, DashboardWidget, ChartHint…) is moved
//   to components.schemas under that name and referenced, instead of being copied inline;
// - errors: every 4xx/5xx answers `application/problem+json` with the Problem schema; 404 is
//   declared where the path names an id, 413/415 where the operation takes a body, 401 unless the
//   operation is public (the route schemas declare the rest, see withErrors in src/lib/schemas.ts);
// - the `Link` header (rel="next") on paged lists, and `Retry-After` on 429.

type Json = Record<string, unknown>;

export interface OpenApiDocument {
  info: Json;
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Json>; [k: string]: unknown };
  [k: string]: unknown;
}

interface Operation {
  operationId?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: Json;
  responses?: Record<string, { description?: string; content?: Record<string, Json>; headers?: Json }>;
  security?: unknown[];
  'x-body-optional'?: boolean;
  [k: string]: unknown;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };

/**
 * Names chosen by hand where the naming rule would read badly; keys are "METHOD path". An
 * operation may also set `operationId` in its route schema. Renaming one breaks generated clients.
 */
const OPERATION_IDS: Record<string, string> = {
  'POST /api/v1/auth/tokens': 'createApiToken',
  'GET /api/v1/auth/tokens': 'listApiTokens',
  'DELETE /api/v1/auth/tokens/{id}': 'revokeApiToken',
  'GET /api/v1/ai/connectors': 'listConnectors',
  'POST /api/v1/ai/connectors': 'saveConnector',
  'POST /api/v1/ai/connectors/test': 'testConnector',
  'PATCH /api/v1/ai/connectors/{provider}': 'setConnectorActive',
  'DELETE /api/v1/ai/connectors/{provider}': 'deleteConnector',
  'POST /api/v1/ai/chat': 'chat',
  'GET /api/v1/insights': 'listInsights',
  'GET /api/v1/insights/{code}/execute': 'executeInsight',
  'GET /api/v1/dashboards/': 'listDashboards',
  'POST /api/v1/dashboards/': 'createDashboard',
  'GET /api/v1/dashboards/{id}': 'getDashboard',
  'PATCH /api/v1/dashboards/{id}': 'updateDashboard',
  'DELETE /api/v1/dashboards/{id}': 'deleteDashboard',
  'GET /api/v1/dashboards/{id}/widgets': 'listWidgets',
  'POST /api/v1/dashboards/{id}/widgets': 'createWidget',
  'PATCH /api/v1/dashboards/{id}/widgets/{wid}': 'updateWidget',
  'DELETE /api/v1/dashboards/{id}/widgets/{wid}': 'deleteWidget',
  'POST /api/v1/dashboards/{id}/widgets/{wid}/refresh': 'refreshWidget',
  'GET /api/v1/dashboards/subscriptions': 'listDashboardSubscriptions',
  'GET /api/v1/dashboards/{id}/subscriptions': 'listSubscriptionsOfDashboard',
  'POST /api/v1/dashboards/{id}/subscriptions': 'createDashboardSubscription',
  'PATCH /api/v1/dashboards/subscriptions/{subId}': 'setDashboardSubscriptionActive',
  'DELETE /api/v1/dashboards/subscriptions/{subId}': 'deleteDashboardSubscription',
  'POST /api/v1/dashboards/subscriptions/{subId}/send': 'sendDashboardSubscriptionNow',
  'GET /api/v1/notifications/channels': 'listChannels',
  'POST /api/v1/notifications/channels': 'createChannel',
  'PATCH /api/v1/notifications/channels/{id}': 'updateChannel',
  'DELETE /api/v1/notifications/channels/{id}': 'deleteChannel',
  'POST /api/v1/notifications/channels/{id}/test': 'testChannel',
  'GET /api/v1/notifications/subscriptions': 'listInsightSubscriptions',
  'POST /api/v1/notifications/subscriptions': 'createInsightSubscription',
  'PATCH /api/v1/notifications/subscriptions/{id}': 'setInsightSubscriptionActive',
  'DELETE /api/v1/notifications/subscriptions/{id}': 'deleteInsightSubscription',
  'POST /api/v1/notifications/subscriptions/{id}/send': 'sendInsightSubscriptionNow',
  'GET /api/v1/notifications/logs': 'listDeliveryLogs',
};

/**
 * The rule for operations the table does not name: a verb from the method (and whether the path
 * ends in an id), then the path's words without /api/v1 and ids, e.g. GET /api/v1/version →
 * getVersion, POST /api/v1/models/{id}/reload → postModelsReload.
 */
export function operationIdOf(method: string, path: string): string {
  const segments = path
    .replace(/^\/api\/v\d+/, '')
    .split('/')
    .filter(Boolean);
  const words = segments
    .filter((s) => !s.startsWith('{'))
    .flatMap((s) => s.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  const verb = method.toLowerCase();
  const name = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  return name ? verb + name : verb + 'Root';
}

export function completeDocument(doc: OpenApiDocument): OpenApiDocument {
  doc.components ??= {};
  doc.components.schemas ??= {};
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = methods[method];
      if (!op) continue;
      op.operationId ??= OPERATION_IDS[`${method.toUpperCase()} ${path}`] ?? operationIdOf(method, path);
      // Bodies that may be left out (refresh, channel test, send-now) say so with x-body-optional;
      // @fastify/swagger would otherwise mark every declared body as required.
      if (op['x-body-optional']) {
        if (op.requestBody) op.requestBody.required = false;
        delete op['x-body-optional'];
      }
      completeResponses(op, path, method);
    }
  }
  doc.paths = nameSchemas(doc.paths ?? {}, doc.components.schemas) as OpenApiDocument['paths'];
  return doc;
}

/** Fastify reads a body on these methods whether the route declares one or not. */
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

function completeResponses(op: Operation, path: string, method: string): void {
  const responses = (op.responses ??= {});
  const isPublic = Array.isArray(op.security) && op.security.length === 0;
  const extra: [string, string][] = [];
  if (!isPublic) extra.push(['401', 'Missing or invalid credentials']);
  if (path.includes('{')) extra.push(['404', 'No such resource, or one of another tenant or that you may not view']);
  if (op.requestBody || BODY_METHODS.has(method)) extra.push(['413', 'The body is too large'], ['415', 'The body is not application/json']);
  // Any request can meet these before a route is chosen: Node's parser (slow or oversized
  // headers) and a server draining on SIGTERM (docs/errors.md).
  extra.push(
    ['408', 'The request did not arrive in time'],
    ['431', 'The request headers are too large'],
    ['503', 'The server is shutting down or a dependency is unavailable; retry'],
  );
  for (const [status, description] of extra) responses[status] ??= { description };

  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) < 400) continue;
    const schema = Object.values(response.content ?? {})[0]?.schema ?? PROBLEM_REF;
    response.content = { 'application/problem+json': { schema } };
    if (!response.description || response.description === 'Default Response') response.description = 'RFC 9457 problem details';
    if (status === '429') {
      response.headers = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } } };
    }
  }

  const paged = op.parameters?.some((p) => p.in === 'query' && p.name === 'cursor');
  const ok = responses['200'];
  if (paged && ok) {
    ok.headers = {
      ...(ok.headers ?? {}),
      Link: {
        description: 'Present when there is a further page: `<url>; rel="next"`, the same request with the cursor of that page',
        schema: { type: 'string' },
      },
    };
  }
}

/**
 * Replaces every schema that carries a `title` with a reference to components.schemas[title],
 * innermost first, so a named schema's own copy references the names inside it. Two different
 * schemas under one title are a programming error.
 */
function nameSchemas(node: unknown, components: Record<string, Json>): unknown {
  if (Array.isArray(node)) return node.map((n) => nameSchemas(n, components));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = nameSchemas(v, components);
  const name = out.title;
  if (typeof name !== 'string' || !isSchema(out)) return out;
  const existing = components[name];
  if (existing && canonical(existing) !== canonical(out)) {
    throw new Error(`Two different schemas are titled "${name}"; give one of them another title`);
  }
  components[name] = out;
  return { $ref: `#/components/schemas/${name}` };
}

function isSchema(o: Json): boolean {
  return ['type', 'enum', 'anyOf', 'oneOf', 'allOf', 'properties', 'const'].some((k) => k in o);
}

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, val) =>
    val && typeof val === 'object' && !Array.isArray(val)
      ? Object.fromEntries(Object.entries(val).sort(([a], [b]) => a.localeCompare(b)))
      : val,
  );
}
