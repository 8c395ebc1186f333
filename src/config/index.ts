// The only module that reads process.env. Every setting is validated here, and an invalid one stops
// start-up with a message that names it.
import path from 'node:path';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  warehouseUrl?: string;
  /** INSIGHTS_MODEL: a model file or a directory of them; undefined means the built-in demo shop. */
  modelPath?: string;
  masterKey?: Buffer;
  jwt: {
    secret?: Uint8Array;
    jwksUrl?: string;
    issuer?: string;
    audience?: string;
  };
  egressAllow: string[];
  smtpUrl?: string;
  smtpFrom: string;
  messengerApiUrl: string;
  providerUrls: Record<'vendor_a' | 'vendor_b' | 'vendor_c' | 'router', string>;
  rateLimitPerMinute: number;
  chatRateLimitPerMinute: number;
  logLevel: string;
}

export class ConfigError extends Error {
  constructor(public readonly variable: string, reason: string) {
    super(`Invalid configuration: ${variable} ${reason}`);
  }
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function url(env: Env, name: string, protocols: string[], fallback?: string): string | undefined {
  const v = str(env, name) ?? fallback;
  if (v === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
  }
  return v.replace(/\/+$/, '');
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v)) throw new ConfigError(name, 'must be a whole number');
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}`);
  return n;
}

const CIDR = /^([0-9a-fA-F:.]+)\/(\d{1,3})$/;

export function loadConfig(env: Env = process.env): Config {
  const masterKeyText = str(env, 'INSIGHTS_MASTER_KEY');
  let masterKey: Buffer | undefined;
  if (masterKeyText !== undefined) {
    masterKey = Buffer.from(masterKeyText, 'base64');
    if (masterKey.length < 32) {
      throw new ConfigError('INSIGHTS_MASTER_KEY', 'must be at least 32 bytes, base64-encoded');
    }
    masterKey = masterKey.subarray(0, 32);
  }

  const jwtSecretText = str(env, 'INSIGHTS_JWT_SECRET');
  if (jwtSecretText !== undefined && Buffer.byteLength(jwtSecretText) < 32) {
    throw new ConfigError('INSIGHTS_JWT_SECRET', 'must be at least 32 bytes long');
  }

  const egressAllow = (str(env, 'INSIGHTS_EGRESS_ALLOW') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const cidr of egressAllow) {
    const m = CIDR.exec(cidr);
    if (!m || Number(m[2]) > (m[1].includes(':') ? 128 : 32)) {
      throw new ConfigError('INSIGHTS_EGRESS_ALLOW', `has an invalid CIDR "${cidr}"`);
    }
  }

  const smtpUrl = url(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  const smtpFrom = str(env, 'SMTP_FROM') ?? 'Insights <insights@localhost>';

  const logLevel = str(env, 'LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', 'must be one of fatal, error, warn, info, debug, trace, silent');
  }

  return {
    host: str(env, 'HOST') ?? '127.0.0.1',
    port: int(env, 'PORT', 8080, 0, 65535),
    dataDir: path.resolve(str(env, 'INSIGHTS_DATA_DIR') ?? './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    warehouseUrl: url(env, 'WAREHOUSE_URL', ['postgres:', 'postgresql:']),
    modelPath: str(env, 'INSIGHTS_MODEL') === undefined ? undefined : path.resolve(str(env, 'INSIGHTS_MODEL')!),
    masterKey,
    jwt: {
      secret: jwtSecretText === undefined ? undefined : new TextEncoder().encode(jwtSecretText),
      jwksUrl: url(env, 'INSIGHTS_JWT_JWKS_URL', ['https:', 'http:']),
      issuer: str(env, 'INSIGHTS_JWT_ISSUER'),
      audience: str(env, 'INSIGHTS_JWT_AUDIENCE'),
    },
    egressAllow,
    smtpUrl,
    smtpFrom,
    messengerApiUrl: url(env, 'INSIGHTS_MESSENGER_API_URL', ['https:', 'http:'], 'https://api.telegram.org')!,
    providerUrls: {
      vendor_a: url(env, 'INSIGHTS_PROVIDER_URL_VENDOR_A', ['https:', 'http:'], 'https://api.openai.com/v1')!,
      vendor_b: url(env, 'INSIGHTS_PROVIDER_URL_VENDOR_B', ['https:', 'http:'], 'https://api.anthropic.com')!,
      vendor_c: url(env, 'INSIGHTS_PROVIDER_URL_VENDOR_C', ['https:', 'http:'], 'https://generativelanguage.googleapis.com')!,
      router: url(env, 'INSIGHTS_PROVIDER_URL_ROUTER', ['https:', 'http:'], 'https://openrouter.ai/api/v1')!,
    },
    rateLimitPerMinute: int(env, 'INSIGHTS_RATE_LIMIT', 600, 1, 1_000_000),
    chatRateLimitPerMinute: int(env, 'INSIGHTS_CHAT_RATE_LIMIT', 30, 1, 1_000_000),
    logLevel,
  };
}
