// The one way the app talks to the service: the public API under /api/v1, with the token of the
// tab's session. Problems (RFC 9457) become ApiError with words a person can read.
// Every call is typed by its path (openapi-fetch over api-types.ts, which `npm run web:types`
// generates from the OpenAPI document): a path, its parameters, its body and its answer are
// checked against the contract the server validates with, never chosen by the caller.
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './api-types.ts';

const TOKEN_KEY = 'insights.token';

export function storedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function storeToken(token: string | null): void {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** A JWT has three base64url parts and a JSON header; anything else is an API token. */
export function isJwt(token: string): boolean {
  return /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/.test(token);
}

export function authorization(token: string): string {
  return `${isJwt(token) ? 'Bearer' : 'Svc'} ${token}`;
}

export interface FieldProblem {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string | undefined,
    readonly errors: FieldProblem[] = [],
    readonly code?: string,
  ) {
    super(detail || title);
  }
}

let onUnauthorized: (() => void) | undefined;
/** Called when the service refuses the token (401): the session is over. */
export function setUnauthorizedHandler(fn: () => void): void {
  onUnauthorized = fn;
}

async function problemOf(res: Response): Promise<ApiError> {
  let body: Record<string, unknown> = {};
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's page): the status line is all there is.
  }
  const title = typeof body.title === 'string' ? body.title : res.statusText || `Error ${res.status}`;
  const detail = typeof body.detail === 'string' ? body.detail : undefined;
  const errors = Array.isArray(body.errors) ? (body.errors as FieldProblem[]).filter((e) => e && typeof e.message === 'string') : [];
  return new ApiError(res.status, title, detail, errors, typeof body.code === 'string' ? body.code : undefined);
}

const cannotReach = () =>
  new ApiError(0, 'The service cannot be reached', 'Check your connection and that the service is running, then try again.');

/**
 * The session's token on every call that names none of its own (signing in tries a token before
 * storing it); a problem thrown as ApiError, so a call that returns has succeeded; a 401 with the
 * stored token ends the session (not one with a token being tried).
 */
const session: Middleware = {
  onRequest({ request }) {
    const token = storedToken();
    if (token && !request.headers.has('Authorization')) request.headers.set('Authorization', authorization(token));
    return request;
  },
  async onResponse({ request, response }) {
    if (response.ok) return undefined;
    const problem = await problemOf(response);
    const token = storedToken();
    if (response.status === 401 && token && request.headers.get('Authorization') === authorization(token)) onUnauthorized?.();
    throw problem;
  },
  onError: cannotReach,
};

/** The API's client: `api.GET('/api/v1/dashboards/{id}', { params: { path: { id } } })`. */
export const api = createClient<paths>({ headers: { Accept: 'application/json' } });
api.use(session);

/** A token's own header, for a call made with a token that is not (yet) the session's. */
export const withToken = (token: string) => ({ headers: { Authorization: authorization(token) } });

/**
 * A query string the app built itself (the dashboard's filters: their names are the model's, which
 * the generated types cannot know), sent as it is: `api.GET(path, { params, ...rawQuery(q) })`.
 */
export const rawQuery = (q: string | URLSearchParams) => ({ querySerializer: () => String(q).replace(/^\?/, '') });

/** The JSON body a path's method takes, for a body built before the call: `RequestBody<'/api/v1/dashboards/', 'post'>`. */
export type RequestBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** What a path's method answers with 200: `ResponseBody<'/api/v1/ai/connectors/test', 'post'>`. */
export type ResponseBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

/** What a call of the client answers; with the session's middleware a failure has thrown. */
interface Answer<T> {
  data?: T;
  response: Response;
}

/** The body of a call that succeeded (a failure threw ApiError): `await bodyOf(api.GET(…))`. */
export async function bodyOf<T>(call: Promise<Answer<T>>): Promise<T> {
  return (await call).data as T;
}

export interface Page<T> {
  items: T[];
  /** The query of the next page, from the Link header, when there is one. */
  next?: PageQuery;
}

/** The next page's query as the Link header repeats it: the cursor, the limit and the list's filters. */
export type PageQuery = { cursor?: string; limit?: number } & Record<string, string | number | undefined>;

/** A list endpoint's page, with the query of the next one from `Link: <…>; rel="next"`. */
export async function pageOf<T>(call: Promise<Answer<T[]>>): Promise<Page<T>> {
  const { data, response } = await call;
  const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(response.headers.get('Link') ?? '');
  let next: PageQuery | undefined;
  if (m) {
    const q = new URL(m[1], location.origin).searchParams;
    next = Object.fromEntries(q);
    if (next.limit !== undefined) next.limit = Number(next.limit);
  }
  return { items: data ?? [], next };
}

/** All pages of a list (lists the app shows whole: dashboards, channels), each asked with the query `list` is given. */
export async function allPages<T>(list: (query?: PageQuery) => Promise<Answer<T[]>>): Promise<T[]> {
  let p = await pageOf(list());
  const items = [...p.items];
  for (let i = 0; p.next && i < 50; i++) {
    p = await pageOf(list(p.next));
    items.push(...p.items);
  }
  return items;
}

/** A problem in words: "Title: detail", then each field's message. */
export function describe(err: unknown): { title: string; detail?: string; fields: FieldProblem[] } {
  if (err instanceof ApiError) return { title: err.title, detail: err.detail, fields: err.errors };
  if (err instanceof Error) return { title: 'Something went wrong', detail: err.message, fields: [] };
  return { title: 'Something went wrong', fields: [] };
}
