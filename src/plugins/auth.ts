// Authentication for every route that is not marked public: `Authorization: Svc <api token>` or
// `Authorization: Bearer <JWT>`. The resolved caller is attached as request.auth. Failed
// authentications are limited per address and per credential, never the successes
// (docs/security.md).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../auth/context.ts';
import { underFailureLimit } from '../auth/failures.ts';
import { JwtRejected, type JwtVerifier } from '../auth/jwt.ts';
import { AppError } from '../lib/errors.ts';
import type { FixedWindowCounter } from '../lib/fixed-window.ts';
import type { TokensService } from '../modules/tokens/tokens.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
  }
  interface FastifyContextConfig {
    /** Routes that need no credentials (health, metrics, API docs). */
    public?: boolean;
  }
}

const CHALLENGE = 'Svc realm="insights", Bearer realm="insights"';

function unauthenticated(detail: string, error = 'invalid_token'): AppError {
  return new AppError('UNAUTHENTICATED', detail, {
    headers: { 'WWW-Authenticate': `Svc realm="insights", Bearer realm="insights", error="${error}"` },
  });
}

// RFC 9110 §11.4: a token for the scheme (case-insensitive), one or more spaces, a token68. Tabs,
// line breaks or a second credential are malformed, not read leniently.
const CREDENTIALS = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+) +([A-Za-z0-9._~+/-]+=*)$/;

/**
 * The caller of an Authorization header from the token and JWT caches alone, without a query or a
 * signature check; undefined when they do not know it (authenticate() then decides).
 */
export function knownCaller(header: string, tokens: TokensService, jwt: JwtVerifier): Readonly<AuthContext> | undefined {
  const match = CREDENTIALS.exec(header);
  if (!match) return undefined;
  const scheme = match[1].toLowerCase();
  if (scheme === 'svc') return tokens.known(match[2]);
  if (scheme === 'bearer' && jwt.enabled) return jwt.known(match[2]);
  return undefined;
}

export async function authenticate(req: FastifyRequest, tokens: TokensService, jwt: JwtVerifier): Promise<AuthContext> {
  const header = req.headers.authorization;
  if (!header) {
    throw new AppError('UNAUTHENTICATED', 'Send Authorization: Svc <token> or Authorization: Bearer <JWT>.', {
      headers: { 'WWW-Authenticate': CHALLENGE },
    });
  }
  const match = CREDENTIALS.exec(header);
  if (!match) throw unauthenticated('The Authorization header is malformed.', 'invalid_request');
  const scheme = match[1].toLowerCase();
  const credential = match[2];
  if (scheme === 'svc') {
    const auth = await tokens.authenticate(credential);
    if (!auth) throw unauthenticated('The API token is unknown or revoked.');
    return auth;
  }
  if (scheme === 'bearer') {
    if (!jwt.enabled) throw unauthenticated('JWT authentication is not configured on this server.');
    try {
      return await jwt.verify(credential);
    } catch (err) {
      if (err instanceof JwtRejected) throw unauthenticated(`The JWT was refused: ${err.message}.`);
      throw err;
    }
  }
  throw unauthenticated(`The scheme "${match[1]}" is not supported; use Svc or Bearer.`, 'invalid_request');
}

/**
 * Who the caller is, for per-caller limits: the API token's id, or the tenant and subject of a JWT
 * (a client minting a fresh JWT per request is still one caller). Never the header's text, which
 * can be respelled (`svc`, extra spaces) for a fresh allowance.
 */
export function callerKey(auth: AuthContext): string {
  return auth.tokenId ? `token:${auth.tokenId}` : `jwt:${JSON.stringify([auth.tenantId, auth.userId])}`;
}

export function installAuth(app: FastifyInstance, tokens: TokensService, jwt: JwtVerifier, failures: FixedWindowCounter): void {
  app.decorateRequest('auth', null as unknown as AuthContext);
  // Requests answered before routing (fast-answers.ts): a caller known from memory is valid, and a
  // valid credential passes whatever its address's failures.
  app.fastAnswers?.provide({ caller: (header) => knownCaller(header, tokens, jwt) });
  app.addHook('onRequest', async (req) => {
    // Unknown routes fall through to the not-found handler, which needs no credentials.
    if (req.routeOptions.config?.public || req.is404) return;
    req.auth = await underFailureLimit(failures, { ip: req.ip, authorization: req.headers.authorization }, () =>
      authenticate(req, tokens, jwt),
    );
  });
}
