// The `insights` command against the embedded database: a token printed alone on the last line,
// the data-dir lock while a server runs, and a lock file left behind (with any pid in it) that no
// process holds taken over. Restarts after kill -9: test/process/restart.test.ts.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { lockDataDir } from '../src/db/lock.ts';
import { EMBEDDED_ONLY, lastLine, runCli, seedTinyWarehouse, startServer, tempDataDir, type RunningServer } from './helpers/process.ts';

describe('insights CLI', { skip: EMBEDDED_ONLY }, () => {
  // One data dir for the whole file: initializing a fresh embedded database takes seconds.
  const dataDir = tempDataDir();
  let server: RunningServer | undefined;
  after(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('token create on a fresh data dir prints the token alone on the last line, and it works; a second process is refused while the server runs', async () => {
    const created = await runCli(
      ['token', 'create', '--tenant', 't', '--user', 'u', '--role', 'owner', '--name', 'Uma', '--email', 'uma@t.example'],
      { INSIGHTS_DATA_DIR: dataDir },
    );
    assert.equal(created.code, 0, created.stderr);
    const token = lastLine(created.stdout);
    assert.match(token, /^ins_[A-Za-z0-9_-]{20,}$/);
    lockDataDir(dataDir).release(); // the CLI released its lock

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
    lockDataDir(dataDir).release(); // a graceful stop releases the lock
  });

  test('a lock file that no process holds is taken over, whatever pid it names; a held one is respected', async () => {
    // A pid that is certainly dead (a child that has already exited), then a live one (ours): only
    // the kernel's lock decides, never the pid written in the file.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(gone.stdout.toString());
    assert.ok(deadPid > 0);
    for (const pid of [deadPid, process.pid]) {
      fs.writeFileSync(path.join(dataDir, 'insights.lock'), String(pid));
      const res = await runCli(['token', 'create', '--tenant', 't', '--user', 'u', '--role', 'admin'], { INSIGHTS_DATA_DIR: dataDir });
      assert.equal(res.code, 0, res.stderr);
      assert.match(lastLine(res.stdout), /^ins_/);
    }

    // A lock held by a live process is respected, and its pid named.
    const held = lockDataDir(dataDir);
    try {
      const refused = await runCli(['token', 'list'], { INSIGHTS_DATA_DIR: dataDir });
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, new RegExp(`in use by another process \\(pid ${process.pid}\\)`));
    } finally {
      held.release();
    }
    assert.equal((await runCli(['token', 'list'], { INSIGHTS_DATA_DIR: dataDir })).code, 0, 'released, it is free again');
  });

  test('bad arguments are a one-line usage error with a non-zero exit', async () => {
    const res = await runCli(['token', 'create', '--tenant', 't', '--user', 'u', '--role', 'root'], { INSIGHTS_DATA_DIR: dataDir });
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /--role must be owner, admin or member/);
    assert.equal(res.stdout, '');
  });
});
