// Bearer JWTs: HS256 with a shared secret, or RS256/ES256 through a JWKS URL. The algorithm is
// pinned by the key type, so `alg: none` and HS/RS confusion are refused by jose itself.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../config/index.ts';
import { isRole, type AuthContext } from './context.ts';

export class JwtRejected extends Error {}

export class JwtVerifier {
  private readonly jwks?: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly jwt: Config['jwt']) {
    if (jwt.jwksUrl) this.jwks = createRemoteJWKSet(new URL(jwt.jwksUrl));
  }

  get enabled(): boolean {
    return Boolean(this.jwt.secret || this.jwks);
  }

  async verify(token: string): Promise<AuthContext> {
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
    return claimsToAuth(payload);
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
