import crypto from 'node:crypto';
import { ATTRIBUTES_RULE, parseAttributes, requireRole, roleAtLeast, type AuthContext, type Role } from '../../auth/context.ts';
import { AppError, invalidField, notFound } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { sha256 } from '../../lib/secrets.ts';
import type { Listening } from '../../db/index.ts';
import type { TokenRecord, TokensRepository } from './tokens.repository.ts';
import { VerifiedTokens } from './tokens.cache.ts';
import type { TokenView } from './tokens.schemas.ts';

export interface NewToken {
  tenantId: string;
  name: string;
  userId: string;
  userName?: string;
  email?: string | null;
  role: Role;
  /** As sent: a value or a list per name. */
  attributes?: Record<string, string | string[]>;
}

const PREFIX = 'ins_';

export function toTokenView(t: TokenRecord): TokenView {
  return {
    id: t.id,
    tenant_id: t.tenant_id,
    name: t.name,
    user_id: t.user_id,
    user_name: t.user_name,
    email: t.email,
    role: t.role,
    token_masked: `${t.token_hint}****`,
    created_at: t.created_at.toISOString(),
    revoked_at: t.revoked_at ? t.revoked_at.toISOString() : null,
    attributes: t.attributes as Record<string, string[]> | null,
  };
}

export class TokensService {
  private readonly verified = new VerifiedTokens();

  constructor(
    private readonly repo: TokensRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Remembers verified tokens from now on, forgetting them all on every change to api_tokens that
   * `listen` announces (calling back on each); see tokens.cache.ts. Without it nothing is cached.
   */
  async cacheVerified(listen: (onChange: () => void) => Promise<Listening>): Promise<void> {
    this.verified.follow(await listen(() => this.verified.changed()));
  }

  /** Stops following changes (the app closes). */
  stopCaching(): Promise<void> {
    return this.verified.close();
  }

  /** Creates a token and returns its plaintext, which is never stored nor shown again. */
  async create(input: NewToken): Promise<{ token: string; view: TokenView }> {
    const attributes = input.attributes === undefined ? null : parseAttributes(input.attributes);
    if (attributes === undefined) throw invalidField('/body/attributes', `must be ${ATTRIBUTES_RULE}`);
    const token = PREFIX + crypto.randomBytes(32).toString('base64url');
    const record: TokenRecord = {
      id: newId(),
      tenant_id: input.tenantId,
      name: input.name,
      user_id: input.userId,
      user_name: input.userName ?? input.userId,
      email: input.email ? input.email.toLowerCase() : null,
      role: input.role,
      token_hint: token.slice(0, PREFIX.length + 4),
      created_at: this.clock.now(),
      revoked_at: null,
      attributes,
    };
    await this.repo.insert({ ...record, token_hash: sha256(token) });
    return { token, view: toTokenView(record) };
  }

  /** The caller of a token verified recently, from memory alone (no query); undefined when not known. */
  known(token: string): Readonly<AuthContext> | undefined {
    return this.verified.get(sha256(token), this.clock.now().getTime());
  }

  async authenticate(token: string): Promise<AuthContext | undefined> {
    const hash = sha256(token);
    const known = this.verified.get(hash, this.clock.now().getTime());
    if (known) return { ...known };
    const generation = this.verified.begin();
    const t = await this.repo.findActiveByHash(hash);
    // Unknown and revoked tokens are not remembered: they are looked up again every time.
    if (!t) return undefined;
    const auth: AuthContext = {
      tenantId: t.tenant_id,
      userId: t.user_id,
      name: t.user_name,
      email: t.email,
      role: t.role,
      tokenId: t.id,
      ...(t.attributes ? { attributes: t.attributes } : {}),
    };
    this.verified.set(hash, auth, generation, this.clock.now().getTime());
    return { ...auth };
  }

  async createFor(auth: AuthContext, input: Omit<NewToken, 'tenantId'>): Promise<{ token: string; view: TokenView }> {
    requireRole(auth, 'admin', 'create API tokens');
    if (!roleAtLeast(auth.role, input.role)) {
      throw new AppError('FORBIDDEN', `You may not create a token with a role above your own (${auth.role}).`);
    }
    return this.create({ ...input, tenantId: auth.tenantId });
  }

  async listFor(auth: AuthContext): Promise<TokenView[]> {
    requireRole(auth, 'admin', 'list API tokens');
    return (await this.repo.list(auth.tenantId)).map(toTokenView);
  }

  async list(tenantId?: string): Promise<TokenView[]> {
    return (await this.repo.list(tenantId)).map(toTokenView);
  }

  async revokeFor(auth: AuthContext, id: string): Promise<void> {
    requireRole(auth, 'admin', 'revoke API tokens');
    const t = await this.repo.find(auth.tenantId, id);
    if (!t) throw notFound('Token');
    // The rule of creation, for revocation too: an admin who could revoke an owner's token could
    // lock the tenant's owners out of their own account.
    if (!roleAtLeast(auth.role, t.role)) {
      throw new AppError('FORBIDDEN', `You may not revoke a token with a role above your own (${auth.role}); this one is ${t.role}.`);
    }
    await this.revokeNow(id);
  }

  /** For the CLI, which acts for the operator across tenants. */
  async revoke(id: string): Promise<boolean> {
    const t = await this.repo.find(undefined, id);
    if (!t) return false;
    await this.revokeNow(id);
    return true;
  }

  private async revokeNow(id: string): Promise<void> {
    await this.repo.revoke(id, this.clock.now());
    // The trigger's announcement empties the cache too (at commit, and on other instances); this
    // does it before the revocation is answered, whatever the announcement's delay.
    this.verified.changed();
  }

  /** On the very first start, an owner token for tenant demo, so the service can be tried at once. */
  async createFirstOwnerToken(): Promise<string | undefined> {
    if (!(await this.repo.claimFirstOwnerToken())) return undefined;
    const { token } = await this.create({
      tenantId: 'demo',
      name: 'first start',
      userId: 'owner',
      userName: 'Demo Owner',
      email: 'owner@demo.example',
      role: 'owner',
    });
    return token;
  }
}
