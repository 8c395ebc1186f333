// Every outbound HTTP request (AI providers, webhooks, the messenger Bot API) goes through this
// guard. Refusing a URL by its text is not enough (DNS can point anywhere, and names can change
// between check and use), so the address is checked where it is used: in the DNS lookup the
// connection makes, for IP literals before connecting, and once more on the socket actually
// connected, before a byte of the request is written.
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import type { buildConnector, Dispatcher } from 'undici';

export class EgressError extends Error {}
/** The destination resolves to an address we do not call (loopback, private, metadata…). */
export class EgressRefused extends EgressError {}
export class EgressTimeout extends EgressError {}
export class EgressTooLarge extends EgressError {}
export class EgressNetworkError extends EgressError {}

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

export interface EgressResponse {
  status: number;
  headers: Headers;
  body: Buffer;
  text(): string;
  json(): unknown;
}

export interface EgressRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer | Uint8Array;
  /** Whole request, body read included. Default 15 s. */
  timeoutMs?: number;
  /** Most bytes of response body read. Default 1 MiB. */
  maxBytes?: number;
  /**
   * Sends once more, at once, when the connection breaks under the request (a reset, a closed
   * socket): what happens when a pooled keep-alive connection is closed by the server just as it
   * is reused. Only for requests the receiver may see twice: webhooks, deduplicated by webhook-id.
   */
  retryOnReset?: boolean;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;

function normalize(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  try {
    const parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
    // ::ffff:127.0.0.1 is 127.0.0.1: judge the IPv4 address it carries.
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
      return (parsed as ipaddr.IPv6).toIPv4Address();
    }
    return parsed;
  } catch {
    return undefined;
  }
}

const ipv4At = (bytes: number[], at: number) => new ipaddr.IPv4(bytes.slice(at, at + 4));

/**
 * The IPv4 addresses an IPv6 address carries, by the form ipaddr.js classifies it as, or undefined
 * when it carries none. Such an address reaches (through a translator, a relay or the kernel) the
 * IPv4 host inside it, so that host is what gets judged.
 */
export function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const b = ip.toByteArray();
  switch (ip.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d, IPv4-translated (SIIT)
      return [ipv4At(b, 12)];
    case 'rfc6052': {
      // NAT64. The well-known 64:ff9b::/96 puts the IPv4 address last. The local-use
      // 64:ff9b:1::/48 may be cut by the operator at any RFC 6052 prefix length (48, 56, 64 or
      // 96 bits), each placing the address elsewhere and skipping bits 64-71: every reading counts.
      if (ip.parts[2] === 0) return [ipv4At(b, 12)];
      return [
        new ipaddr.IPv4([b[6], b[7], b[9], b[10]]), // /48
        new ipaddr.IPv4([b[7], b[9], b[10], b[11]]), // /56
        ipv4At(b, 9), // /64
        ipv4At(b, 12), // /96
      ];
    }
    case '6to4': // 2002:AABB:CCDD::/48 is the site behind a.b.c.d
      return [ipv4At(b, 2)];
    case 'teredo': // 2001:0:SSSS:SSSS:flags:port:~CCCC:~CCCC, server and (inverted) client
      return [ipv4At(b, 4), new ipaddr.IPv4(b.slice(12, 16).map((x) => x ^ 0xff))];
    default:
      // IPv4-compatible ::a.b.c.d (deprecated by RFC 4291, yet Linux still routes ::127.0.0.1 to
      // the host itself). ipaddr.js calls it unicast; :: and ::1 have ranges of their own.
      if (ip.parts.slice(0, 6).every((p) => p === 0) && !['unspecified', 'loopback'].includes(ip.range())) return [ipv4At(b, 12)];
      return undefined;
  }
}

/** The connection pools of the guard, built with undici on the first outbound request. */
interface Clients {
  request: typeof import('undici').request;
  dispatcher: Dispatcher;
  resetRetrying: Dispatcher;
}

export class EgressGuard {
  private readonly allow: Cidr[];
  // undici is ~8 MB of resident memory once loaded; a process that never calls out (no AI
  // connector, no webhook or chat channel) never loads it (docs/footprint.md).
  private clients?: Promise<Clients>;

  constructor(
    allowCidrs: string[] = [],
    private readonly options: { ca?: string | Buffer } = {},
  ) {
    this.allow = allowCidrs.map((c) => {
      const [addr, bits] = ipaddr.parseCIDR(c);
      const v = normalize(addr.toString()) ?? addr;
      // An IPv4-mapped IPv6 CIDR (::ffff:10.0.0.0/104) is the IPv4 one.
      return [v, v.kind() === addr.kind() ? bits : Math.max(0, bits - 96)] as Cidr;
    });
  }

