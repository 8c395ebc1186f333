// A ClickHouse server for tests and benchmarks: ClickHouse's HTTP interface on loopback, answered
// by the real engine embedded through chdb (ClickHouse 26.7 as a library). @clickhouse/client talks
// to it exactly as to a server: POST with the query in the body or in `query=` (then the body is
// an INSERT's data), `param_*` values in the URL or a multipart body, settings as URL parameters,
// `database=`, Basic or X-ClickHouse-User/Key credentials, errors as "Code: N. DB::Exception: …"
// with X-ClickHouse-Exception-Code. chdb is 550 MB and not in package-lock.json: .ci/run installs
// it into CHDB_DIR; where it is absent, chdbMissing says why and the tests that need it skip.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/** Where .ci/run installs chdb (npm install --no-save --prefix). */
export const CHDB_DIR = process.env.CHDB_DIR || '/var/tmp/insights-ci/chdb';

export interface ChdbResult {
  text(): string;
  readonly rowsRead: number;
  readonly bytesRead: number;
  readonly elapsed: number;
}
interface ChdbSession {
  queryAsync(sql: string, opts?: { format?: string }): Promise<ChdbResult>;
  queryBindAsync(sql: string, params: object, opts?: { format?: string }): Promise<ChdbResult>;
  close(): void;
}
interface Chdb {
  Session: new (path?: string) => ChdbSession;
}

let loaded: { chdb?: Chdb; why?: string } | undefined;

function loadChdb(): { chdb?: Chdb; why?: string } {
  if (loaded) return loaded;
  try {
    const require = createRequire(path.join(CHDB_DIR, 'node_modules', 'x.js'));
    loaded = { chdb: require('chdb') as Chdb };
  } catch (err) {
    loaded = {
      why: `chdb is not installed in ${CHDB_DIR} (npm install --no-save --prefix ${CHDB_DIR} chdb@3.4.0, as .ci/run does): ${(err as Error).message.split('\n')[0]}`,
    };
  }
  return loaded;
}

/** Why ClickHouse tests cannot run here, or false: for `test(name, { skip: chdbMissing() }, …)`. */
export function chdbMissing(): string | false {
  return loadChdb().why ?? false;
}

// URL parameters that are the protocol's, not settings.
const PROTOCOL = new Set([
  'query',
  'database',
  'query_id',
  'session_id',
  'default_format',
  'user',
  'password',
  'role',
  'session_timeout',
  'session_check',
]);
// HTTP-only settings clickhouse-local does not apply; accepted and ignored, as a server applies them to the response.
const HTTP_ONLY = new Set([
  'enable_http_compression',
  'send_progress_in_http_headers',
  'http_headers_progress_interval_ms',
  'wait_end_of_query',
  'http_response_buffer_size',
  'buffer_size',
]);

/** The escaped (TabSeparated) text form of a parameter value, as the HTTP interface takes it. */
function unescapeParam(value: string): string {
  const map: Record<string, string> = { t: '\t', n: '\n', r: '\r', b: '\b', f: '\f', '0': '\0', '\\': '\\', "'": "'", '"': '"' };
  return value.replace(/\\(.)/gs, (_m, c: string) => map[c] ?? c);
}

const quoteLiteral = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export interface ClickHouseStandIn {
  /** http://127.0.0.1:port */
  url: string;
  /** clickhouse://user:password@127.0.0.1:port/database, the database created first. */
  urlFor(database: string): Promise<string>;
  /** Runs SQL on the engine directly (no HTTP): set-up and checks. */
  run(sql: string, format?: string): Promise<string>;
  /** Runs SQL with {name:Type} values on the engine directly: what a query costs without HTTP (the bench). */
  bind(sql: string, params: Record<string, unknown>, format?: string): Promise<ChdbResult>;
  /** Requests answered so far (tests check what the client sent). */
  readonly requests: { query: string; params: Record<string, string>; settings: Record<string, string> }[];
  close(): Promise<void>;
}

