import type { AuthContext } from '../../auth/context.ts';
import { mayManage, ownerScope } from '../../auth/policy.ts';
import type { Db, Queryable } from '../../db/index.ts';
import { DeliveryError, type ChannelTransport, type ChannelType, type OutboundChannel } from '../../adapters/delivery/types.ts';
import { newSigningSecret } from '../../adapters/delivery/webhook.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, invalidField, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { Page } from '../../lib/paging.ts';
import type { SecretBox } from '../../lib/secrets.ts';
import { composeTestReport } from '../reports/compose.ts';
import { checkConfig, isSecretKey, maskConfigValue } from './channels.config.ts';
import type { ChannelRecord, ChannelsRepository } from './channels.repository.ts';
import type { ChannelTestResult, ChannelView } from './channels.schemas.ts';

/**
 * Runs inside the transaction that deletes a channel, before the row goes: subscriptions hook in
 * here (insight subscriptions to the channel are deleted, dashboard subscriptions drop it and are
 * deactivated when left with none). Delivery logs are not touched.
 */
export type ChannelDeleteHook = (tx: Queryable, tenantId: string, channelId: string) => Promise<void>;

const TEST_TIMEOUT_MS = 15_000;

/** A name as stored: trimmed; one with nothing but spaces is refused naming the field. */
function channelName(raw: string): string {
  const name = raw.trim();
  if (!name) throw invalidField('/body/name', 'must not be empty');
  return name;
}

export class ChannelsService {
  private readonly deleteHooks: ChannelDeleteHook[];

  constructor(
    private readonly repo: ChannelsRepository,
    private readonly db: Pick<Db, 'transaction'>,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    private readonly transports: ChannelTransport,
    options: { onDelete?: ChannelDeleteHook[] } = {},
  ) {
    this.deleteHooks = [...(options.onDelete ?? [])];
  }

  /** Registers what must happen to dependents when a channel is deleted (same transaction). */
  onDelete(hook: ChannelDeleteHook): void {
    this.deleteHooks.push(hook);
  }

  /**
   * The channel's secrets in plaintext. A secret sealed under another master key (the key changed
   * since it was saved) is left out and named in `unreadable`.
   */
  private openSecrets(c: ChannelRecord): { values: Record<string, string>; unreadable: string[] } {
    const values: Record<string, string> = {};
    const unreadable: string[] = [];
    for (const [key, sealed] of Object.entries(c.secrets)) {
      try {
        values[key] = this.secrets.open(sealed);
      } catch {
        unreadable.push(key);
      }
    }
    return { values, unreadable };
  }

  private view(c: ChannelRecord, reveal: Record<string, string> = {}): ChannelView {
    const config: Record<string, string> = { ...c.config };
    const { values } = this.openSecrets(c);
    // An unreadable secret shows as a bare mask, which matches no secret when sent back.
    for (const key of Object.keys(c.secrets))
      config[key] = reveal[key] ?? (values[key] === undefined ? '****' : maskConfigValue(key, values[key]));
    return {
      id: c.id,
      name: c.name,
      channel_type: c.channel_type,
      config,
      is_verified: c.is_verified,
      created_at: c.created_at.toISOString(),
    };
  }

  /** Splits a config into plaintext keys and sealed secrets. */
  private seal(type: ChannelType, config: Record<string, string>): { config: Record<string, string>; secrets: Record<string, string> } {
    const plain: Record<string, string> = {};
    const sealed: Record<string, string> = {};
    for (const [key, value] of Object.entries(config)) {
      if (isSecretKey(type, key)) sealed[key] = this.secrets.seal(value);
      else plain[key] = value;
    }
    return { config: plain, secrets: sealed };
  }

  /** The channel if the caller may see it: managers all of the tenant, members their own. */
  private async visible(auth: AuthContext, id: string): Promise<ChannelRecord> {
    const c = await this.repo.find(auth.tenantId, id);
    if (!c || !mayManage(auth, c)) throw notFound('Channel');
    return c;
  }

  async list(auth: AuthContext, page: Page): Promise<ChannelView[]> {
    const rows = await this.repo.list(auth.tenantId, ownerScope(auth), page);
    return rows.map((c) => this.view(c));
  }

  async get(auth: AuthContext, id: string): Promise<ChannelView> {
    return this.view(await this.visible(auth, id));
  }

