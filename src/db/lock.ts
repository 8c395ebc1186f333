// The embedded database belongs to one process. The lock on the data dir is the operating
// system's: an exclusive lock on insights.lock (an open-file-description lock on Linux, flock on
// macOS, LockFileEx on Windows, through fs-native-extensions) that the kernel drops when the
// process dies, however it dies. A pid check could not tell a dead owner from a live one in
// another container or a zombie not yet reaped; docs/security.md "The data-dir lock" says why.
import fs from 'node:fs';
import path from 'node:path';
import { tryLock } from 'fs-native-extensions';
import { restrictDataDir } from './data-dir.ts';

export class DataDirLockedError extends Error {
  constructor(
    public readonly dataDir: string,
    public readonly pid: number | undefined,
  ) {
    super(
      `The data directory ${dataDir} is in use by another process${pid ? ` (pid ${pid})` : ''}. ` +
        'Stop the running server first, or use the HTTP API while it runs.',
    );
  }
}

export interface DataDirLock {
  release(): void;
}

/** The pid the holder wrote, when there is one: for the message only, never for the decision. */
function holderPid(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Locks the data dir for this process, then makes it owner-only; or throws DataDirLockedError. */
export function lockDataDir(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'insights.lock');
  // The file stays when the lock is released: unlinking it would let a process that opened the
  // old file and one that creates a new one both hold "the" lock.
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
  let locked: boolean;
  try {
    locked = tryLock(fd);
  } catch (err) {
    fs.closeSync(fd);
    throw new Error(
      `Could not lock the data directory ${dataDir} (${(err as Error).message}); it must be on a file system that supports file locks.`,
    );
  }
  if (!locked) {
    fs.closeSync(fd);
    throw new DataDirLockedError(dataDir, holderPid(file));
  }
  fs.ftruncateSync(fd, 0);
  fs.writeSync(fd, `${process.pid}\n`, 0);
  // Only the holder touches the modes of what is inside.
  try {
    restrictDataDir(dataDir);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // Closing the only descriptor of the open file drops the lock.
      fs.closeSync(fd);
    },
  };
}
