// The service on a benchmark warehouse, over real HTTP on loopback, with a member's JWT of the demo
// tenant (bench/query.ts, bench/time.ts, bench/cached.ts).
import crypto from 'node:crypto';
import os from 'node:os';
import { SignJWT } from 'jose';
import { request } from 'undici';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/index.ts';
import { PGliteDb } from '../src/db/index.ts';
import { migrate } from '../src/db/migrate.ts';
import { systemClock } from '../src/lib/clock.ts';
import { SecretBox } from '../src/lib/secrets.ts';
import type { DuckDbWarehouse } from '../src/warehouse/duckdb/duckdb.ts';

export interface BenchServer {
  /** The app itself, listening at `origin` (its services, its early-answer counter). */
  app: Awaited<ReturnType<typeof buildApp>>;
  origin: string;
  /** The member's JWT's headers. */
  headers: Record<string, string>;
  /** Drops every cached answer (insights and queries). */
  drop(): void;
  /** GET an execute path: its rows. */
  execute(path: string): Promise<any[]>;
  /** POST /api/v1/query: its rows. */
  query(body: unknown): Promise<any[]>;
  close(): Promise<void>;
}

export async function benchServer(wh: DuckDbWarehouse): Promise<BenchServer> {
  const secret = crypto.randomBytes(32).toString('base64url');
  const db = await PGliteDb.open({});
  await migrate(db);
  const config = loadConfig({ INSIGHTS_JWT_SECRET: secret, INSIGHTS_RATE_LIMIT: '1000000', INSIGHTS_DATA_DIR: os.tmpdir() });
  const app = await buildApp({
    config,
    db,
    clock: systemClock,
    secrets: new SecretBox(crypto.randomBytes(32)),
    warehouse: wh,
    logger: false,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const jwt = await new SignJWT({ tenant_id: 'demo', role: 'member' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('bench')
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(secret));
  const headers = { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' };
  const rowsOf = async (what: string, res: Awaited<ReturnType<typeof request>>) => {
    if (res.statusCode !== 200) throw new Error(`${what} → ${res.statusCode} ${await res.body.text()}`);
    return ((await res.body.json()) as { data: { rows: any[] } }).data.rows;
  };
  return {
    app,
    origin,
    headers,
    drop: () => {
      app.services.insights.invalidate();
      app.services.queries.invalidate();
    },
    execute: async (path) => rowsOf(path, await request(origin + path, { headers })),
    query: async (body) =>
      rowsOf('query', await request(`${origin}/api/v1/query`, { method: 'POST', headers, body: JSON.stringify(body) })),
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs two sides alternately (which goes first alternates too), the first two rounds dropped: each side's times in ms. */
export async function interleaved<K extends string>(
  sides: Record<K, () => Promise<unknown>>,
  iterations: number,
): Promise<Record<K, number[]>> {
  const names = Object.keys(sides) as K[];
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < iterations + 2; i++) {
    for (const name of i % 2 ? [...names].reverse() : names) {
      const t = performance.now();
      await sides[name]();
      if (i >= 2) times[name].push(performance.now() - t);
    }
  }
  return times;
}

/** The machine's load averages (1, 5, 15 minutes), as a table's header states them. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** A benchmark table's header lines on the machine: cores, Node, what was timed; when, and the load at the start and end. */
export function machineLines(timed: string, loadAtStart: string): string[] {
  return [
    `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${timed}`,
    `${new Date().toISOString().slice(0, 16)}Z, load average at the start ${loadAtStart}, at the end ${loadAverage()}`,
  ];
}