export interface StandInOptions {
  /** Accepted credentials; default user `default` with an empty password. */
  users?: Record<string, string>;
  /** Let the process exit while the server listens. */
  unref?: boolean;
  /** The engine's data directory, kept after close (benchmarks reuse their 100 M rows); default a temporary one. */
  path?: string;
}

/**
 * Starts the stand-in. chdb's engine is one per process: each caller gets a database of its own
 * (urlFor) on the one server a process shares (clickHouseStandIn()).
 */
export async function startClickHouseStandIn(opts: StandInOptions = {}): Promise<ClickHouseStandIn> {
  const { chdb, why } = loadChdb();
  if (!chdb) throw new Error(why);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chdb-'));
  const session = new chdb.Session(opts.path ?? path.join(dir, 'db'));
  const users = opts.users ?? { default: '' };
  const requests: ClickHouseStandIn['requests'] = [];
  // One statement at a time: the session's current database and settings are per statement.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const p = queue.then(work);
    queue = p.catch(() => {});
    return p;
  };
  let seq = 0;
  const current = { database: '', settings: new Map<string, string>() };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/ping') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8' }).end('Ok.\n');
      return;
    }
    let user = req.headers['x-clickhouse-user'] as string | undefined;
    let password = req.headers['x-clickhouse-key'] as string | undefined;
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
    if (basic) [user, password] = Buffer.from(basic[1], 'base64').toString().split(/:(.*)/s);
    user ??= url.searchParams.get('user') ?? 'default';
    password ??= url.searchParams.get('password') ?? '';
    if (users[user] === undefined || users[user] !== password) {
      return fail(
        res,
        516,
        `${user}: Authentication failed: password is incorrect, or there is no user with that name. (AUTHENTICATION_FAILED)`,
        401,
      );
    }
    const params: Record<string, string> = {};
    const settings: Record<string, string> = {};
    for (const [k, v] of url.searchParams) {
      if (k.startsWith('param_')) params[k.slice(6)] = v;
      else if (!PROTOCOL.has(k) && !HTTP_ONLY.has(k)) settings[k] = v;
    }
    const database = url.searchParams.get('database') ?? 'default';
    const inUrl = url.searchParams.get('query');
    let query: string;
    let dataFile: string | undefined;
    if (inUrl !== null && req.method === 'POST') {
      // An INSERT's data: to a file the engine reads (FROM INFILE), so it is never held in memory.
      query = inUrl;
      dataFile = path.join(dir, `insert-${++seq}`);
      await pipeline(req, fs.createWriteStream(dataFile));
    } else {
      const body = await new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        req
          .on('data', (c: Buffer) => chunks.push(c))
          .on('end', () => resolve(Buffer.concat(chunks)))
          .on('error', reject);
      });
      const type = req.headers['content-type'] ?? '';
      if (type.startsWith('multipart/form-data')) {
        const form = await new Response(new Uint8Array(body), { headers: { 'content-type': type } }).formData();
        query = String(form.get('query') ?? '');
        for (const [k, v] of form) if (k.startsWith('param_')) params[k.slice(6)] = String(v);
      } else query = (inUrl ?? '') + body.toString('utf8');
    }
    requests.push({ query, params, settings });
    const queryId = url.searchParams.get('query_id') ?? `stand-in-${seq}`;
    const format = /\bFORMAT\s+(\w+)\s*;?\s*$/i.exec(query)?.[1] ?? url.searchParams.get('default_format') ?? 'TabSeparated';
    try {
      const text = await serial(async () => {
        // The session keeps its database and settings: only changes are sent (each is a statement).
        if (database !== current.database) {
          await session.queryAsync(`USE ${database.replace(/[^\w]/g, '')}`);
          current.database = database;
        }
        for (const [k, v] of Object.entries(settings)) {
          if (current.settings.get(k) === v) continue;
          await session.queryAsync(`SET ${k.replace(/[^\w]/g, '')} = ${/^-?\d+(\.\d+)?$/.test(v) ? v : quoteLiteral(v)}`);
          current.settings.set(k, v);
        }
        let sql = query;
        if (dataFile) {
          const m = /^([\s\S]*?)\s+FORMAT\s+(\w+)\s*$/i.exec(query.trim());
          if (!m)
            throw Object.assign(new Error('Code: 62. DB::Exception: an INSERT with data needs FORMAT. (SYNTAX_ERROR)'), {
              clickhouseCode: 62,
            });
          sql = `${m[1]} FROM INFILE ${quoteLiteral(dataFile)} FORMAT ${m[2]}`;
        }
        const bound = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, unescapeParam(v)]));
        const result = Object.keys(bound).length
          ? await session.queryBindAsync(sql, bound, { format })
          : await session.queryAsync(sql, { format });
        return result;
      });
      const summary = {
        read_rows: String(text.rowsRead ?? 0),
        read_bytes: String(text.bytesRead ?? 0),
        written_rows: '0',
        written_bytes: '0',
        total_rows_to_read: '0',
        result_rows: '0',
        result_bytes: '0',
        elapsed_ns: String(Math.round((text.elapsed ?? 0) * 1e9)),
      };
      res.writeHead(200, {
        'content-type': 'text/plain; charset=UTF-8',
        'x-clickhouse-query-id': queryId,
        'x-clickhouse-format': format,
        'x-clickhouse-timezone': 'UTC',
        'x-clickhouse-summary': JSON.stringify(summary),
      });
      res.end(text.text());
    } catch (err) {
      const e = err as Error & { clickhouseCode?: number };
      const code = e.clickhouseCode ?? Number(/Code: (\d+)/.exec(e.message)?.[1] ?? 1000);
      fail(
        res,
        code,
        e.message.replace(/^Code: \d+\. DB::Exception: /, ''),
        code === 60 || code === 81 ? 404 : code === 62 ? 400 : 500,
        queryId,
      );
    } finally {
      if (dataFile) fs.rmSync(dataFile, { force: true });
    }
  }

  function fail(res: http.ServerResponse, code: number, message: string, status: number, queryId?: string): void {
    if (res.headersSent) return void res.end();
    res.writeHead(status, {
      'content-type': 'text/plain; charset=UTF-8',
      'x-clickhouse-exception-code': String(code),
      ...(queryId ? { 'x-clickhouse-query-id': queryId } : {}),
    });
    res.end(`Code: ${code}. DB::Exception: ${message} (version 26.7.2.1 (chdb))\n`);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => fail(res, 1000, String((err as Error).message), 500));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  if (opts.unref) {
    server.unref();
    server.on('connection', (socket) => socket.unref());
  }
  const port = (server.address() as AddressInfo).port;
  const [firstUser, firstPassword] = Object.entries(users)[0];
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async urlFor(database: string) {
      await serial(() => session.queryAsync(`CREATE DATABASE IF NOT EXISTS ${database.replace(/[^\w]/g, '')}`));
      const auth = `${encodeURIComponent(firstUser)}${firstPassword ? `:${encodeURIComponent(firstPassword)}` : ''}`;
      return `clickhouse://${auth}@127.0.0.1:${port}/${database}`;
    },
    run: (sql, format = 'TabSeparated') => serial(async () => (await session.queryAsync(sql, { format })).text()),
    bind: (sql, params, format = 'TabSeparated') => serial(() => session.queryBindAsync(sql, params, { format })),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue;
      session.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

let shared: Promise<ClickHouseStandIn> | undefined;

/**
 * The process's one stand-in (chdb's engine is a process singleton), started on first use. It does
 * not keep the process alive: a test file ends when its tests do.
 */
export function clickHouseStandIn(): Promise<ClickHouseStandIn> {
  shared ??= startClickHouseStandIn({ unref: true, users: { default: '', insights: 's3cret' } });
  return shared;
}
