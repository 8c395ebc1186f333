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