  /**
   * Creates a channel. A webhook channel gets a signing secret (unless one is given), returned in
   * plaintext in this answer only; afterwards it is shown masked like every secret.
   */
  async create(
    auth: AuthContext,
    input: { channel_type: ChannelType; config: Record<string, string>; name?: string },
  ): Promise<ChannelView> {
    checkConfig(input.channel_type, input.config);
    const name = input.name === undefined ? null : channelName(input.name);
    const config = { ...input.config };
    const reveal: Record<string, string> = {};
    if (input.channel_type === 'webhook') {
      config.signing_secret ??= newSigningSecret();
      reveal.signing_secret = config.signing_secret;
    }
    const now = this.clock.now();
    const record: ChannelRecord = {
      id: newId(),
      tenant_id: auth.tenantId,
      created_by: auth.userId,
      name,
      channel_type: input.channel_type,
      ...this.seal(input.channel_type, config),
      config_version: 1,
      is_verified: false,
      verified_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.repo.insert(record);
    return this.view(record, reveal);
  }

  /** Changes the config (see replaceConfig), the name (null removes it), or both. */
  async patch(auth: AuthContext, id: string, input: { config?: Record<string, string>; name?: string | null }): Promise<ChannelView> {
    let c = await this.visible(auth, id);
    const name = input.name === undefined ? undefined : input.name === null ? null : channelName(input.name);
    if (input.config) c = await this.replaceConfig(auth, c, input.config);
    if (name !== undefined) {
      const renamed = await this.repo.rename(auth.tenantId, id, name, this.clock.now());
      if (!renamed) throw notFound('Channel');
      c = renamed;
    }
    return this.view(c);
  }

  /**
   * Replaces the config whole and resets is_verified. A secret key sent back exactly as its mask
   * keeps the stored secret; a webhook's signing secret left out is kept too (it is ours, not
   * the user's, so a PATCH of the URL alone must not break the receiver's verification).
   */
  private async replaceConfig(auth: AuthContext, c: ChannelRecord, sent: Record<string, string>): Promise<ChannelRecord> {
    const stored = this.openSecrets(c).values;
    const keep = new Set(Object.keys(sent).filter((k) => stored[k] !== undefined && sent[k] === maskConfigValue(k, stored[k])));
    checkConfig(c.channel_type, sent, keep);
    const config = { ...sent };
    for (const k of keep) config[k] = stored[k];
    if (c.channel_type === 'webhook' && config.signing_secret === undefined)
      config.signing_secret = stored.signing_secret ?? newSigningSecret();
    const { config: plain, secrets } = this.seal(c.channel_type, config);
    const updated = await this.repo.replaceConfig(auth.tenantId, c.id, plain, secrets, this.clock.now());
    if (!updated) throw notFound('Channel');
    return updated;
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    await this.visible(auth, id);
    const deleted = await this.db.transaction(async (tx) => {
      for (const hook of this.deleteHooks) await hook(tx, auth.tenantId, id);
      return this.repo.delete(tx, auth.tenantId, id);
    });
    if (!deleted) throw notFound('Channel');
  }

  /**
   * Sends a real test message. Success marks the channel verified; a failure un-verifies it and
   * answers 502 with the upstream's reason.
   */
  async test(auth: AuthContext, id: string): Promise<ChannelTestResult> {
    const c = await this.visible(auth, id);
    const channel = this.outbound(c);
    const started = performance.now();
    try {
      await withTimeout(
        this.transports.send(channel, composeTestReport(channel), { deliveryId: `test_${newId()}`, sentAt: this.clock.now() }),
        TEST_TIMEOUT_MS,
      );
    } catch (err) {
      await this.repo.recordTest(auth.tenantId, id, c.config_version, false, this.clock.now());
      const reason = err instanceof DeliveryError ? err.message : 'the test message could not be sent';
      throw new AppError('UPSTREAM_FAILED', `The test message was not delivered: ${reason}`);
    }
    const latency = Math.round(performance.now() - started);
    await this.repo.recordTest(auth.tenantId, id, c.config_version, true, this.clock.now());
    return { success: true, message: `Test message sent to the ${c.channel_type} channel.`, latency_ms: latency };
  }

  /** The channel with plaintext secrets; 409 when they were sealed under another master key. */
  private outbound(c: ChannelRecord): OutboundChannel {
    const { values, unreadable } = this.openSecrets(c);
    if (unreadable.length > 0) {
      throw new AppError(
        'CONFLICT',
        `The channel's ${unreadable.join(', ')} was sealed under another master key (INSIGHTS_MASTER_KEY, or the data ` +
          `dir's master.key, changed since it was saved): save the channel's config again (PATCH).`,
      );
    }
    return { id: c.id, tenant_id: c.tenant_id, channel_type: c.channel_type, config: { ...c.config, ...values } };
  }

  /**
   * For the delivery worker: the channel with plaintext secrets, never across tenants. A channel
   * whose secrets cannot be opened comes back marked `unreadable` (its deliveries fail with that
   * reason) instead of failing the worker's whole batch.
   */
  async getForDelivery(tenantId: string, channelId: string): Promise<OutboundChannel | undefined> {
    const c = await this.repo.find(tenantId, channelId);
    if (!c) return undefined;
    try {
      return this.outbound(c);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return { id: c.id, tenant_id: c.tenant_id, channel_type: c.channel_type, config: { ...c.config }, unreadable: err.detail };
    }
  }

  /** The type of a channel the caller may use (members: their own), for subscriptions' checks. */
  async typeFor(auth: AuthContext, channelId: string): Promise<ChannelType | undefined> {
    const c = await this.repo.find(auth.tenantId, channelId);
    if (!c || !mayManage(auth, c)) return undefined;
    return c.channel_type;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeliveryError(`no answer within ${Math.round(ms / 1000)} s`, { retryable: true })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
