// Start-up failures a person can fix by changing one setting: a database that cannot be reached,
// a URL the driver cannot use, a port that is taken. Each becomes one line naming the setting and
// the cause, printed by the command line without a stack trace (exit code 1).

export class StartupError extends Error {
  constructor(
    readonly setting: string,
    reason: string,
  ) {
    super(`${setting}: ${reason.replace(/\s+/g, ' ').trim()}`);
    this.name = 'StartupError';
  }
}

const BY_CODE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
};

/** The cause of a failed connection in a few words; never the URL itself (it may hold a password). */
export function connectCause(err: unknown): string {
  const e = err as { code?: string; message?: string; errors?: unknown[] };
  // Node reports "localhost" refused on both ::1 and 127.0.0.1 as an AggregateError with no message.
  if (Array.isArray(e?.errors) && e.errors.length > 0 && !e.message) return connectCause(e.errors[0]);
  if (e?.code && BY_CODE[e.code]) return BY_CODE[e.code];
  return e?.message || e?.code || String(err);
}

const DEFAULT_PORTS: Record<string, string> = { 'clickhouse:': '8123', 'http:': '8123', 'clickhouses:': '8443', 'https:': '8443' };

/** host:port of a database URL, for messages (no user, no password). */
export function where(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname && u.pathname !== '/' ? u.pathname : '';
    return `${u.hostname || 'localhost'}:${u.port || DEFAULT_PORTS[u.protocol] || '5432'}${path}`;
  } catch {
    return 'the configured server';
  }
}

/**
 * Runs the first contact with a database named by a setting; any failure (refused, unknown host,
 * bad password, a URL the driver cannot parse) or no answer within the time limit is a
 * StartupError naming the setting.
 */
export async function firstContact<T>(setting: string, url: string, probe: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StartupError(setting, `no answer from ${where(url)} within ${timeoutMs / 1000} s`)), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([probe(), timeout]);
  } catch (err) {
    if (err instanceof StartupError) throw err;
    throw new StartupError(setting, `cannot use the database at ${where(url)}: ${connectCause(err)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** A failed listen, named by the setting to change. */
export function listenError(err: unknown, host: string, port: number): StartupError | undefined {
  const code = (err as { code?: string })?.code;
  if (code === 'EADDRINUSE') return new StartupError('PORT', `port ${port} on ${host} is already in use (another process listens there)`);
  if (code === 'EACCES') return new StartupError('PORT', `port ${port} on ${host} needs privileges this process does not have`);
  if (code === 'EADDRNOTAVAIL') return new StartupError('HOST', `${host} is not an address of this machine`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new StartupError('HOST', `${host} could not be resolved`);
  return undefined;
}
