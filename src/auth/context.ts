import { AppError } from '../lib/errors.ts';

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { member: 1, admin: 2, owner: 3 };

/** Who is calling: resolved from an API token or a JWT, attached to every authenticated request. */
export interface AuthContext {
  tenantId: string;
  userId: string;
  name: string;
  email: string | null;
  role: Role;
  /** Set when the caller used an API token. */
  tokenId?: string;
}

/**
 * One rule for tenant ids wherever they come from (the CLI, a JWT's tenant_id): they name tables'
 * rows, logs and metrics labels, so only a small, visible alphabet.
 */
export const TENANT_ID_RULE = '1-100 characters of A-Z, a-z, 0-9, _, . and -';
export const isTenantId = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z0-9_.-]{1,100}$/.test(v);

/**
 * User ids are an identity provider's subjects (`auth0|5f7c…`, an e-mail, a UUID), so any
 * printable text, but bounded and without control characters or surrounding spaces: `"ann "` and
 * `"ann"` would otherwise be two users.
 */
export const USER_ID_RULE = '1-200 characters, no control characters, no leading or trailing spaces';
export const USER_ID_PATTERN = '^[^\\s\\p{C}](?:[^\\p{C}]{0,198}[^\\s\\p{C}])?$';
const USER_ID = new RegExp(USER_ID_PATTERN, 'u');
export const isUserId = (v: unknown): v is string => typeof v === 'string' && USER_ID.test(v);

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function roleAtLeast(role: Role, min: Role): boolean {
  return RANK[role] >= RANK[min];
}

/** Owners and admins manage the whole tenant; members only what they created or were shared. */
export function isManager(auth: AuthContext): boolean {
  return roleAtLeast(auth.role, 'admin');
}

export function requireRole(auth: AuthContext, min: Role, action: string): void {
  if (!roleAtLeast(auth.role, min)) {
    throw new AppError('FORBIDDEN', `Your role (${auth.role}) may not ${action}; it needs ${min} or above.`);
  }
}
