// The data dir holds the system of record, the warehouse, the master key and uploads in flight:
// it and everything in it are its owner's only, 0700 for directories and 0600 for files. PGlite
// writes its initial cluster with mode 0666 whatever the umask, so existing files are put right at
// every start, and the process umask (077) makes every file it creates afterwards owner-only.
import fs from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/**
 * Makes the data dir and its contents owner-only, creating it unless told not to, and sets the
 * umask so that whatever this process creates from now on is owner-only too.
 */
export function restrictDataDir(dataDir: string, options: { create: boolean } = { create: true }): void {
  // Worker threads share the process's umask and may not set it; the main thread does at start.
  if (isMainThread) process.umask(0o077);
  if (!options.create && !fs.existsSync(dataDir)) return;
  fs.mkdirSync(dataDir, { recursive: true, mode: DIR_MODE });
  restrict(dataDir, fs.lstatSync(dataDir));
  const dirs = [dataDir];
  while (dirs.length > 0) {
    const dir = dirs.pop()!;
    for (const name of fs.readdirSync(dir)) {
      const entry = path.join(dir, name);
      let stat: fs.Stats;
      try {
        stat = fs.lstatSync(entry);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // gone meanwhile
        throw err;
      }
      // A symbolic link's own mode means nothing, and its target may lie outside the data dir.
      if (stat.isSymbolicLink()) continue;
      restrict(entry, stat);
      if (stat.isDirectory()) dirs.push(entry);
    }
  }
}

function restrict(entry: string, stat: fs.Stats): void {
  const mode = stat.isDirectory() ? DIR_MODE : FILE_MODE;
  if ((stat.mode & 0o7777) === mode) return;
  try {
    fs.chmodSync(entry, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new Error(`Could not make ${entry} accessible to its owner only (chmod ${mode.toString(8)}): ${(err as Error).message}`);
  }
}
