// The only module that reads process.env. Every setting is validated here, and an invalid one stops
// start-up with a message that names it.
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  warehouseUrl?: string;
  /** INSIGHTS_CLICKHOUSE_CLUSTER: the cluster a ClickHouse warehouse's tables span (docs/clickhouse.md). */
  clickhouseCluster?: string;
  /** INSIGHTS_MODEL: a model file or a directory of them; undefined means the built-in demo shop. */
  modelPath?: string;
  masterKey?: Buffer;
  jwt: {
    secret?: Uint8Array;
    jwksUrl?: string;
    issuer?: string;
    audience?: string;
    /** The longest a JWT may still be valid for: a token whose exp lies further ahead is refused. */
    maxTtlSeconds: number;
  };
  /** The source commit being served, shown by GET /api/v1/version when the deployment sets it. */
  commit?: string;
  /** Origins a browser may call the API from (CORS); none by default. */
  corsOrigins: string[];
  egressAllow: string[];
  smtpUrl?: string;
  smtpFrom: string;
  messengerApiUrl: string;
  /**
   * INSIGHTS_PUBLIC_URL: where people reach this service's web app (https://insights.example.com).
   * Slack, Teams and Google Chat reports link there and show their charts from there; unset, they
   * carry neither (docs/channels.md).
   */
  publicUrl?: string;
  providerUrls: Record<'vendor_a' | 'vendor_b' | 'vendor_c' | 'router', string>;
  rateLimitPerMinute: number;
  chatRateLimitPerMinute: number;
  /** Failed authentications per minute per client address, and per credential, before 429s. */
  authFailuresPerMinute: number;
  /**
   * INSIGHTS_TRUST_PROXY: whose X-Forwarded-For gives the client's address (docs/security.md):
   * false (the default: forwarded headers are ignored), true (any peer), a number of proxy hops,
   * or the proxies' addresses and CIDRs.
   */
  trustProxy: boolean | number | string[];
  /** The body limit of data uploads (POST /api/v1/data/{table}); other routes keep their own. */
  dataMaxBytes: number;
  /** INSIGHTS_DATA_MAX_ROWS: the most rows one data upload may hold. */
  dataMaxRows: number;
  /** INSIGHTS_DATA_CONCURRENT_LOADS: data uploads loading at once (each tenant one at a time). */
  dataConcurrentLoads: number;
  logLevel: string;
  /** INSIGHTS_TOKEN: the credential `insights mcp` acts with (an API token or a JWT). */
  token?: string;
  /**
   * INSIGHTS_THREAD_NICE: the CPU priority (nice value, 0–19) `insights serve` gives every thread
   * but the event loop's once it listens (docs/performance.md §19); 0 leaves them as they are.
   */
  threadNice: number;
  /**
   * INSIGHTS_IDLE_RELEASE_MS: `insights serve` gives V8's heap back to the system once no request
   * has been in flight for this long (docs/footprint.md, "Giving the heap back when idle"); 0 never.
   */
  idleReleaseMs: number;
  /**
   * The embedded DuckDB warehouse's ceiling and parallelism (docs/footprint.md); `readers`: the
   * reads run at once (docs/performance.md §18), from libuv's thread pool (UV_THREADPOOL_SIZE).
   */
  duckdb: { memoryLimit: string; memoryBurst: string; threads: number; readers: number };
}

