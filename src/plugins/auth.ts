// Authentication for every route that is not marked public: `Authorization: Svc <api token>` or
// `Authorization: Bearer <JWT>`. The resolved caller is attached as request.auth.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../auth/context.ts';
import { JwtRejected, type JwtVerifier } from '../auth/jwt.ts';
import { AppError } from '../lib/errors.ts';
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

export async function authenticate(
  req: FastifyRequest,
  tokens: TokensService,
  jwt: JwtVerifier,
): Promise<AuthContext> {
  const header = req.headers.authorization;
  if (!header) {
    throw new AppError('UNAUTHENTICATED', 'Send Authorization: Svc <token> or Authorization: Bearer <JWT>.', {
      headers: { 'WWW-Authenticate': CHALLENGE },
    });
  }
  const match = /^(\S+)\s+(\S+)\s*$/.exec(header);
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

export function installAuth(app: FastifyInstance, tokens: TokensService, jwt: JwtVerifier): void {
  app.decorateRequest('auth', null as unknown as AuthContext);
  app.addHook('onRequest', async (req) => {
    // Unknown routes fall through to the not-found handler, which needs no credentials.
    if (req.routeOptions.config?.public || req.is404) return;
    req.auth = await authenticate(req, tokens, jwt);
  });
}
