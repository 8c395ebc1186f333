// The V8 flags the server runs with are on node's command line, not in the code: `npm start`
// (package.json) and the container image's entrypoint must pass the same ones, and this node must
// still accept them (V8 flags come and go between versions; an unknown one stops node at start).
// Why each flag: docs/footprint.md and docs/performance.md §9.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXPECTED = ['--max-semi-space-size=2', '--heap-growing-percent=20'];

function startFlags(): string[] {
  const start = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  return start.split(' ').filter((a) => a.startsWith('--'));
}

function entrypointFlags(): string[] {
  const line = fs
    .readFileSync(path.join(ROOT, 'Containerfile'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('ENTRYPOINT '));
  assert.ok(line, 'the Containerfile has an ENTRYPOINT');
  return (JSON.parse(line.slice('ENTRYPOINT '.length)) as string[]).filter((a) => a.startsWith('--'));
}

test('npm start and the container entrypoint pass the same V8 flags', () => {
  assert.deepEqual(startFlags(), EXPECTED);
  assert.deepEqual(entrypointFlags(), EXPECTED);
});

// glibc reads MALLOC_TRIM_THRESHOLD_ once, before node's first allocation: it can only come from
// the environment the process starts with (docs/footprint.md).
test('npm start and the container image set the same malloc trim threshold', () => {
  const start = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  assert.match(start, /^MALLOC_TRIM_THRESHOLD_=1048576 .*\bnode /);
  const containerfile = fs.readFileSync(path.join(ROOT, 'Containerfile'), 'utf8');
  assert.match(containerfile, /^\s+MALLOC_TRIM_THRESHOLD_=1048576 \\$/m);
});

// Node sizes libuv's thread pool, on which DuckDB's reads run, at its first job, which the module
// loader's own file reads already are: only the starting environment can set it (docs/performance.md §18).
test('npm start and the container image give DuckDB the same thread pool for its reads', () => {
  const start = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  assert.match(start, /^(?:\S+=\S+ )*UV_THREADPOOL_SIZE=20 (?:\S+=\S+ )*node /);
  const containerfile = fs.readFileSync(path.join(ROOT, 'Containerfile'), 'utf8');
  assert.match(containerfile, /^\s+UV_THREADPOOL_SIZE=20 \\$/m);
});

// jemalloc, linked into libduckdb with the duckdb_je_ prefix, reads DUCKDB_JE_MALLOC_CONF when it
// starts: without a cache per thread, the 16 read threads do not each keep one at idle
// (docs/footprint.md "Issue 39, third round").
test("npm start and the container image give DuckDB's allocator the same settings", () => {
  const start = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  assert.match(start, /^(?:\S+=\S+ )*DUCKDB_JE_MALLOC_CONF=tcache:false (?:\S+=\S+ )*node /);
  const containerfile = fs.readFileSync(path.join(ROOT, 'Containerfile'), 'utf8');
  assert.match(containerfile, /^\s+DUCKDB_JE_MALLOC_CONF=tcache:false \\$/m);
  // This DuckDB's jemalloc (Linux builds only) reads that variable: an option it does not know is
  // reported on stderr, the one npm start sets is not. (Were the prefix to change with an upgrade,
  // the setting would silently do nothing.)
  if (process.platform !== 'linux') return;
  const probe = (conf: string) =>
    spawnSync(
      process.execPath,
      [
        '-e',
        "import('@duckdb/node-api').then(async (m) => { await (await (await m.DuckDBInstance.create(':memory:')).connect()).run('SELECT 1'); })",
      ],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DUCKDB_JE_MALLOC_CONF: conf } },
    );
  const unknown = probe('no_such_option:1');
  assert.equal(unknown.status, 0, unknown.stderr);
  assert.match(unknown.stderr, /<jemalloc>: Invalid conf pair: no_such_option:1/);
  const ours = probe(/DUCKDB_JE_MALLOC_CONF=(\S+)/.exec(start)![1]);
  assert.equal(ours.status, 0, ours.stderr);
  assert.doesNotMatch(ours.stderr, /<jemalloc>/);
});

test('this node accepts the flags of npm start', () => {
  const run = spawnSync(process.execPath, [...startFlags(), '-e', 'process.exit(0)'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  // --heap-growing-percent is one of the flags node refuses in NODE_OPTIONS: it only works on the command line.
  const viaEnv = spawnSync(process.execPath, ['-e', 'process.exit(0)'], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '--heap-growing-percent=20' },
  });
  assert.notEqual(viaEnv.status, 0);
});
