// The `insights` command against the embedded database: a token printed alone on the last line,
// the data-dir lock while a server runs, and a stale lock taken over.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { lastLine, runCli, seedTinyWarehouse, startServer, tempDataDir, type RunningServer } from './helpers/process.ts';

describe('insights CLI', () => {
  // One data dir for the whole file: initializing a fresh embedded database takes seconds.
  const dataDir = tempDataDir();
  let server: RunningServer | undefined;
  after(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('token create on a fresh data dir prints the token alone on the last line, and it works; a second process is refused while the server runs', async () => {
    const created = await runCli(['token', 'create', '--tenant', 't', '--user', 'u', '--role', 'owner', '--name', 'Uma', '--email', 'uma@t.example'], { INSIGHTS_DATA_DIR: dataDir });
    assert.equal(created.code, 0, created.stderr);
    const token = lastLine(created.stdout);
    assert.match(token, /^ins_[A-Za-z0-9_-]{20,}$/);
    assert.ok(!fs.existsSync(path.join(dataDir, 'insights.lock')), 'the CLI released its lock');

    await seedTinyWarehouse(dataDir);
    server = await startServer(dataDir);
    const res = await fetch(`${server.url}/api/v1/dashboards/`, {
      method: 'POST',
      headers: { authorization: `Svc ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From the CLI token' }),
    });
    assert.equal(res.status, 201);
    const body = (await res.json()) as { tenant_id: string; created_by: string; created_by_name: string };
    assert.deepEqual([body.tenant_id, body.created_by, body.created_by_name], ['t', 'u', 'Uma']);

    const refused = await runCli(['token', 'create', '--tenant', 't', '--user', 'v', '--role', 'member'], { INSIGHTS_DATA_DIR: dataDir });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /in use by another process \(pid \d+\)/);
    assert.match(refused.stderr, /Stop the running server first/);
    assert.ok(!/^\s+at /m.test(refused.stderr), 'no stack trace');
    // The refused process did not touch the running server's data.
    const list = await fetch(`${server.url}/api/v1/dashboards/`, { headers: { authorization: `Svc ${token}` } });
    assert.equal(((await list.json()) as unknown[]).length, 1);

    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
    assert.ok(!fs.existsSync(path.join(dataDir, 'insights.lock')), 'a graceful stop releases the lock');
  });

  test('a stale lock file (pid of a dead process) is taken over', async () => {
    // A pid that is certainly dead: a child that has already exited.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(gone.stdout.toString());
    assert.ok(deadPid > 0);
    fs.writeFileSync(path.join(dataDir, 'insights.lock'), String(deadPid));
    const res = await runCli(['token', 'create', '--tenant', 't', '--user', 'u', '--role', 'admin'], { INSIGHTS_DATA_DIR: dataDir });
    assert.equal(res.code, 0, res.stderr);
    assert.match(lastLine(res.stdout), /^ins_/);
    assert.ok(!fs.existsSync(path.join(dataDir, 'insights.lock')));

    // A lock held by a live process is respected.
    fs.writeFileSync(path.join(dataDir, 'insights.lock'), String(process.pid));
    const held = await runCli(['token', 'list'], { INSIGHTS_DATA_DIR: dataDir });
    assert.notEqual(held.code, 0);
    assert.match(held.stderr, new RegExp(`in use by another process \\(pid ${process.pid}\\)`));
  });

  test('bad arguments are a one-line usage error with a non-zero exit', async () => {
    const res = await runCli(['token', 'create', '--tenant', 't', '--user', 'u', '--role', 'root'], { INSIGHTS_DATA_DIR: dataDir });
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /--role must be owner, admin or member/);
    assert.equal(res.stdout, '');
  });
});
