// The data-dir lock is the kernel's: a server killed with SIGKILL and restarted at once (as a
// supervisor does, within 100 ms) always starts, several times over, and every delivery a receiver
// accepted has its log row in the end. The killed process is left a zombie by a parent that does
// not reap it, as a shell or a container's first process may: a pid check took it for alive.
// A second live process is still refused: the CLI, also from another pid namespace (a container
// sharing the volume), where the server's pid means nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startWebhookReceiver, type FakeWebhookReceiver } from '../fakes/webhook-receiver.ts';
import { childEnv, EMBEDDED_ONLY, freePort, ownerDataDir, ROOT, runCli, tempDataDir } from '../helpers/process.ts';

const ROUNDS = 3;
const SUBSCRIPTIONS = 30;

interface Unreaped {
  /** The perl parent that never waits for its child. */
  parent: ChildProcess;
  url: string;
  pid: number;
}

/**
 * Starts `insights serve` as the child of a parent that never reaps it, so that once killed it
 * stays a zombie (its pid still answers kill(pid, 0)), and resolves once /readyz answers.
 */
async function startUnreaped(dataDir: string, env: Record<string, string>): Promise<Unreaped> {
  const port = await freePort();
  const parent = spawn(
    'perl',
    [
      '-e',
      '$| = 1; my $pid = fork(); if ($pid == 0) { exec(@ARGV) or die "exec: $!" } print "child $pid\n"; sleep 3600 while 1;',
      process.execPath,
      path.join(ROOT, 'bin/insights.js'),
      'serve',
    ],
    {
      cwd: ROOT,
      env: childEnv({ ...env, INSIGHTS_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  parent.stdout!.on('data', (d) => (out += d));
  parent.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  // Generous: a busy machine starts a server slowly, and a start that is refused ends at once.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) {
        const pid = Number(/^child (\d+)$/m.exec(out)?.[1]);
        assert.equal(fs.readFileSync(path.join(dataDir, 'insights.lock'), 'utf8').trim(), String(pid), 'the lock file names the server');
        return { parent, url, pid };
      }
    } catch {
      // not listening yet
    }
    if (/in use by another process/.test(out)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  // Killing the parent would leave its child running: the child first.
  const pid = Number(/^child (\d+)$/m.exec(out)?.[1]);
  if (pid) process.kill(pid, 'SIGKILL');
  parent.kill('SIGKILL');
  throw new Error(`the server did not start:\n${out}`);
}

const zombie = (pid: number) => {
  try {
    return /^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('restarts on the embedded database', { skip: EMBEDDED_ONLY }, () => {
  let dataDir = '';
  let receiver: FakeWebhookReceiver;
  let caFile = '';
  const parents: ChildProcess[] = [];
  const servers: number[] = [];
  before(async () => {
    receiver = await startWebhookReceiver();
    caFile = path.join(tempDataDir('insights-ca-'), 'ca.pem');
    fs.writeFileSync(caFile, receiver.ca);
  });
  after(async () => {
    // Servers first: killing a perl parent leaves its child running, holding the test's pipes.
    for (const pid of servers) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const p of parents) p.kill('SIGKILL');
    await receiver?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    if (caFile) fs.rmSync(path.dirname(caFile), { recursive: true, force: true });
  });

  test(`SIGKILL and an immediate restart, ${ROUNDS} times: every start succeeds and every accepted delivery has its log row`, async () => {
    const owner = await ownerDataDir('insights-restart-', 'acme');
    dataDir = owner.dataDir;
    const headers = { ...owner.headers, 'content-type': 'application/json' };
    const env = { INSIGHTS_EGRESS_ALLOW: '127.0.0.0/8', NODE_EXTRA_CA_CERTS: caFile };

    let server = await startUnreaped(dataDir, env);
    parents.push(server.parent);
    servers.push(server.pid);
    const api = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${server.url}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, data: (await res.json().catch(() => undefined)) as any };
    };
    const channel = await api('POST', '/api/v1/notifications/channels', {
      channel_type: 'webhook',
      config: { webhook_url: `${receiver.origin}/hook` },
    });
    assert.equal(channel.status, 201, JSON.stringify(channel.data));
    receiver.secret = channel.data.config.signing_secret;
    const subs: string[] = [];
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const sub = await api('POST', '/api/v1/notifications/subscriptions', {
        insight_code: 'revenue',
        schedule: 'daily',
        granularity: 'month',
        channel_id: channel.data.id,
      });
      assert.equal(sub.status, 201, JSON.stringify(sub.data));
      subs.push(sub.data.id);
    }

    const perRound = Math.floor(SUBSCRIPTIONS / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      const before = receiver.received.length;
      // Send-nows in flight while the kill lands: some delivered, some claimed, some pending.
      const sends = subs
        .slice(round * perRound, (round + 1) * perRound)
        .map((id) => api('POST', `/api/v1/notifications/subscriptions/${id}/send`).catch(() => undefined));
      const deadline = Date.now() + 30_000;
      while (receiver.received.length < before + 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      assert.ok(receiver.received.length >= before + 2, `round ${round}: the receiver got deliveries`);
      const killed = server.pid;
      process.kill(killed, 'SIGKILL');
      // A supervisor restarts at once; the old process lingers as a zombie of its parent.
      server = await startUnreaped(dataDir, env);
      parents.push(server.parent);
      servers.push(server.pid);
      assert.ok(zombie(killed), `round ${round}: the killed server (pid ${killed}) is an unreaped zombie`);
      assert.notEqual(server.pid, killed);
      await Promise.all(sends);
    }

    // Every delivery the receiver accepted has a success row in the log, after the leases of the
    // ones in flight at a kill run out (60 s) and they are sent again (same webhook-id).
    const accepted = new Set(receiver.received.filter((r) => r.verified).map((r) => r.payload.subscription_id as string));
    assert.ok(accepted.size >= ROUNDS * 2, `accepted ${accepted.size}`);
    let logged = new Set<string>();
    const until = Date.now() + 120_000;
    while (Date.now() < until) {
      const logs = await api('GET', '/api/v1/notifications/logs?status=success&limit=1000');
      assert.equal(logs.status, 200);
      logged = new Set((logs.data as { subscription_id: string }[]).map((l) => l.subscription_id));
      if ([...accepted].every((id) => logged.has(id))) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    assert.deepEqual(
      [...accepted].filter((id) => !logged.has(id)),
      [],
      'accepted deliveries without a log row',
    );
  });

  test('while the server runs, the CLI is refused, also from another pid namespace where its pid means nothing', async () => {
    // Once more at once after a kill, then a second process tries its luck.
    for (const pid of servers) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    const server = await startUnreaped(dataDir, {});
    parents.push(server.parent);
    servers.push(server.pid);
    const refused = await runCli(['token', 'create', '--tenant', 'acme', '--user', 'max', '--role', 'member'], {
      INSIGHTS_DATA_DIR: dataDir,
    });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, new RegExp(`in use by another process \\(pid ${server.pid}\\)\\. Stop the running server first`));

    const canUnshare = spawnSync('unshare', ['--pid', '--fork', 'true']).status === 0;
    if (!canUnshare) {
      test.skip?.('unshare --pid needs root');
      return;
    }
    const other = spawnSync(
      'unshare',
      [
        '--pid',
        '--fork',
        process.execPath,
        path.join(ROOT, 'bin/insights.js'),
        'token',
        'create',
        '--tenant',
        'acme',
        '--user',
        'max',
        '--role',
        'member',
      ],
      {
        cwd: ROOT,
        env: childEnv({ INSIGHTS_DATA_DIR: dataDir }),
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    assert.equal(other.status, 1, other.stdout + other.stderr);
    assert.match(other.stderr, /in use by another process/);
    // The server was not disturbed.
    assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
  });
});