  private build({ Agent, buildConnector, request, RetryAgent }: typeof import('undici')): Clients {
    const options = this.options;

    const lookup: net.LookupFunction = (hostname, opts, callback) => {
      dns.lookup(hostname, { ...opts, all: true }, (err, addresses) => {
        if (err) return callback(err, '', 0);
        const list = addresses as dns.LookupAddress[];
        const refused = list.find((a) => !this.isAllowed(a.address));
        if (refused) {
          return callback(new EgressRefused(`${hostname} resolves to ${refused.address}, an address outbound calls may not reach`), '', 0);
        }
        if ((opts as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
        return callback(null, list[0].address, list[0].family);
      });
    };

    const base = buildConnector({ lookup, ca: options.ca, timeout: 10_000 } as buildConnector.BuildOptions);
    const connect: buildConnector.connector = (opts, callback) => {
      const host = opts.hostname.replace(/^\[|\]$/g, '');
      if (net.isIP(host) && !this.isAllowed(host)) {
        return callback(new EgressRefused(`${host} is an address outbound calls may not reach`), null);
      }
      base(opts, (err, socket) => {
        if (err) return callback(err, null);
        const remote = socket!.remoteAddress;
        if (!remote || !this.isAllowed(remote)) {
          socket!.destroy();
          return callback(
            new EgressRefused(`${opts.hostname} connected to ${remote ?? 'an unknown address'}, which outbound calls may not reach`),
            null,
          );
        }
        callback(null, socket!);
      });
    };
    const dispatcher = new Agent({ connect, keepAliveTimeout: 4_000 });
    // Status codes pass through untouched (the caller's retry policy reads them); only a broken
    // connection is retried, once.
    const resetRetrying = new RetryAgent(dispatcher, {
      maxRetries: 1,
      minTimeout: 0,
      methods: ['POST'],
      statusCodes: [],
      errorCodes: ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'],
      throwOnError: false,
    });
    return { request, dispatcher, resetRetrying };
  }

  /** True for public unicast addresses, and for anything INSIGHTS_EGRESS_ALLOW lists. */
  isAllowed(address: string): boolean {
    const ip = normalize(address);
    if (!ip) return false;
    return this.isListed(ip) || this.isPublic(ip);
  }

  private isListed(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    return this.allow.some(([net, bits]) => net.kind() === ip.kind() && ip.match([net, bits] as never));
  }

  /**
   * Plain unicast only: loopback, private, link-local (cloud metadata 169.254.169.254),
   * unique-local (fd00:ec2::254), carrier-grade NAT (100.100.100.200), unspecified, multicast and
   * reserved are refused. An IPv6 form that carries IPv4 (NAT64, 6to4, Teredo, IPv4-compatible or
   * -translated) is judged by the IPv4 it carries, as that address itself would be (the allow list
   * included): 64:ff9b::8.8.8.8 passes, 64:ff9b::10.0.0.1 and ::127.0.0.1 do not.
   */
  private isPublic(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
    const inner = embeddedIPv4(ip as ipaddr.IPv6);
    if (inner) return inner.every((v4) => this.isListed(v4) || v4.range() === 'unicast');
    return ip.range() === 'unicast';
  }

  async request(url: string, req: EgressRequest = {}): Promise<EgressResponse> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new EgressNetworkError(`${url} is not a valid URL`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw new EgressRefused(`Only http and https URLs can be called, not ${parsed.protocol}`);
    }
    const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = req.maxBytes ?? DEFAULT_MAX_BYTES;
    const signal = AbortSignal.timeout(timeoutMs);
    const where = `${parsed.protocol}//${parsed.host}`;
    try {
      const { request, dispatcher, resetRetrying } = await (this.clients ??= import('undici').then((u) => this.build(u)));
      // undici.request rather than fetch: the same connection handling at a fraction of the CPU
      // per call (no WHATWG streams), which matters when thousands of webhooks go out at once.
      // It follows no redirects unless told to.
      const res = await request(parsed, {
        method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body,
        signal,
        dispatcher: req.retryOnReset ? resetRetrying : dispatcher,
      });
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of res.body) {
        total += (chunk as Buffer).byteLength;
        if (total > maxBytes) {
          res.body.destroy();
          throw new EgressTooLarge(`The response from ${where} is larger than ${maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      const body = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
      }
      return {
        status: res.statusCode,
        headers,
        body,
        text: () => body.toString('utf8'),
        json: () => JSON.parse(body.toString('utf8')),
      };
    } catch (err) {
      throw toEgressError(err, where, timeoutMs, signal);
    }
  }

  async close(): Promise<void> {
    const clients = await this.clients?.catch(() => undefined);
    await clients?.dispatcher.close();
  }
}

function toEgressError(err: unknown, where: string, timeoutMs: number, signal: AbortSignal): EgressError {
  // undici wraps connector errors: TypeError('fetch failed') with the real one as cause.
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof EgressError) return e;
  }
  if (signal.aborted || (err as Error)?.name === 'TimeoutError' || (err as Error)?.name === 'AbortError') {
    return new EgressTimeout(`${where} did not answer within ${Math.round(timeoutMs / 1000)} s`);
  }
  type Cause = { cause?: unknown; code?: string; message?: string } | undefined;
  let cause = err as Cause;
  while (cause?.cause) cause = cause.cause as Cause;
  const code = cause?.code;
  const reason =
    code === 'ECONNREFUSED'
      ? 'the connection was refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'the host name could not be resolved'
        : code === 'ECONNRESET'
          ? 'the connection was reset'
          : code?.startsWith('ERR_TLS') || code?.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT'
            ? `the TLS certificate was not accepted (${code})`
            : (cause?.message ?? 'a network error occurred');
  return new EgressNetworkError(`Could not reach ${where}: ${reason}`);
}
