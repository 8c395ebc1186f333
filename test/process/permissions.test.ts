// The data dir is its owner's only: 0700 for directories, 0600 for files. A data dir left loose by
// an earlier version (PGlite writes its cluster 0666, DuckDB its file 0644 under the usual umask)
// is put right at start, and what the running server creates afterwards is owner-only too.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { EMBEDDED_ONLY, ownerDataDir, type RunningServer, startServer } from '../helpers/process.ts';

/** Every path under dir (dir included) whose mode is not the owner-only one. */
function loose(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return;
    const want = st.isDirectory() ? 0o700 : 0o600;
    if ((st.mode & 0o7777) !== want) out.push(`${path.relative(dir, p) || '.'} ${(st.mode & 0o7777).toString(8)}`);
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return out;
}

function loosen(dir: string): void {
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    fs.chmodSync(p, st.isDirectory() ? 0o755 : p.endsWith('.duckdb') ? 0o644 : 0o666);
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
}

let dataDir = '';
let server: RunningServer | undefined;
after(() => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a loose data dir is made owner-only at start, and stays so while the server writes', {
  skip: EMBEDDED_ONLY,
}, async () => {
  const owner = await ownerDataDir('insights-modes-', 'acme');
  dataDir = owner.dataDir;
  const headers = { ...owner.headers, 'content-type': 'application/json' };
  assert.deepEqual(loose(dataDir), [], 'the CLI left only owner-only files');

  loosen(dataDir);
  assert.ok(loose(dataDir).length > 100, 'loosened, as an earlier version left it');
  server = await startServer(dataDir);
  assert.deepEqual(loose(dataDir), [], 'put right at start');

  // New tables' files, WAL segments, the master key: whatever the server creates now.
  for (let i = 0; i < 30; i++) {
    const res: Response = await fetch(`${server.url}/api/v1/dashboards/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `board ${i}` }),
    });
    assert.equal(res.status, 201);
  }
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0);
  const finalModes = loose(dataDir);
  assert.deepEqual(finalModes, [], 'files created while serving are owner-only');
  for (const f of ['master.key', 'warehouse.duckdb', 'insights.lock', 'pgdata/PG_VERSION']) {
    assert.equal(fs.statSync(path.join(dataDir, f)).mode & 0o777, 0o600, f);
  }
  assert.equal(fs.statSync(dataDir).mode & 0o777, 0o700);
});