export class ConfigError extends Error {
  constructor(
    public readonly variable: string,
    reason: string,
  ) {
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

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** A duration like 24h, 90m, 3600s or 2d (a bare number is seconds), in seconds. */
function duration(env: Env, name: string, fallback: number, min: number, max: number): number {
  const v = str(env, name);
  if (v === undefined) return fallback;
  const m = /^(\d+)\s*([smhd]?)$/i.exec(v);
  if (!m) throw new ConfigError(name, 'must be a duration such as 24h, 90m or 3600s');
  const seconds = Number(m[1]) * DURATION_UNITS[(m[2] || 's').toLowerCase()];
  if (seconds < min || seconds > max) throw new ConfigError(name, `must be between ${min} s and ${max / 86_400} days`);
  return seconds;
}

/** Comma-separated origins (scheme://host[:port]), each checked; "*" is refused on purpose. */
function origins(env: Env, name: string): string[] {
  const list = (str(env, name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const o of list) {
    let u: URL | undefined;
    try {
      u = new URL(o);
    } catch {
      // reported below
    }
    if (!u || !['http:', 'https:'].includes(u.protocol) || u.origin !== o.replace(/\/+$/, '')) {
      throw new ConfigError(name, `has an invalid origin "${o}" (expected scheme://host[:port], no path)`);
    }
  }
  return list.map((o) => o.replace(/\/+$/, ''));
}

// DuckDB's own size syntax, limited to absolute sizes: a percentage of RAM would make the
// footprint depend on the machine.
const SIZE = /^(\d+(?:\.\d+)?)\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i;

const MIB_PER_UNIT = { KB: 1 / 1024, MB: 1, GB: 1024, TB: 1024 * 1024 };

function mibOf(v: string): number | undefined {
  const m = SIZE.exec(v);
  if (!m) return undefined;
  return Number(m[1]) * MIB_PER_UNIT[m[2].toUpperCase().replace('I', '') as keyof typeof MIB_PER_UNIT];
}

function size(env: Env, name: string, fallback: string, minMiB: number): string {
  const v = str(env, name) ?? fallback;
  const mib = mibOf(v);
  if (mib === undefined) throw new ConfigError(name, 'must be a size such as 256MB or 1GB');
  if (mib < minMiB) throw new ConfigError(name, `must be at least ${minMiB}MB`);
  return v.replace(/\s+/g, '');
}

/** DuckDB's ceilings: the burst one is at least the ordinary one. */
function duckDbMemory(env: Env): { memoryLimit: string; memoryBurst: string } {
  const memoryLimit = size(env, 'INSIGHTS_DUCKDB_MEMORY_LIMIT', '128MB', 32);
  // Default: 1GB, or the ordinary ceiling where that is higher.
  const memoryBurst = size(env, 'INSIGHTS_DUCKDB_MEMORY_BURST', mibOf(memoryLimit)! > 1024 ? memoryLimit : '1GB', 32);
  if (mibOf(memoryBurst)! < mibOf(memoryLimit)!) {
    throw new ConfigError('INSIGHTS_DUCKDB_MEMORY_BURST', `must be at least INSIGHTS_DUCKDB_MEMORY_LIMIT (${memoryLimit})`);
  }
  // The same size written another way (1GB and 1024MB) is no burst at all: no second try to no gain.
  return { memoryLimit, memoryBurst: mibOf(memoryBurst) === mibOf(memoryLimit) ? memoryLimit : memoryBurst };
}

const CIDR = /^([0-9a-fA-F:.]+)\/(\d{1,3})$/;

/** INSIGHTS_TRUST_PROXY: false, true, a number of hops, or comma-separated addresses and CIDRs. */
function trustProxy(env: Env): boolean | number | string[] {
  const v = str(env, 'INSIGHTS_TRUST_PROXY');
  if (v === undefined || v.toLowerCase() === 'false') return false;
  if (v.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(v)) return int(env, 'INSIGHTS_TRUST_PROXY', 0, 1, 100);
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of list) {
    const [address, bits, extra] = entry.split('/');
    const family = net.isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > maxBits))) {
      throw new ConfigError(
        'INSIGHTS_TRUST_PROXY',
        `has an invalid entry "${entry}" (expected true, false, a number of hops, or addresses and CIDRs of the proxies)`,
      );
    }
  }
  return list;
}

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

  const warehouseUrl = url(env, 'WAREHOUSE_URL', ['postgres:', 'postgresql:', 'clickhouse:', 'clickhouses:', 'http:', 'https:']);
  const clickhouseCluster = str(env, 'INSIGHTS_CLICKHOUSE_CLUSTER');
  if (clickhouseCluster !== undefined) {
    if (!/^[A-Za-z0-9_.-]{1,100}$/.test(clickhouseCluster))
      throw new ConfigError('INSIGHTS_CLICKHOUSE_CLUSTER', 'must be a cluster name (letters, digits, _ . -)');
    if (!warehouseUrl || /^postgres(ql)?:/.test(warehouseUrl))
      throw new ConfigError('INSIGHTS_CLICKHOUSE_CLUSTER', 'needs WAREHOUSE_URL to name a ClickHouse server (clickhouse://…)');
  }

  const logLevel = str(env, 'LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', 'must be one of fatal, error, warn, info, debug, trace, silent');
  }

  return {
    host: str(env, 'HOST') ?? '127.0.0.1',
    port: int(env, 'PORT', 8080, 0, 65535),
    dataDir: path.resolve(str(env, 'INSIGHTS_DATA_DIR') ?? './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    warehouseUrl,
    ...(clickhouseCluster ? { clickhouseCluster } : {}),
    modelPath: str(env, 'INSIGHTS_MODEL') === undefined ? undefined : path.resolve(str(env, 'INSIGHTS_MODEL')!),
    masterKey,
    jwt: {
      secret: jwtSecretText === undefined ? undefined : new TextEncoder().encode(jwtSecretText),
      jwksUrl: url(env, 'INSIGHTS_JWT_JWKS_URL', ['https:', 'http:']),
      issuer: str(env, 'INSIGHTS_JWT_ISSUER'),
      audience: str(env, 'INSIGHTS_JWT_AUDIENCE'),
      maxTtlSeconds: duration(env, 'INSIGHTS_JWT_MAX_TTL', 24 * 3600, 1, 366 * 86_400),
    },
    corsOrigins: origins(env, 'INSIGHTS_CORS_ORIGINS'),
    commit: str(env, 'INSIGHTS_COMMIT'),
    egressAllow,
    smtpUrl,
    smtpFrom,
    messengerApiUrl: url(env, 'INSIGHTS_MESSENGER_API_URL', ['https:', 'http:'], 'https://api.telegram.org')!,
    publicUrl: url(env, 'INSIGHTS_PUBLIC_URL', ['https:', 'http:']),
    providerUrls: {
      vendor_a: url(env, 'INSIGHTS_PROVIDER_URL_VENDOR_A', ['https:', 'http:'], 'https://api.openai.com/v1')!,
      vendor_b: url(env, 'INSIGHTS_PROVIDER_URL_VENDOR_B', ['https:', 'http:'], 'https://api.anthropic.com')!,
      vendor_c: url(env, 'INSIGHTS_PROVIDER_URL_VENDOR_C', ['https:', 'http:'], 'https://generativelanguage.googleapis.com')!,
      router: url(env, 'INSIGHTS_PROVIDER_URL_ROUTER', ['https:', 'http:'], 'https://openrouter.ai/api/v1')!,
    },
    rateLimitPerMinute: int(env, 'INSIGHTS_RATE_LIMIT', 600, 1, 1_000_000),
    chatRateLimitPerMinute: int(env, 'INSIGHTS_CHAT_RATE_LIMIT', 30, 1, 1_000_000),
    authFailuresPerMinute: int(env, 'INSIGHTS_AUTH_FAILURE_LIMIT', 30, 1, 1_000_000),
    trustProxy: trustProxy(env),
    dataMaxBytes: int(env, 'INSIGHTS_DATA_MAX_BYTES', 1024 ** 3, 1, Number.MAX_SAFE_INTEGER),
    dataMaxRows: int(env, 'INSIGHTS_DATA_MAX_ROWS', 20_000_000, 1, Number.MAX_SAFE_INTEGER),
    dataConcurrentLoads: int(env, 'INSIGHTS_DATA_CONCURRENT_LOADS', 2, 1, 64),
    logLevel,
    token: str(env, 'INSIGHTS_TOKEN'),
    threadNice: int(env, 'INSIGHTS_THREAD_NICE', 10, 0, 19),
    idleReleaseMs: int(env, 'INSIGHTS_IDLE_RELEASE_MS', 2000, 0, 3_600_000),
    duckdb: duckDbSettings(env),
  };
}

/**
 * `@duckdb/node-api` runs every query as a job on libuv's thread pool, whose threads serve jobs
 * first come, first served: more reads at once than the pool has threads would queue there,
 * where the read lanes' fairness between tenants cannot reach (docs/performance.md §13, §18). So
 * the reads run at once are the pool's threads but four (left to files, DNS and crypto), and never
 * fewer than DuckDB's threads + 1. Node reads UV_THREADPOOL_SIZE once, where the process starts
 * (npm start and the container set 20).
 */
function duckDbSettings(env: NodeJS.ProcessEnv): Config['duckdb'] {
  const threads = int(env, 'INSIGHTS_DUCKDB_THREADS', Math.min(4, os.availableParallelism()), 1, 256);
  const libuvThreads = Math.min(1024, Math.max(1, Number(env.UV_THREADPOOL_SIZE) || 4));
  return { ...duckDbMemory(env), threads, readers: Math.min(32, Math.max(threads + 1, libuvThreads - 4)) };
}
