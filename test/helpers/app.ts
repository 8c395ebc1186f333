// Builds the real app on a fresh database for a test file, with helpers to mint credentials and
// call the API through inject() (no socket).
import crypto from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppDeps } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config/index.ts';
import type { Db } from '../../src/db/index.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { SecretBox } from '../../src/lib/secrets.ts';
import type { Role } from '../../src/auth/context.ts';
import { TokensRepository } from '../../src/modules/tokens/tokens.repository.ts';
import { TokensService } from '../../src/modules/tokens/tokens.service.ts';
import { freshDb } from './db.ts';
import { testWarehouse } from './warehouse.ts';
import type { Warehouse } from '../../src/warehouse/warehouse.ts';

export const JWT_SECRET = 'test-secret-that-is-at-least-32-bytes-long!';

export interface User {
  tenant: string;
  user: string;
  role: Role;
  name?: string;
  email?: string;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  clock: ManualClock;
  secrets: SecretBox;
  /** The app's warehouse (the seeded in-memory DuckDB unless deps.warehouse was given). */
  warehouse: Warehouse;
  /** Creates an API token for the user and returns the Authorization header value. */
  login(user: User): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: ManualClock;
  /** Extra or replacement dependencies (fakes of third parties, a warehouse…). */
  deps?: Partial<AppDeps>;
}

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { db, close } = await freshDb();
  const config = loadConfig({
    INSIGHTS_DATA_DIR: '/nonexistent-test-data-dir',
    INSIGHTS_JWT_SECRET: JWT_SECRET,
    INSIGHTS_RATE_LIMIT: '100000',
    INSIGHTS_AUTH_FAILURE_LIMIT: '100000',
    ...options.env,
  });
  const clock = options.clock ?? new ManualClock(new Date());
  const secrets = new SecretBox(crypto.randomBytes(32));
  // A seeded in-memory DuckDB ending on the clock's date unless the test brings its own.
  const warehouse = options.deps?.warehouse ?? (await testWarehouse(clock.now()));
  const app = await buildApp({ config, db, clock, secrets, logger: false, ...options.deps, warehouse });
  await app.ready();
  const tokens = new TokensService(new TokensRepository(db), clock);
  return {
    app,
    db,
    config,
    clock,
    secrets,
    warehouse,
    async login(u) {
      const { token } = await tokens.create({
        tenantId: u.tenant,
        userId: u.user,
        userName: u.name ?? u.user,
        email: u.email ?? `${u.user}@${u.tenant}.example`,
        role: u.role,
        name: 'test',
      });
      return `Svc ${token}`;
    },
    async close() {
      await app.close();
      if (!options.deps?.warehouse) await warehouse.close();
      await close();
    },
  };
}

/** A compact way to call the API as someone: `await call(t, auth, 'POST', '/api/v1/…', body)`. */
export async function call(
  t: TestApp,
  authorization: string | undefined,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<LightMyRequestResponse & { data: any }> {
  const headers: Record<string, string> = {};
  if (authorization) headers.authorization = authorization;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await t.app.inject({ method, url, headers, payload: body === undefined ? undefined : JSON.stringify(body) });
  let data: any;
  try {
    data = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    data = res.body;
  }
  return Object.assign(res, { data });
}
