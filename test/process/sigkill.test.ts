// Killing the server with SIGKILL during a burst of dashboard writes loses no acknowledged write:
// every dashboard answered with 201 before the kill is there after a restart on the same data dir.
// This is about the embedded database (PGlite), so it is skipped when DATABASE_URL is set.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { EMBEDDED_ONLY, ownerDataDir, type RunningServer, startServer } from '../helpers/process.ts';

const WRITERS = 16;
const KILL_AFTER_ACKS = 150;

describe('durability on PGlite', { skip: EMBEDDED_ONLY }, () => {
  let dataDir = '';
  const servers: RunningServer[] = [];
  after(() => {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('SIGKILL mid-burst loses no acknowledged dashboard', async () => {
    const owner = await ownerDataDir('insights-sigkill-', 'acme');
    dataDir = owner.dataDir;
    const auth = owner.headers.authorization;
    const first = await startServer(dataDir);
    servers.push(first);
    const acked: string[] = [];
    let attempted = 0;
    let killed = false;
    const writer = async (n: number) => {
      for (let i = 0; !killed; i++) {
        attempted++;
        try {
          const res = await fetch(`${first.url}/api/v1/dashboards/`, {
            method: 'POST',
            headers: { authorization: auth, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `burst ${n}-${i}`, global_filter_presets: [{ id: 'p', name: 'P', filters: { country: 'DE' } }] }),
          });
          if (res.status === 201) {
            acked.push(((await res.json()) as { id: string }).id);
          } else {
            await res.body?.cancel();
          }
        } catch {
          // The connection died with the server: this write was never acknowledged.
          return;
        }
        if (!killed && acked.length >= KILL_AFTER_ACKS) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, n) => writer(n)));
    await first.exited;
    assert.equal(first.child.signalCode, 'SIGKILL');
    assert.ok(acked.length >= KILL_AFTER_ACKS, `acknowledged ${acked.length} of ${attempted}`);

    // The kernel dropped the dead server's lock with it; recovery replays the WAL.
    const second = await startServer(dataDir);
    servers.push(second);
    const res = await fetch(`${second.url}/api/v1/dashboards/?limit=1000`, { headers: { authorization: auth } });
    assert.equal(res.status, 200);
    const stored = new Set(((await res.json()) as { id: string }[]).map((d) => d.id));
    const lost = acked.filter((id) => !stored.has(id));
    assert.deepEqual(lost, [], `${lost.length} of ${acked.length} acknowledged writes lost`);
    // The database still takes writes after recovery.
    const more = await fetch(`${second.url}/api/v1/dashboards/`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'after recovery' }),
    });
    assert.equal(more.status, 201);
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);
  });
});
