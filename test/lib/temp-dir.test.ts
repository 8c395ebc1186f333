// Temp files a crashed process left are removed at the next start; a running process's never are
// (src/lib/temp-dir.ts, docs/security.md "Temp files").
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { sweepTempDirs } from '../../src/lib/temp-dir.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-temp-dir-test-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

/** A process that writes an upload into its temp dir, says where, and waits to be killed. */
function writer(): Promise<{ pid: number; file: string; kill: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import fs from 'node:fs';
       import { tempFile } from ${JSON.stringify(new URL('../../src/lib/temp-dir.ts', import.meta.url).href)};
       const file = tempFile('insights-upload', 'csv');
       fs.writeFileSync(file, 'n\\n1\\n');
       console.log(file);
       setInterval(() => {}, 1000);`,
    ],
    { env: { ...process.env, TMPDIR: root }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (chunk: Buffer) =>
      resolve({
        pid: child.pid!,
        file: chunk.toString().trim(),
        kill: () => new Promise<void>((done) => (child.once('exit', () => done()), child.kill('SIGKILL'))),
      }),
    );
  });
}

test("a start removes the temp files of a process killed with SIGKILL, never a running process's", async () => {
  const crashed = await writer();
  const running = await writer();
  try {
    assert.ok(fs.existsSync(crashed.file) && fs.existsSync(running.file));
    await crashed.kill();
    // Before: upload temp files of a crashed server stayed in TMPDIR for good.
    assert.equal(sweepTempDirs(root), 1);
    assert.equal(fs.existsSync(path.dirname(crashed.file)), false, 'the dead process’s temp dir is gone');
    assert.equal(fs.existsSync(running.file), true, 'the running process’s upload stays');
    assert.equal(sweepTempDirs(root), 0);
  } finally {
    await running.kill();
  }
  assert.equal(sweepTempDirs(root), 1, 'once it has died, its files go too');
  assert.deepEqual(
    fs.readdirSync(root).filter((n) => n.startsWith('insights-tmp-')),
    [],
  );
});
