// The temp files of a process (upload bodies, staged rows for PostgreSQL and ClickHouse) live in a
// directory of its own under os.tmpdir(), `insights-tmp-*`, that it holds an OS file lock on for
// as long as it lives. The kernel drops the lock when the process dies, however it dies, so a
// start can tell a crashed process's leftovers (lock free: removed) from a running one's (lock
// held: kept), with no pid check (docs/security.md "Temp files").
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tryLock } from 'fs-native-extensions';

const PREFIX = 'insights-tmp-';
const LOCK = '.lock';

let current: { root: string; dir: string } | undefined;

/** This process's temp directory (made, owner-only and locked, on first use). */
export function processTempDir(): string {
  const root = os.tmpdir();
  if (current?.root === root && fs.existsSync(current.dir)) return current.dir;
  const dir = fs.mkdtempSync(path.join(root, `${PREFIX}${process.pid}-`));
  fs.chmodSync(dir, 0o700);
  // Never closed: the lock lasts as long as the process.
  const fd = fs.openSync(path.join(dir, LOCK), fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
  if (!tryLock(fd)) throw new Error(`Could not lock the temp directory ${dir}.`);
  current = { root, dir };
  // A clean exit takes its directory along; after a crash the next start's sweep does.
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A new file name in this process's temp directory. */
export function tempFile(prefix: string, ext: string): string {
  return path.join(processTempDir(), `${prefix}-${crypto.randomUUID()}.${ext}`);
}

/**
 * Removes the temp directories that processes which died left under os.tmpdir() (their lock is
 * free), never one whose process lives. Answers how many were removed; never throws.
 */
export function sweepTempDirs(root = os.tmpdir()): number {
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(root).filter((n) => n.startsWith(PREFIX));
  } catch {
    return 0;
  }
  for (const name of names) {
    const dir = path.join(root, name);
    if (dir === current?.dir) continue;
    let fd: number | undefined;
    try {
      fd = fs.openSync(path.join(dir, LOCK), fs.constants.O_RDWR);
      if (!tryLock(fd)) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      removed++;
    } catch {
      // Not ours to judge (no lock file, another user's, gone meanwhile): left alone.
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }
  return removed;
}
