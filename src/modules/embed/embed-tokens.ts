// Embed tokens (docs/embedding.md): short-lived JWTs a tenant's backend signs with an embedding
// key — HS256 with the key's secret and `kid` = the key's id, or RS256/ES256 through the key's
// JWKS URL. The tenant is the key's; the token names one resource, the viewer, locked filters and
// attributes. Every refusal is an EmbedTokenRejected with the reason, answered as a 401 problem.
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { ATTRIBUTES_RULE, isUserId, parseAttributes, USER_ID_RULE, type UserAttributes } from '../../auth/context.ts';
import { repeatedName } from '../../auth/jwt.ts';
import type { Clock } from '../../lib/clock.ts';
import { ID_PATTERN } from '../../lib/ids.ts';
import type { VerifyingKey } from './embed-keys.service.ts';

export class EmbedTokenRejected extends Error {}

/** The longest an embed token may live: a leaked one is worth a bounded time. */
export const MAX_EMBED_TTL_SECONDS = 24 * 3600;
const JWKS_TTL_MS = 10 * 60_000;
const ID = new RegExp(ID_PATTERN);
const FILTER_NAME = /^[a-z_][a-z0-9_]{0,99}$/;

export type EmbedResource = { kind: 'dashboard'; id: string } | { kind: 'chat' };

/** Who is looking, through which key, at what. */
export interface EmbedViewer {
  keyId: string;
  tenantId: string;
  origins: string[];
  /** The `sub` claim: the tenant's own user id for the viewer. */
  viewer: string;
  resource: EmbedResource;
  /** Locked filter values: applied to every query, never overridden. */
  filters: Record<string, string | string[]>;
  attributes?: UserAttributes;
}

export interface KeySource {
  verifying(id: string): Promise<VerifyingKey | undefined>;
}

/** Fetches a JWKS document (through the egress guard: a tenant's URL must not reach our network). */
export type JwksFetcher = (url: string) => Promise<unknown>;

export class EmbedTokenVerifier {
  private readonly jwks = new Map<string, { at: number; set: ReturnType<typeof createLocalJWKSet> }>();

  constructor(
    private readonly keys: KeySource,
    private readonly fetchJwks: JwksFetcher,
    private readonly clock: Clock,
  ) {}

  async verify(token: string): Promise<EmbedViewer> {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw new EmbedTokenRejected('the token is not a JWT');
    }
    const { alg, kid } = header;
    if (typeof kid !== 'string' || !ID.test(kid)) throw new EmbedTokenRejected('the header has no kid naming an embedding key');
    const key = await this.keys.verifying(kid);
    if (!key) throw new EmbedTokenRejected('the embedding key is unknown or revoked');
    const options = { requiredClaims: ['exp', 'sub', 'resource'], currentDate: this.clock.now() };
    let payload: JWTPayload | undefined;
    // A key with a JWKS URL takes only tokens signed by the JWKS's keys: its secret would be a
    // second way in that whoever holds the JWKS's private keys did not choose.
    if (alg === 'HS256' && key.jwksUrl) {
      throw new EmbedTokenRejected('this embedding key verifies through its JWKS URL and accepts only RS256 or ES256 tokens');
    } else if (alg === 'HS256') {
      for (const secret of key.secrets) {
        try {
          ({ payload } = await jwtVerify(token, new TextEncoder().encode(secret), { ...options, algorithms: ['HS256'] }));
          break;
        } catch (err) {
          if ((err as { code?: string }).code !== 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED')
            throw new EmbedTokenRejected((err as Error).message);
        }
      }
      if (!payload) throw new EmbedTokenRejected('the signature does not verify with the embedding key');
    } else if ((alg === 'RS256' || alg === 'ES256') && key.jwksUrl) {
      try {
        ({ payload } = await jwtVerify(token, await this.keySet(key.jwksUrl), { ...options, algorithms: ['RS256', 'ES256'] }));
      } catch (err) {
        throw new EmbedTokenRejected((err as Error).message);
      }
    } else {
      throw new EmbedTokenRejected(`the algorithm ${alg ?? '(none)'} is not accepted for this key`);
    }
    return claimsToViewer(token, payload, key, this.clock.now());
  }

