// The one way the app talks to the service: the public API under /api/v1, with the token of the
// tab's session. Problems (RFC 9457) become ApiError with words a person can read.

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

export interface Page<T> {
  items: T[];
  /** The query string of the next page, from the Link header, when there is one. */
  next?: string;
}

async function send(method: string, path: string, body?: unknown, token = storedToken()): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = authorization(token);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'The service cannot be reached', 'Check your connection and that the service is running, then try again.');
  }
  if (!res.ok) {
    const problem = await problemOf(res);
    if (res.status === 401 && token && token === storedToken()) onUnauthorized?.();
    throw problem;
  }
  return res;
}

export async function api<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await send(method, path, body, token ?? storedToken());
  if (res.status === 204 || res.status === 202) {
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
  return (await res.json()) as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
/** A file the API answers (a dashboard's PDF): problems still become ApiError. */
export const getBlob = async (path: string): Promise<Blob> => (await send('GET', path)).blob();
export const post = <T>(path: string, body: unknown = {}) => api<T>('POST', path, body);
export const patch = <T>(path: string, body: unknown) => api<T>('PATCH', path, body);
export const del = (path: string) => api<void>('DELETE', path);

/** A list endpoint's page, with the cursor of the next one from `Link: <…>; rel="next"`. */
export async function getPage<T>(path: string): Promise<Page<T>> {
  const res = await send('GET', path);
  const items = (await res.json()) as T[];
  const link = res.headers.get('Link') ?? '';
  const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(link);
  let next: string | undefined;
  if (m) {
    const url = new URL(m[1], location.origin);
    next = url.search;
  }
  return { items, next };
}

/** All pages of a list (lists the app shows whole: dashboards, channels). */
export async function getAll<T>(path: string): Promise<T[]> {
  const all: T[] = [];
  let page = await getPage<T>(path);
  all.push(...page.items);
  for (let i = 0; page.next && i < 50; i++) {
    const base = path.split('?')[0];
    page = await getPage<T>(base + page.next);
    all.push(...page.items);
  }
  return all;
}

/** A problem in words: "Title: detail", then each field's message. */
export function describe(err: unknown): { title: string; detail?: string; fields: FieldProblem[] } {
  if (err instanceof ApiError) return { title: err.title, detail: err.detail, fields: err.errors };
  if (err instanceof Error) return { title: 'Something went wrong', detail: err.message, fields: [] };
  return { title: 'Something went wrong', fields: [] };
}
