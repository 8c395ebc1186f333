// The idle footprint (docs/footprint.md): what serves only some requests is loaded on first use,
// so a server answering the everyday REST requests never holds it. Checked in a child process
// with a module load hook; the first use of each is tested where it is used (egress, e-mail,
// charts and PDF, MCP, the ClickHouse warehouse). The PostgreSQL warehouse's client is left out:
// the test helpers import that warehouse themselves.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { childEnv, ROOT } from '../helpers/process.ts';

const ON_FIRST_USE = [
  'undici', // outbound calls (src/adapters/egress.ts)
  'nodemailer', // e-mail channels
  '@clickhouse/client', // a ClickHouse warehouse
  'typebox/value', // TypeBox's own checker: Ajv checks the schemas
  'pdfkit', // PDF reports
  'echarts', // charts in reports
  '@resvg/resvg-js',
  'markdown-it',
  '@modelcontextprotocol/sdk',
];

test('building the app and serving REST requests loads none of what serves only some requests', () => {
  const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'first-use-child.ts')], {
    cwd: ROOT,
    env: { ...childEnv(), DATABASE_URL: process.env.DATABASE_URL ?? '' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(child.status, 0, child.stderr);
  const out = JSON.parse(child.stdout) as { statuses: number[]; loaded: string[] };
  assert.deepEqual(out.statuses, [200, 200, 200, 200, 200]);
  assert.deepEqual(
    out.loaded.filter((name) => ON_FIRST_USE.includes(name)),
    [],
  );
  // The hook sees what is loaded: the packages every request needs are among them.
  assert.ok(out.loaded.includes('fastify') || out.loaded.includes('typebox'), `the hook reported ${out.loaded.join(', ')}`);
});
