// Bearer JWTs: HS256 with a shared secret, or RS256/ES256 through a JWKS URL. The algorithm is
// pinned by the key type, so `alg: none` and HS/RS confusion are refused by jose itself.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../config/index.ts';
import { isRole, type AuthContext } from './context.ts';

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
 * jose checks that exp, nbf and iat are numbers, but JSON's 1e309 is the number Infinity: a token
 * that never expires. Each must be a finite NumericDate, and exp no further ahead than the
 * configured maximum lifetime, so a leaked token is worth a bounded time.
 */
function checkTimes(payload: JWTPayload, maxTtlSeconds: number): void {
  for (const claim of ['exp', 'nbf', 'iat'] as const) {
    const v = payload[claim];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v))) throw new JwtRejected(`the ${claim} claim is not a finite NumericDate`);
  }
  const ahead = (payload.exp as number) - Date.now() / 1000;
  if (ahead > maxTtlSeconds) throw new JwtRejected(`the token expires ${Math.round(ahead)} s from now, more than the ${maxTtlSeconds} s allowed`);
}

function nonEmpty(v: unknown): v is string {
  return typeof v === 'string' && v.trim() !== '';
}

export function claimsToAuth(payload: JWTPayload): AuthContext {
  const { sub, tenant_id: tenantId, role, name, email } = payload as JWTPayload & Record<string, unknown>;
  // Claims end up in SQL parameters (tenant, creator); PostgreSQL text cannot hold U+0000.
  for (const [claim, v] of Object.entries({ sub, tenant_id: tenantId, name, email })) {
    if (typeof v === 'string' && v.includes('\u0000')) throw new JwtRejected(`the ${claim} claim contains a NUL character`);
  }
  if (!nonEmpty(sub)) throw new JwtRejected('the sub claim is missing');
  if (!nonEmpty(tenantId)) throw new JwtRejected('the tenant_id claim is missing');
  const normalizedRole = typeof role === 'string' ? role.toLowerCase() : role;
  if (!isRole(normalizedRole)) throw new JwtRejected('the role claim must be owner, admin or member');
  return {
    tenantId,
    userId: sub,
    name: nonEmpty(name) ? name : sub,
    email: nonEmpty(email) ? email.toLowerCase() : null,
    role: normalizedRole,
  };
}
