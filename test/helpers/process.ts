// Runs the real `insights` command as a child process (bin/insights.js), for tests of the CLI, the
// data-dir lock and crash durability. Children never inherit DATABASE_URL: these tests are about the
// embedded database.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGliteDb } from '../../src/db/index.ts';
import { pgliteFromTemplate } from './db.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin/insights.js');

/**
 * The skip option of a file whose every test runs the service in child processes. Children never
 * inherit DATABASE_URL (childEnv), so on the PostgreSQL pass such a test would run again exactly as
 * on the PGlite pass, at the same cost: there it is skipped, with this reason (README, "Tests").
 */
export const EMBEDDED_ONLY: string | false = process.env.DATABASE_URL
  ? 'its service runs in child processes on the embedded database, which DATABASE_URL does not change: the PGlite pass runs it'
  : false;

export function tempDataDir(prefix = 'insights-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** The parent's environment without its database URLs and test-runner flags, plus `extra` (which may set them). */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.WAREHOUSE_URL;
  // The test runner's own flags must not leak into the child.
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  return { ...env, ...extra };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`insights ${args.join(' ')} timed out\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The token `insights token create` printed: alone on stdout's last line. */
export function lastLine(stdout: string): string {
  const lines = stdout.trimEnd().split('\n');
  return lines[lines.length - 1];
}

/**
 * A temp data dir whose embedded database is already initialized and migrated, loaded from the
 * test template: initializing one from scratch costs seconds of CPU per test.
 */
export async function migratedDataDir(prefix?: string): Promise<string> {
  const dir = tempDataDir(prefix);
  // Always PGlite: the child servers of these tests run on the embedded database (childEnv drops
  // DATABASE_URL), also when the suite itself runs on PostgreSQL.
  const template = (await pgliteFromTemplate()) as PGliteDb;
  try {
    const dump = await template.dump();
    const db = await PGliteDb.open({ dataDir: path.join(dir, 'pgdata'), loadDataDir: dump });
    await db.close();
  } finally {
    await template.close();
  }
  return dir;
}

/**
 * Fills the data dir's warehouse with a few demo orders, so that `serve` (which seeds an empty
 * warehouse with the full demo data set on first start) starts in a second.
 */
export async function seedTinyWarehouse(dataDir: string): Promise<void> {
  const res = await runCli(['demo', 'seed', '--rows', '50'], { INSIGHTS_DATA_DIR: dataDir });
  if (res.code !== 0) throw new Error(`insights demo seed failed:\n${res.stdout}\n${res.stderr}`);
}

/** A migrated data dir with the tiny demo data and an owner token of `tenant`, and the headers that send it. */
export async function ownerDataDir(prefix: string, tenant = 'demo'): Promise<{ dataDir: string; headers: Record<string, string> }> {
  const dataDir = await migratedDataDir(prefix);
  try {
    // Before the server starts: while it runs, the data dir is locked.
    const cli = await runCli(['token', 'create', '--tenant', tenant, '--user', 'olga', '--role', 'owner'], { INSIGHTS_DATA_DIR: dataDir });
    if (cli.code !== 0) throw new Error(`insights token create failed:\n${cli.stderr}`);
    await seedTinyWarehouse(dataDir);
    return { dataDir, headers: { authorization: `Svc ${lastLine(cli.stdout)}` } };
  } catch (err) {
    // The caller never learns the dir's name, so its clean-up cannot remove it.
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/** Stops a server as its supervisor would (SIGTERM) and waits for it to exit. */
export async function stopServer(s: RunningServer): Promise<void> {
  s.child.kill('SIGTERM');
  await s.exited;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Waits for the process to exit (after a signal). */
  exited: Promise<number | null>;
}

/** Starts `insights serve` on the data dir (with extra settings, if any) and resolves once /readyz answers. */
export async function startServer(dataDir: string, timeoutMs = 60_000, env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: ROOT,
    env: childEnv({ ...env, INSIGHTS_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let dead = false;
  void exited.then(() => (dead = true));
  while (Date.now() < deadline && !dead) {
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return { child, url, output: () => out, exited };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not become ready:\n${out}`);
}