  private async keySet(url: string): Promise<ReturnType<typeof createLocalJWKSet>> {
    const known = this.jwks.get(url);
    const now = this.clock.now().getTime();
    if (known && now - known.at < JWKS_TTL_MS) return known.set;
    let doc: unknown;
    try {
      doc = await this.fetchJwks(url);
      const set = createLocalJWKSet(doc as JSONWebKeySet);
      this.jwks.set(url, { at: now, set });
      return set;
    } catch (err) {
      throw new EmbedTokenRejected(`the key's JWKS could not be read: ${(err as Error).message}`);
    }
  }
}

function claimsToViewer(token: string, payload: JWTPayload, key: VerifyingKey, now: Date): EmbedViewer {
  // Two verifiers that keep different copies of a repeated name would read two different viewers.
  const [h, p] = token.split('.');
  for (const [part, text] of [
    ['header', h],
    ['payload', p],
  ] as const) {
    const name = repeatedName(Buffer.from(text, 'base64url').toString('utf8'));
    if (name !== undefined) throw new EmbedTokenRejected(`the ${part} repeats the name "${name.slice(0, 40)}"`);
  }
  for (const claim of ['exp', 'nbf', 'iat'] as const) {
    const v = payload[claim];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v)))
      throw new EmbedTokenRejected(`the ${claim} claim is not a finite NumericDate`);
  }
  const ahead = (payload.exp as number) - now.getTime() / 1000;
  if (ahead > MAX_EMBED_TTL_SECONDS)
    throw new EmbedTokenRejected(`the token expires ${Math.round(ahead)} s from now, more than the ${MAX_EMBED_TTL_SECONDS} s allowed`);
  const claims = payload as JWTPayload & Record<string, unknown>;
  if (!isUserId(claims.sub)) throw new EmbedTokenRejected(`the sub claim must be ${USER_ID_RULE}`);
  const resource = parseResource(claims.resource);
  const filters = parseFilters(claims.filters);
  if (resource.kind === 'chat' && Object.keys(filters).length) {
    throw new EmbedTokenRejected("a chat token takes no filters: restrict chat with attributes and the model's access_filters");
  }
  const attributes = claims.attributes === undefined ? undefined : parseAttributes(claims.attributes);
  if (claims.attributes !== undefined && !attributes) throw new EmbedTokenRejected(`the attributes claim must be ${ATTRIBUTES_RULE}`);
  return {
    keyId: key.id,
    tenantId: key.tenantId,
    origins: key.origins,
    viewer: claims.sub,
    resource,
    filters,
    ...(attributes ? { attributes } : {}),
  };
}

function parseResource(v: unknown): EmbedResource {
  if (v === 'chat') return { kind: 'chat' };
  const m = typeof v === 'string' ? /^dashboard:(.+)$/.exec(v) : null;
  if (m && ID.test(m[1])) return { kind: 'dashboard', id: m[1] };
  throw new EmbedTokenRejected('the resource claim must be "dashboard:<id>" or "chat"');
}

function parseFilters(v: unknown): Record<string, string | string[]> {
  if (v === undefined) return {};
  const ok = (x: unknown) => typeof x === 'string' && x.length > 0 && x.length <= 200 && !/\p{C}/u.test(x);
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new EmbedTokenRejected('the filters claim must be an object of filter names to values');
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(v as Record<string, unknown>)) {
    if (!FILTER_NAME.test(name)) throw new EmbedTokenRejected(`the filter name "${name.slice(0, 40)}" is not a filter parameter`);
    const list = Array.isArray(value)
      ? value.map((x) => (typeof x === 'number' ? String(x) : x))
      : [typeof value === 'number' ? String(value) : value];
    if (!list.length || list.length > 100 || !list.every(ok))
      throw new EmbedTokenRejected(`the locked filter ${name} must be a value or a list of values`);
    out[name] = Array.isArray(value) ? (list as string[]) : (list[0] as string);
  }
  return out;
}
