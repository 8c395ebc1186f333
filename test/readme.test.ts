// The README's walk-through, pasted in order into bash against a real server, runs clean: every
// `sh` block from "A walk through the API" down to "Cleaning up", with only the two variables a
// reader sets changed (BASE and TOKEN). The server block of "Seeing deliveries succeed" is run the
// README's way too: its stand-in Bot API as a child process, the server with its two settings.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  EMBEDDED_ONLY,
  freePort,
  lastLine,
  migratedDataDir,
  ROOT,
  runCli,
  seedTinyWarehouse,
  startServer,
  type RunningServer,
} from './helpers/process.ts';

const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const missing = ['bash', 'curl', 'jq'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

/** The walk-through's shell blocks, split at the block that (re)starts the server. */
function walkthrough(): { steps: string; serverBlock: string } {
  const from = README.indexOf('## A walk through the API');
  const to = README.indexOf('## Configuration');
  assert.ok(from > 0 && to > from, 'the README has the walk-through, then Configuration');
  const blocks = [...README.slice(from, to).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  const serverBlock = blocks.find((b) => b.includes('npm start'));
  assert.ok(serverBlock, 'the walk-through shows how to start the server with a stand-in Bot API');
  return { steps: blocks.filter((b) => b !== serverBlock).join('\n'), serverBlock };
}

describe('README walk-through', { skip: missing.length ? `needs ${missing.join(', ')} on PATH` : EMBEDDED_ONLY }, () => {
  let server: RunningServer;
  let standIn: ChildProcess;
  let token: string;
  let dataDir: string;

  before(async () => {
    const { serverBlock } = walkthrough();
    // The stand-in exactly as the README shows it, on a free port.
    const standInCode = /node -e '([\s\S]*?)' &/.exec(serverBlock)?.[1];
    assert.ok(standInCode, 'the stand-in is a node -e one-liner');
    const port = await freePort();
    standIn = spawn(process.execPath, ['-e', standInCode.replace('listen(8099)', `listen(${port})`)], { stdio: 'ignore' });
    const settings = Object.fromEntries([...serverBlock.matchAll(/(INSIGHTS_[A-Z_]+)=(\S+)/g)].map((m) => [m[1], m[2]]));
    assert.deepEqual(Object.keys(settings).sort(), ['INSIGHTS_EGRESS_ALLOW', 'INSIGHTS_MESSENGER_API_URL']);
    settings.INSIGHTS_MESSENGER_API_URL = settings.INSIGHTS_MESSENGER_API_URL.replace(':8099', `:${port}`);

    dataDir = await migratedDataDir('insights-readme-');
    await seedTinyWarehouse(dataDir);
    // How the README says to get a token while the server is stopped.
    const created = await runCli(['token', 'create', '--tenant', 'demo', '--user', 'owner', '--role', 'owner'], {
      INSIGHTS_DATA_DIR: dataDir,
    });
    assert.equal(created.code, 0, created.stderr);
    token = lastLine(created.stdout);
    server = await startServer(dataDir, 60_000, settings);
  });

  after(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    standIn?.kill();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('runs end to end when pasted in order', () => {
    const { steps } = walkthrough();
    assert.match(steps, /^BASE=http:\/\/127\.0\.0\.1:8080 /m);
    assert.match(steps, /^TOKEN=ins_… /m);
    const script = steps.replace(/^BASE=\S+/m, `BASE=${server.url}`).replace(/^TOKEN=\S+/m, `TOKEN=${token}`);
    const names = [
      'ANN_TOKEN_ID',
      'DASH',
      'LIVE_WIDGET',
      'SNAPSHOT_WIDGET',
      'HISTORY',
      'MESSENGER',
      'EMAIL',
      'WEBHOOK',
      'INSIGHT_SUB',
      'DASH_SUB',
      'NEXT',
    ];
    const check = names.map((n) => `echo "@@ ${n}=\${${n}}"`).join('\n');
    // stdin is /dev/null: with a socket there (node's default pipes are socket pairs) bash may take
    // itself for a remote shell and read /etc/bash.bashrc, whose `$PS1` fails under -u (seen once
    // in a full run: "/etc/bash.bashrc: line 7: PS1: unbound variable" on stderr).
    // In a folder of its own, as a reader's shell would be: the files a step writes (sessions.csv)
    // never land in the checkout, even when the run is cut short, where CI's container build
    // copies the tree beside the PostgreSQL pass.
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-walkthrough-'));
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', `${script}\n${check}\n`], {
      cwd,
      encoding: 'utf8',
      timeout: 120_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const left = fs.readdirSync(cwd);
    fs.rmSync(cwd, { recursive: true, force: true });
    const out = run.stdout;
    assert.equal(run.status, 0, `the walk-through failed:\n${run.stderr}\n${out.slice(-3000)}\n${server.output().slice(-2000)}`);
    assert.equal(run.stderr.trim(), '', 'nothing on stderr (jq parse errors, curl errors)');
    assert.deepEqual(left, [], 'the walk-through removes the files it wrote');

    // Every id a step captured is a real one.
    for (const n of names) {
      const value = new RegExp(`^@@ ${n}=(.*)$`, 'm').exec(out)?.[1] ?? '';
      assert.ok(value && value !== 'null', `${n} was captured (got "${value}")`);
    }
    // What the comments promise.
    assert.match(out, /^403$/m, "a member may not rename another's dashboard");
    assert.match(out, /"code":"UPSTREAM_FAILED"/, 'the webhook test to a host that does not exist is a 502 problem');
    assert.match(out, /"success": true/, 'the channel test through the stand-in succeeds');
    assert.match(out, /"channel_type":"messenger","status":"success"/, 'the dashboard report reached the stand-in');
    assert.match(out, /"is_active":false,"next_run_at":null/);
    assert.match(out, /^\/api\/v1\/notifications\/logs\?limit=1&cursor=/m, 'the Link header gives the next page');
    assert.match(
      out,
      /^list_insights describe_model run_insight query ask list_dashboards get_dashboard add_widget$/m,
      'the MCP tools are listed',
    );
    assert.match(
      out,
      /^Revenue by week for country DE, periods starting \d{4}-\d{2}-\d{2} to /m,
      'run_insight over MCP summarizes its rows',
    );
    assert.match(
      out,
      /^FORBIDDEN: Only an owner, an admin or the dashboard's creator may add widgets/m,
      'a member may not add widgets over MCP',
    );
    assert.match(
      out,
      /^\{"orders\.ordered_at":"2026-03-01","orders\.revenue":[\d.]+,"orders\.revenue_3m":[\d.]+,"orders\.revenue_ytd":[\d.]+\}$/m,
      'rolling and year-to-date revenue by month',
    );
    assert.match(
      out,
      /^\{"columns":\["cohort","period","retention","active","size"\],"first_row":\{"cohort":"\d{4}-\d{2}-01","period":0,"retention":100,"active":\d+,"size":\d+\}\}$/m,
      'the retention triangle',
    );
    const codes = out.split('\n').filter((l) => /^\d{3}$/.test(l));
    assert.deepEqual(
      codes.slice(-7),
      ['204', '204', '204', '204', '204', '204', '401'],
      'clean-up deletes answer 204; a revoked token is refused',
    );
  });
});
