// Bearer JWTs: HS256 with a shared secret, or RS256/ES256 through a JWKS URL. The algorithm is
// pinned by the key type, so `alg: none` and HS/RS confusion are refused by jose itself.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../config/index.ts';
import {
  ATTRIBUTES_RULE,
  isRole,
  isTenantId,
  isUserId,
  parseAttributes,
  TENANT_ID_RULE,
  USER_ID_RULE,
  type AuthContext,
} from './context.ts';

export class JwtRejected extends Error {}

/** How long a verified token is remembered (never past its exp); bounded in count. */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 10_000;
export const DEFAULT_MAX_TTL_SECONDS = 24 * 3600;

export class JwtVerifier {
  private readonly jwks?: ReturnType<typeof createRemoteJWKSet>;
  // WebCrypto verification runs on the thread pool and costs more than the rest of a cached
  // request; the same token string verified against the same keys gives the same answer until exp.
  private readonly verified = new Map<string, { auth: AuthContext; until: number }>();

  private readonly jwt: Config['jwt'];

  constructor(jwt: Omit<Config['jwt'], 'maxTtlSeconds'> & { maxTtlSeconds?: number }) {
    this.jwt = { ...jwt, maxTtlSeconds: jwt.maxTtlSeconds ?? DEFAULT_MAX_TTL_SECONDS };
    if (jwt.jwksUrl) this.jwks = createRemoteJWKSet(new URL(jwt.jwksUrl));
  }

  get enabled(): boolean {
    return Boolean(this.jwt.secret || this.jwks);
  }

  /** The caller of a token verified recently, from memory alone; undefined when not known (or expired). */
  known(token: string): Readonly<AuthContext> | undefined {
    const known = this.verified.get(token);
    return known && Date.now() < known.until ? known.auth : undefined;
  }

  async verify(token: string): Promise<AuthContext> {
    const known = this.verified.get(token);
    if (known) {
      if (Date.now() < known.until) return { ...known.auth };
      this.verified.delete(token);
    }
    const auth = await this.verifyNow(token);
    return auth;
  }

  private async verifyNow(token: string): Promise<AuthContext> {
    let alg: string | undefined;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw new JwtRejected('the token is not a JWT');
    }
    const options = {
      issuer: this.jwt.issuer,
      audience: this.jwt.audience,
      requiredClaims: ['exp'],
    };
    let payload: JWTPayload;
    try {
      if (alg === 'HS256' && this.jwt.secret) {
        ({ payload } = await jwtVerify(token, this.jwt.secret, { ...options, algorithms: ['HS256'] }));
      } else if ((alg === 'RS256' || alg === 'ES256') && this.jwks) {
        ({ payload } = await jwtVerify(token, this.jwks, { ...options, algorithms: ['RS256', 'ES256'] }));
      } else {
        throw new JwtRejected(`the algorithm ${alg ?? '(none)'} is not accepted`);
      }
    } catch (err) {
      if (err instanceof JwtRejected) throw err;
      throw new JwtRejected((err as Error).message);
    }
    refuseRepeatedNames(token);
    checkTimes(payload, this.jwt.maxTtlSeconds);
    const auth = claimsToAuth(payload);
    if (typeof payload.exp === 'number') {
      if (this.verified.size >= VERIFIED_MAX) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { auth, until: Math.min(payload.exp * 1000, Date.now() + VERIFIED_TTL_MS) });
    }
    return { ...auth };
  }
}

/**
 * The first member name that appears twice in one object of a JSON text that JSON.parse accepted,
 * if any. One pass with an explicit stack, so no depth of nesting can overflow it.
 */
