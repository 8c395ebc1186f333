// Start-up failures a person fixes by changing one setting end the real process with exit code 1
// and one line on stderr naming the setting and the cause: no stack trace.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { freePort, migratedDataDir, runCli, seedTinyWarehouse } from '../helpers/process.ts';

function assertOneLine(res: { code: number | null; stderr: string; stdout: string }, pattern: RegExp): void {
  assert.equal(res.code, 1, res.stderr + res.stdout);
  const lines = res.stderr.split('\n').filter((l) => l.trim() !== '');
  assert.equal(lines.length, 1, `one line expected:\n${res.stderr}`);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(res.stderr + res.stdout, /^\s+at /m, 'no stack trace');
}

describe('start-up errors', () => {
  let dataDir: string;
  before(async () => {
    // Migrated and seeded once: initializing the embedded database costs seconds of CPU per start.
    dataDir = await migratedDataDir();
    await seedTinyWarehouse(dataDir);
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const serve = (env: Record<string, string>) =>
    runCli(['serve'], { INSIGHTS_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', ...env }, 180_000);

  test('an unreachable DATABASE_URL', async () => {
    const port = await freePort();
    assertOneLine(
      await serve({ DATABASE_URL: `postgres://insights:s3cret@127.0.0.1:${port}/db` }),
      new RegExp(`^insights: DATABASE_URL: .*127\\.0\\.0\\.1:${port}.*connection refused$`),
    );
  });

  test('a DATABASE_URL whose host does not exist; the password is never printed', async () => {
    const res = await serve({ DATABASE_URL: 'postgres://insights:s3cret@no-such-host.invalid:5432/db' });
    assertOneLine(res, /^insights: DATABASE_URL: .*no-such-host\.invalid.*(host not found|lookup failed)/);
    assert.doesNotMatch(res.stderr, /s3cret/);
  });

  test('a malformed DATABASE_URL or WAREHOUSE_URL', async () => {
    assertOneLine(await serve({ DATABASE_URL: 'not a url' }), /^insights: .*DATABASE_URL is not a valid URL$/);
    assertOneLine(
      await serve({ WAREHOUSE_URL: 'mysql://h/db' }),
      /^insights: .*WAREHOUSE_URL must use postgres: or postgresql: or clickhouse: or clickhouses: or http: or https:$/,
    );
  });

  test('an unreachable WAREHOUSE_URL', async () => {
    const port = await freePort();
    assertOneLine(await serve({ WAREHOUSE_URL: `postgres://x@127.0.0.1:${port}/wh` }), /^insights: WAREHOUSE_URL: .*connection refused$/);
  });

  test('an unreachable ClickHouse WAREHOUSE_URL; the password is never printed', async () => {
    const port = await freePort();
    const res = await serve({ WAREHOUSE_URL: `clickhouse://insights:s3cret@127.0.0.1:${port}/shop` });
    assertOneLine(
      res,
      new RegExp(`^insights: WAREHOUSE_URL: cannot use the database at 127\\.0\\.0\\.1:${port}/shop: connection refused$`),
    );
    assert.doesNotMatch(res.stderr, /s3cret/);
  });

  test('a busy port names PORT, and the data dir is left unlocked', async () => {
    const port = await freePort();
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      assertOneLine(await serve({ PORT: String(port) }), new RegExp(`^insights: PORT: port ${port} on 127\\.0\\.0\\.1 is already in use`));
      // Everything was closed on the way out: another command can open the data dir at once.
      const again = await runCli(['token', 'list'], { INSIGHTS_DATA_DIR: dataDir }, 180_000);
      assert.equal(again.code, 0, again.stderr);
    } finally {
      taken.close();
    }
  });
});
