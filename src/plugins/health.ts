import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index.ts';

/** Liveness answers while the process runs; readiness also checks the system of record. */
export function installHealth(app: FastifyInstance, deps: { db: Db }): void {
  const hide = { hide: true };
  app.get('/healthz', { config: { public: true }, schema: hide }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { public: true }, schema: hide }, async (_req, reply) => {
    try {
      await deps.db.query('SELECT 1');
      return { status: 'ready' };
    } catch {
      return reply.code(503).type('application/problem+json').send({
        type: 'https://insights.dev/problems/service-unavailable',
        title: 'Service unavailable',
        status: 503,
        detail: 'The database is not reachable',
        code: 'SERVICE_UNAVAILABLE',
      });
    }
  });
}
