// The idle footprint: a server nobody asks over MCP never loads the SDK (nor its zod, express…);
// the first MCP request does. Checked in a child process with a module resolve hook.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { childEnv, ROOT } from '../../helpers/process.ts';

test('the MCP SDK is imported on the first MCP request, not when the app is built', () => {
  const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'sdk-load-child.ts')], {
    cwd: ROOT,
    env: { ...childEnv(), DATABASE_URL: process.env.DATABASE_URL ?? '' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(child.status, 0, child.stderr);
  const out = JSON.parse(child.stdout) as { atStart: number; afterMcp: number; status: number };
  assert.equal(out.status, 200);
  assert.equal(out.atStart, 0, 'building the app and serving REST requests loaded none of the SDK');
  assert.ok(out.afterMcp > 0, 'the first MCP request loaded it');
});
