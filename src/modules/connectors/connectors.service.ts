import { performance } from 'node:perf_hooks';
import { requireRole, type AuthContext } from '../../auth/context.ts';
import {
  createLlmClient,
  LLM_TIMEOUT_MS,
  LlmError,
  type HttpTransport,
  type LlmClient,
  type LlmConnection,
  type Provider,
} from '../../adapters/llm/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { invalidField, notFound } from '../../lib/errors.ts';
import { maskSecret, type SecretBox } from '../../lib/secrets.ts';
import type { ConnectorRecord, ConnectorsRepository } from './connectors.repository.ts';
import { defaultModel, modelLabel } from './connectors.models.ts';
import type { ConnectionTest, ConnectorInput, ConnectorView } from './connectors.schemas.ts';

// Prefixes per provider (docs/product.md §6). The longer vendor prefixes are checked first so a key of
// one vendor pasted under another is named as such.
const KEY_PREFIX: Record<Exclude<Provider, 'custom'>, string> = {
  vendor_b: 'sk-ant-',
  router: 'sk-or-',
  vendor_a: 'sk-',
  vendor_c: 'AIza',
};

function checkKey(provider: Provider, key: string): void {
  if (/\s/.test(key)) throw invalidField('api_key', 'must not contain spaces or line breaks');
  if (provider === 'custom') return;
  const prefix = KEY_PREFIX[provider];
  if (!key.startsWith(prefix)) throw invalidField('api_key', `a ${provider} key starts with "${prefix}"`);
  if (provider === 'vendor_a') {
    const other = key.startsWith('sk-ant-') ? 'vendor_b' : key.startsWith('sk-or-') ? 'router' : undefined;
    if (other) throw invalidField('api_key', `this looks like a ${other} key, not a vendor_a key`);
  }
  if (key.length < prefix.length + 8) throw invalidField('api_key', 'is too short to be a real key');
}

function checkBaseUrl(provider: Provider, baseUrl: string | undefined): string | null {
  if (provider !== 'custom') {
    if (baseUrl !== undefined) throw invalidField('base_url', 'is only accepted for the custom provider');
    return null;
  }
  if (baseUrl === undefined) throw invalidField('base_url', 'is required for the custom provider');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw invalidField('base_url', 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidField('base_url', 'must be an http or https URL');
  if (url.username || url.password) throw invalidField('base_url', 'must not carry credentials; send the key as api_key');
  if (url.search || url.hash) throw invalidField('base_url', 'must not have a query string or fragment');
  return url.toString().replace(/\/+$/, '');
}

function resolveModel(provider: Provider, model: string | undefined): string {
  const chosen = model?.trim() || defaultModel(provider);
  if (!chosen) throw invalidField('model', 'is required for the custom provider');
  return chosen;
}

export function toConnectorView(r: ConnectorRecord): ConnectorView {
  return {
    provider: r.provider,
    api_key_masked: r.api_key_masked,
    is_active: r.is_active,
    created_at: r.created_at.toISOString(),
    model: r.model,
    model_label: modelLabel(r.provider, r.model),
    base_url: r.base_url,
  };
}

export class ConnectorsService {
  /** Provider call timeout; tests shorten it rather than wait 10 s. */
  timeoutMs = LLM_TIMEOUT_MS;

  constructor(
    private readonly repo: ConnectorsRepository,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    private readonly http: HttpTransport,
    private readonly providerUrls: Record<Exclude<Provider, 'custom'>, string>,
  ) {}

  async listFor(auth: AuthContext): Promise<ConnectorView[]> {
    return (await this.repo.list(auth.tenantId)).map(toConnectorView);
  }

  async saveFor(auth: AuthContext, input: ConnectorInput): Promise<ConnectorView> {
    requireRole(auth, 'admin', 'manage AI connectors');
    checkKey(input.provider, input.api_key);
    const baseUrl = checkBaseUrl(input.provider, input.base_url);
    const model = resolveModel(input.provider, input.model);
    const now = this.clock.now();
    const saved = await this.repo.saveActive({
      tenant_id: auth.tenantId,
      provider: input.provider,
      api_key_sealed: this.secrets.seal(input.api_key),
      api_key_masked: maskSecret(input.api_key),
      model,
      base_url: baseUrl,
      is_active: true,
      created_at: now,
      updated_at: now,
    });
    return toConnectorView(saved);
  }

  async setActiveFor(auth: AuthContext, provider: Provider, active: boolean): Promise<ConnectorView> {
    requireRole(auth, 'admin', 'manage AI connectors');
    const r = await this.repo.setActive(auth.tenantId, provider, active, this.clock.now());
    if (!r) throw notFound(`AI connector ${provider}`);
    return toConnectorView(r);
  }

  async deleteFor(auth: AuthContext, provider: Provider): Promise<void> {
    requireRole(auth, 'admin', 'manage AI connectors');
    if (!(await this.repo.delete(auth.tenantId, provider))) throw notFound(`AI connector ${provider}`);
  }

  /** A real minimal call with the given key and model; failures are a result, not an error. */
  async testFor(auth: AuthContext, input: ConnectorInput & { model: string }): Promise<ConnectionTest> {
    requireRole(auth, 'admin', 'test AI connectors');
    checkKey(input.provider, input.api_key);
    const baseUrl = checkBaseUrl(input.provider, input.base_url);
    const model = resolveModel(input.provider, input.model);
    const client = this.client({
      provider: input.provider,
      apiKey: input.api_key,
      model,
      baseUrl: baseUrl ?? this.providerUrls[input.provider as Exclude<Provider, 'custom'>],
    });
    const started = performance.now();
    try {
      await client.testConnection();
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      return { success: false, message: err.message, latency_ms: null };
    }
    const latency = Math.max(1, Math.round(performance.now() - started));
    const label = modelLabel(input.provider, model);
    return {
      success: true,
      message: `Connected to ${input.provider} with model ${model}${label ? ` (${label})` : ''}.`,
      latency_ms: latency,
    };
  }

  /** The tenant's active connector as a ready client, or undefined (chat then uses its parser). */
  async activeClient(tenantId: string): Promise<LlmClient | undefined> {
    const r = await this.repo.findActive(tenantId);
    if (!r) return undefined;
    return this.client({
      provider: r.provider,
      apiKey: this.secrets.open(r.api_key_sealed),
      model: r.model ?? defaultModel(r.provider) ?? '',
      baseUrl: r.base_url ?? this.providerUrls[r.provider as Exclude<Provider, 'custom'>],
    });
  }

  private client(conn: LlmConnection): LlmClient {
    return createLlmClient({ ...conn, timeoutMs: this.timeoutMs }, this.http);
  }
}
