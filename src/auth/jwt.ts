// Bearer JWTs: HS256 with a shared secret, or RS256/ES256 through a JWKS URL. The algorithm is
// pinned by the key type, so `alg: none` and HS/RS confusion are refused by jose itself.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../config/index.ts';
import { isRole, type AuthContext } from './context.ts';

export class JwtRejected extends Error {}

/** How long a verified token is remembered (never past its exp); bounded in count. */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 10_000;

export class JwtVerifier {
  private readonly jwks?: ReturnType<typeof createRemoteJWKSet>;
  // WebCrypto verification runs on the thread pool and costs more than the rest of a cached
  // request; the same token string verified against the same keys gives the same answer until exp.
  private readonly verified = new Map<string, { auth: AuthContext; until: number }>();

  constructor(private readonly jwt: Config['jwt']) {
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
    const auth = claimsToAuth(payload);
    if (typeof payload.exp === 'number') {
      if (this.verified.size >= VERIFIED_MAX) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { auth, until: Math.min(payload.exp * 1000, Date.now() + VERIFIED_TTL_MS) });
    }
    return { ...auth };
  }
}

function nonEmpty(v: unknown): v is string {
  return typeof v === 'string' && v.trim() !== '';
}

export function claimsToAuth(payload: JWTPayload): AuthContext {
  const { sub, tenant_id: tenantId, role, name, email } = payload as JWTPayload & Record<string, unknown>;
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