export function repeatedName(json: string): string | undefined {
  // One entry per open container: the names seen so far in an object, null for an array.
  const open: (Set<string> | null)[] = [];
  let nameNext = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '"') {
      let end = i + 1;
      while (json[end] !== '"') end += json[end] === '\\' ? 2 : 1;
      const names = open[open.length - 1];
      if (nameNext && names) {
        const name = JSON.parse(json.slice(i, end + 1)) as string;
        if (names.has(name)) return name;
        names.add(name);
      }
      nameNext = false;
      i = end;
    } else if (c === '{') {
      open.push(new Set());
      nameNext = true;
    } else if (c === '[') {
      open.push(null);
    } else if (c === '}' || c === ']') {
      open.pop();
    } else if (c === ',') {
      nameNext = Boolean(open[open.length - 1]);
    }
  }
  return undefined;
}

/**
 * RFC 7515 §4 and RFC 7519 §4 let a parser keep the last of repeated names, which is what
 * JSON.parse does; but two verifiers that pick differently read one signed token as two different
 * callers. A header or payload that repeats a name is refused.
 */
function refuseRepeatedNames(token: string): void {
  const [header, payload] = token.split('.');
  for (const [part, text] of [
    ['header', header],
    ['payload', payload],
  ] as const) {
    const name = repeatedName(Buffer.from(text, 'base64url').toString('utf8'));
    if (name !== undefined) throw new JwtRejected(`the ${part} repeats the name "${name.slice(0, 40)}"`);
  }
}

/**
 * jose checks that exp, nbf and iat are numbers, but JSON's 1e309 is the number Infinity: a token
 * that never expires. Each must be a finite NumericDate, and exp no further ahead than the
 * configured maximum lifetime, so a leaked token is worth a bounded time.
 */
function checkTimes(payload: JWTPayload, maxTtlSeconds: number): void {
  for (const claim of ['exp', 'nbf', 'iat'] as const) {
    const v = payload[claim];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v)))
      throw new JwtRejected(`the ${claim} claim is not a finite NumericDate`);
  }
  const ahead = (payload.exp as number) - Date.now() / 1000;
  if (ahead > maxTtlSeconds)
    throw new JwtRejected(`the token expires ${Math.round(ahead)} s from now, more than the ${maxTtlSeconds} s allowed`);
}

function nonEmpty(v: unknown): v is string {
  return typeof v === 'string' && v.trim() !== '';
}

export function claimsToAuth(payload: JWTPayload): AuthContext {
  const { sub, tenant_id: tenantId, role, name, email, attributes } = payload as JWTPayload & Record<string, unknown>;
  // Claims end up in SQL parameters (tenant, creator); PostgreSQL text cannot hold U+0000.
  for (const [claim, v] of Object.entries({ sub, tenant_id: tenantId, name, email })) {
    if (typeof v === 'string' && v.includes('\u0000')) throw new JwtRejected(`the ${claim} claim contains a NUL character`);
  }
  if (!nonEmpty(sub)) throw new JwtRejected('the sub claim is missing');
  if (!nonEmpty(tenantId)) throw new JwtRejected('the tenant_id claim is missing');
  // The same rules as the CLI's --tenant and --user: a tenant id is a row key and a log label, so
  // "demo " or 10 KB of text must not become a tenant of their own.
  if (!isTenantId(tenantId)) throw new JwtRejected(`the tenant_id claim must be ${TENANT_ID_RULE}`);
  if (!isUserId(sub)) throw new JwtRejected(`the sub claim must be ${USER_ID_RULE}`);
  const normalizedRole = typeof role === 'string' ? role.toLowerCase() : role;
  if (!isRole(normalizedRole)) throw new JwtRejected('the role claim must be owner, admin or member');
  // Row-level access (docs/model.md): a malformed claim is refused rather than read as none.
  const parsed = attributes === undefined ? undefined : parseAttributes(attributes);
  if (attributes !== undefined && !parsed) throw new JwtRejected(`the attributes claim must be ${ATTRIBUTES_RULE}`);
  return {
    tenantId,
    userId: sub,
    name: nonEmpty(name) ? name : sub,
    email: nonEmpty(email) ? email.toLowerCase() : null,
    role: normalizedRole,
    ...(parsed ? { attributes: parsed } : {}),
  };
}
