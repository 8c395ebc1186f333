// The demo tenant's "Start here" dashboard comes with the demo data: `insights demo seed` makes it
// once (a re-seed makes no second copy), the first owner sees it; a server on a model of the
// user's own makes none.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { firstOwnerToken } from '../../helpers/browser.ts';
import { EMBEDDED_ONLY, ROOT, migratedDataDir, runCli, startServer, tempDataDir, type RunningServer } from '../../helpers/process.ts';

async function dashboards(server: RunningServer, token: string): Promise<{ name: string; widget_ids: string[]; is_shared: boolean }[]> {
  const res = await fetch(`${server.url}/api/v1/dashboards/`, { headers: { Authorization: `Svc ${token}` } });
  assert.equal(res.status, 200);
  return (await res.json()) as { name: string; widget_ids: string[]; is_shared: boolean }[];
}

async function stop(server: RunningServer): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

test('demo seed makes the demo tenant a starter dashboard, once', { skip: EMBEDDED_ONLY, timeout: 180_000 }, async () => {
  const dir = await migratedDataDir('insights-starter-');
  const first = await runCli(['demo', 'seed', '--rows', '60'], { INSIGHTS_DATA_DIR: dir });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /Made the "Start here" dashboard for tenant demo \(8 widgets\)\./);
  const again = await runCli(['demo', 'seed', '--rows', '60'], { INSIGHTS_DATA_DIR: dir });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /Tenant demo has had its starter dashboard already: none made\./);
  const acmeOnly = await runCli(['demo', 'seed', '--rows', '60', '--tenants', 'acme'], { INSIGHTS_DATA_DIR: dir });
  assert.equal(acmeOnly.code, 0, acmeOnly.stderr);
  assert.doesNotMatch(acmeOnly.stdout, /starter|Start here/, 'only the demo tenant gets one');

  const server = await startServer(dir);
  try {
    const list = await dashboards(server, await firstOwnerToken(server));
    assert.deepEqual(
      list.map((d) => [d.name, d.widget_ids.length, d.is_shared]),
      [['Start here', 8, false]],
    );
  } finally {
    await stop(server);
  }
});

test('a first start that generates the demo data makes the starter too; a restart makes no second', {
  skip: EMBEDDED_ONLY,
  timeout: 300_000,
}, async () => {
  const dir = tempDataDir('insights-first-starter-');
  let server = await startServer(dir, 240_000, { LOG_LEVEL: 'info' });
  let token: string;
  try {
    token = await firstOwnerToken(server);
    // The log is JSON: its quotes come escaped.
    assert.match(server.output(), /Made the demo tenant's \\?"Start here\\?" dashboard/);
    assert.deepEqual(
      (await dashboards(server, token)).map((d) => [d.name, d.widget_ids.length]),
      [['Start here', 8]],
    );
  } finally {
    await stop(server);
  }
  server = await startServer(dir, 120_000, { LOG_LEVEL: 'info' });
  try {
    assert.doesNotMatch(server.output(), /Start here/);
    assert.equal((await dashboards(server, token)).length, 1);
  } finally {
    await stop(server);
  }
});

test('a server on a model of the user own makes no starter dashboard', { skip: EMBEDDED_ONLY, timeout: 120_000 }, async () => {
  const dir = await migratedDataDir('insights-own-');
  const server = await startServer(dir, 60_000, { INSIGHTS_MODEL: path.join(ROOT, 'examples/movies/model.yml') });
  try {
    assert.deepEqual(await dashboards(server, await firstOwnerToken(server)), []);
  } finally {
    await stop(server);
  }
});
