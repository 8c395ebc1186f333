// What is running (GET /api/v1/version) and where a browser landing on / should go. The version
// needs credentials: the exact package, commit and Node.js versions tell an anonymous scanner
// which known flaws to try (docs/security.md). The front door is public.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Nullable, withErrors } from '../lib/schemas.ts';

const PACKAGE_JSON = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json');

export const VersionSchema = Type.Object(
  {
    name: Type.String({ description: 'The package name' }),
    version: Type.String({ description: 'The package version (package.json)' }),
    commit: Nullable(Type.String({ description: 'The source commit, when INSIGHTS_COMMIT says it' })),
    node: Type.String({ description: 'The Node.js version serving' }),
    warehouse: Type.String({ description: 'The warehouse dialect: duckdb or postgres' }),
  },
  { additionalProperties: false },
);

export function packageInfo(): { name: string; version: string } {
  const pkg = JSON.parse(fs.readFileSync(PACKAGE_JSON, 'utf8')) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

export function installAbout(
  app: FastifyInstance,
  deps: { commit?: string; warehouseDialect: string /** False when the web app owns `/` (plugins/web.ts). */; redirectHome?: boolean },
): void {
  const body = { ...packageInfo(), commit: deps.commit ?? null, node: process.versions.node, warehouse: deps.warehouseDialect };
  app.get(
    '/api/v1/version',
    {
      schema: {
        tags: ['service'],
        summary: 'What is running: package version, commit, Node.js, warehouse dialect (any authenticated caller)',
        response: withErrors({ 200: VersionSchema }),
      },
    },
    async () => body,
  );
  // Until a web app is served here, the front door is the interactive API documentation.
  if (deps.redirectHome !== false)
    app.get('/', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => reply.redirect('/docs', 302));
}
