// Embedding keys: created, listed (masked), rotated with an overlap and revoked by a tenant's owner
// or admin (docs/embedding.md). The secret is returned once, by create and rotate, and otherwise
// only ever sealed at rest.
import crypto from 'node:crypto';
import { requireRole, type AuthContext } from '../../auth/context.ts';
import type { Clock } from '../../lib/clock.ts';
import { invalidField, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { SecretBox } from '../../lib/secrets.ts';
import type { EmbedKeyRecord, EmbedKeysRepository } from './embed-keys.repository.ts';
import type { EmbedKeyView, NewEmbedKey } from './embed.schemas.ts';

/** After a rotation the previous secret still verifies for this long, so running backends can switch over. */
export const ROTATION_GRACE_SECONDS = 24 * 3600;
const PREFIX = 'esk_';

/** What verification needs of a key: its tenant, its origins, the secrets that verify now. */
export interface VerifyingKey {
  id: string;
  tenantId: string;
  origins: string[];
  jwksUrl: string | null;
  secrets: string[];
}

function toView(k: EmbedKeyRecord, now: Date): EmbedKeyView {
  const graceLeft = k.previous_valid_until && k.previous_valid_until > now;
  return {
    id: k.id,
    tenant_id: k.tenant_id,
    name: k.name,
    allowed_origins: [...k.allowed_origins],
    jwks_url: k.jwks_url,
    secret_masked: `${k.secret_hint}****`,
    previous_secret_valid_until: graceLeft ? k.previous_valid_until!.toISOString() : null,
    created_by: k.created_by,
    created_at: k.created_at.toISOString(),
    rotated_at: k.rotated_at ? k.rotated_at.toISOString() : null,
  };
}

// A host name of DNS labels (an IPv4 address is one too) or a bracketed IPv6 address: the URL
// parser alone lets `*`, quotes and commas through, which a frame-ancestors list would read as a
// wildcard or a second source.
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** An origin as browsers send it: scheme://host[:port] only; http only for loopback development. */
function checkOrigin(o: string, i: number): string {
  let url: URL;
  try {
    url = new URL(o);
  } catch {
    throw invalidField(`/body/allowed_origins/${i}`, 'must be an origin such as https://app.example.com');
  }
  if (!HOST_NAME.test(url.hostname) && !/^\[[0-9a-f:.]+\]$/.test(url.hostname))
    throw invalidField(
      `/body/allowed_origins/${i}`,
      'must be scheme://host[:port] with a host name of letters, digits, hyphens and dots (no wildcard)',
    );
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw invalidField(`/body/allowed_origins/${i}`, 'must be https:// (http:// only for localhost)');
  if (url.origin !== o)
    throw invalidField(`/body/allowed_origins/${i}`, `must be an origin alone, without path or trailing slash (${url.origin})`);
  return url.origin;
}

export class EmbedKeysService {
  constructor(
    private readonly repo: EmbedKeysRepository,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
  ) {}

  private newSecret(): { secret: string; sealed: string; hint: string } {
    const secret = PREFIX + crypto.randomBytes(32).toString('base64url');
    return { secret, sealed: this.secrets.seal(secret), hint: secret.slice(0, PREFIX.length + 4) };
  }

  async create(auth: AuthContext, input: NewEmbedKey): Promise<EmbedKeyView & { secret: string }> {
    requireRole(auth, 'admin', 'create embedding keys');
    const origins = [...new Set(input.allowed_origins.map(checkOrigin))];
    if (input.jwks_url) {
      let url: URL | undefined;
      try {
        url = new URL(input.jwks_url);
      } catch {
        /* reported below */
      }
      if (url?.protocol !== 'https:') throw invalidField('/body/jwks_url', 'must be an https:// URL');
    }
    const { secret, sealed, hint } = this.newSecret();
    const record: EmbedKeyRecord = {
      id: newId(),
      tenant_id: auth.tenantId,
      name: input.name,
      allowed_origins: origins,
      jwks_url: input.jwks_url ?? null,
      secret_sealed: sealed,
      secret_hint: hint,
      previous_secret_sealed: null,
      previous_valid_until: null,
      created_by: auth.userId,
      created_at: this.clock.now(),
      rotated_at: null,
    };
    await this.repo.insert(record);
    return { ...toView(record, this.clock.now()), secret };
  }

  async list(auth: AuthContext): Promise<EmbedKeyView[]> {
    requireRole(auth, 'admin', 'list embedding keys');
    const now = this.clock.now();
    return (await this.repo.list(auth.tenantId)).map((k) => toView(k, now));
  }

  /** A new secret; the current one keeps verifying for ROTATION_GRACE_SECONDS (a second rotation ends that at once). */
  async rotate(auth: AuthContext, id: string): Promise<EmbedKeyView & { secret: string }> {
    requireRole(auth, 'admin', 'rotate embedding keys');
    const current = await this.repo.find(auth.tenantId, id);
    if (!current) throw notFound('Embedding key');
    const now = this.clock.now();
    const { secret, sealed, hint } = this.newSecret();
    const updated = await this.repo.rotate(auth.tenantId, id, {
      secret_sealed: sealed,
      secret_hint: hint,
      previous_secret_sealed: current.secret_sealed,
      previous_valid_until: new Date(now.getTime() + ROTATION_GRACE_SECONDS * 1000),
      rotated_at: now,
    });
    if (!updated) throw notFound('Embedding key');
    return { ...toView(updated, now), secret };
  }

  async revoke(auth: AuthContext, id: string): Promise<void> {
    requireRole(auth, 'admin', 'revoke embedding keys');
    if (!(await this.repo.delete(auth.tenantId, id))) throw notFound('Embedding key');
  }

  /** The key named by a token's kid, with the secrets that verify at this moment; undefined when unknown or revoked. */
  async verifying(id: string): Promise<VerifyingKey | undefined> {
    const k = await this.repo.find(undefined, id);
    if (!k) return undefined;
    const secrets = [this.secrets.open(k.secret_sealed)];
    if (k.previous_secret_sealed && k.previous_valid_until && k.previous_valid_until > this.clock.now())
      secrets.push(this.secrets.open(k.previous_secret_sealed));
    return { id: k.id, tenantId: k.tenant_id, origins: [...k.allowed_origins], jwksUrl: k.jwks_url, secrets };
  }

  /** The origins that may frame an embedded page of this key (CSP frame-ancestors); none when unknown. */
  async origins(id: string): Promise<string[]> {
    return (await this.repo.find(undefined, id))?.allowed_origins ?? [];
  }
}
