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
  /**
   * User attributes for the model's row-level access filters (docs/model.md): name → the values
   * the caller may see. Absent or missing a name: none of the rows such a filter guards.
   */
  attributes?: UserAttributes;
}

export type UserAttributes = Readonly<Record<string, readonly string[]>>;

export const ATTRIBUTES_RULE =
  'an object of at most 50 names ([A-Za-z_][A-Za-z0-9_]*, up to 100 characters) to a value or a list of 1-100 values ' +
  '(strings of 1-200 characters without control characters, or numbers)';
const ATTRIBUTE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;
const ATTRIBUTE_VALUE = /^[^\p{C}]{1,200}$/u;

/**
 * Attributes as a token or JWT gives them (`{"store_id": "42"}`, `{"region": ["n", "s"]}`, numbers
 * as their decimal text), or undefined when they break ATTRIBUTES_RULE: an odd value is refused,
 * never read as "no restriction".
 */
export function parseAttributes(value: unknown): UserAttributes | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > 50) return undefined;
  const out: Record<string, string[]> = {};
  for (const [name, v] of entries) {
    if (!ATTRIBUTE_NAME.test(name)) return undefined;
    const list = Array.isArray(v) ? v : [v];
    if (list.length < 1 || list.length > 100) return undefined;
    const values: string[] = [];
    for (const x of list) {
      const text = typeof x === 'number' && Number.isFinite(x) ? String(x) : x;
      if (typeof text !== 'string' || !ATTRIBUTE_VALUE.test(text)) return undefined;
      if (!values.includes(text)) values.push(text);
    }
    out[name] = values;
  }
  return out;
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
