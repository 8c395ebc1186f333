// A DuckDB instance of our own (a load's staging reader, the embedded warehouse). An in-memory one
// spills into a folder of its own under the system's temporary directory, never into `.tmp` in the
// working directory, DuckDB's default for an in-memory database: a server's working directory is
// not its to write, and a checkout's build context picked the files up (docs/footprint.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

export interface OwnInstance {
  instance: DuckDBInstance;
  /** Closes the instance and removes its spill folder. */
  close(): void;
}

/**
 * Opens `file` (a path, or ':memory:') with `options`. A file's database spills beside it
 * (`<file>.tmp`, DuckDB's default); an in-memory one into a new folder removed by close().
 */
export async function openDuckDb(file: string, options: Record<string, string> = {}): Promise<OwnInstance> {
  const spill = file === ':memory:' ? fs.mkdtempSync(path.join(os.tmpdir(), 'insights-duckdb-')) : undefined;
  try {
    const instance = await DuckDBInstance.create(file, spill ? { ...options, temp_directory: spill } : options);
    return {
      instance,
      close() {
        instance.closeSync();
        if (spill) fs.rmSync(spill, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (spill) fs.rmSync(spill, { recursive: true, force: true });
    throw err;
  }
}
