// Who is signed in. The API has no "who am I" operation, so the app finds out from what it has:
// a JWT carries its claims; an API token of an owner or admin is found in the token list by its
// masked prefix; any other token that the service accepts is a member's.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { ApiError, api, isJwt, bodyOf, storedToken, withToken } from './api.ts';
import type { ApiToken, Dashboard, Role } from './types.ts';

export interface Session {
  token: string;
  role: Role;
  tenantId?: string;
  userId?: string;
  userName?: string;
  email?: string;
}

function jwtClaims(token: string): Record<string, unknown> {
  try {
    const part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(part.padEnd(part.length + ((4 - (part.length % 4)) % 4), '='))) as Record<string, unknown>;
  } catch {
    return {};
  }
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** Checks the token against the service (throws ApiError when refused) and says whose it is. */
export async function signIn(token: string): Promise<Session> {
  // Any authenticated read proves the token; the dashboards list is one every role may make.
  const dashboards = await bodyOf(api.GET('/api/v1/dashboards/', { params: { query: { limit: 1 } }, ...withToken(token) }));
  if (isJwt(token)) {
    const c = jwtClaims(token);
    const role = String(c.role ?? 'member').toLowerCase() as Role;
    return { token, role, tenantId: str(c.tenant_id), userId: str(c.sub), userName: str(c.name), email: str(c.email) };
  }
  try {
    const tokens = await bodyOf(api.GET('/api/v1/auth/tokens', withToken(token)));
    const prefix = (t: ApiToken) => t.token_masked.replace(/\*+$/, '');
    const mine = tokens.find((t) => !t.revoked_at && prefix(t).length > 0 && token.startsWith(prefix(t)));
    if (mine) {
      return {
        token,
        role: mine.role,
        tenantId: mine.tenant_id,
        userId: mine.user_id,
        userName: mine.user_name ?? undefined,
        email: mine.email ?? undefined,
      };
    }
    return { token, role: 'admin', tenantId: tokens[0]?.tenant_id };
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) return { token, role: 'member', tenantId: dashboards[0]?.tenant_id };
    throw err;
  }
}

const SESSION_KEY = 'insights.session';

/** Who is signed in, kept next to the token in the tab's session storage (the token is not repeated). */
export function saveSession(s: Session | null): void {
  if (!s) return sessionStorage.removeItem(SESSION_KEY);
  const { token: _token, ...who } = s;
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(who));
}

export function restoreSession(): Session | null {
  const token = storedToken();
  const saved = sessionStorage.getItem(SESSION_KEY);
  if (!token || !saved) return null;
  try {
    return { ...(JSON.parse(saved) as Omit<Session, 'token'>), token };
  } catch {
    return null;
  }
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside a signed-in page');
  return s;
}

export const isManager = (s: Session) => s.role === 'owner' || s.role === 'admin';

/** Owners and admins change every dashboard; members only those they created. */
export const mayEdit = (s: Session, d: Dashboard) => isManager(s) || (s.userId !== undefined && d.created_by === s.userId);
