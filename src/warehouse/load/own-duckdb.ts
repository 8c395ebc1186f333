// A DuckDB instance of our own (a load's staging reader, the embedded warehouse). An in-memory one
// spills into a folder of its own inside this process's temp directory (src/lib/temp-dir.ts:
// owner-only, removed at exit, swept at the next start after a crash, its path never shown to a
// caller), never into `.tmp` in the working directory, DuckDB's default for an in-memory
// database: a server's working directory is not its to write, and a checkout's build context
// picked the files up (docs/footprint.md).
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { processTempDir } from '../../lib/temp-dir.ts';

export interface OwnInstance {
  instance: DuckDBInstance;
  /** Closes the instance and removes its spill folder; a second call does nothing. */
  close(): void;
}

/**
 * Opens `file` (a path, or ':memory:') with `options`. A file's database spills beside it
 * (`<file>.tmp`, DuckDB's default); an in-memory one into a new folder removed by close().
 */
export async function openDuckDb(file: string, options: Record<string, string> = {}): Promise<OwnInstance> {
  const spill = file === ':memory:' ? fs.mkdtempSync(path.join(processTempDir(), 'duckdb-')) : undefined;
  const removeSpill = () => {
    if (spill) fs.rmSync(spill, { recursive: true, force: true });
  };
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(file, spill ? { ...options, temp_directory: spill } : options);
  } catch (err) {
    removeSpill();
    throw err;
  }
  let closed = false;
  return {
    instance,
    close() {
      if (closed) return;
      closed = true;
      try {
        instance.closeSync();
      } finally {
        removeSpill();
      }
    },
  };
}
