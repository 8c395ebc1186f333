// The first start's demo data, generated in a short-lived child process. DuckDB's allocator and
// buffer pool grow to the seed's size while it runs and do not give all of it back; in a child
// that memory ends with the child, so the serving process never holds it (docs/footprint.md).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DuckDbSettings } from './duckdb.ts';

export interface FirstSeed {
  rows: number;
  tenants: string[];
  ms: number;
  /** The demo model's rollups built from it, as `id time` (docs/rollups.md). */
  rollups?: string[];
}

const HERE = fileURLToPath(import.meta.url);
// dist/ runs as JavaScript; src/ (tests, `npm run dev`) needs tsx in the child too.
const CHILD = path.join(path.dirname(HERE), `seed-process${path.extname(HERE)}`);
const LOADER = path.extname(HERE) === '.ts' ? ['--import', import.meta.resolve('tsx')] : [];

/**
 * Seeds a DuckDB warehouse file that does not exist yet, in a child process; resolves with what it
 * generated. An existing file is left alone (undefined): the caller's seedDemoIfEmpty covers an
 * existing but empty one.
 */
export function seedNewDuckDbInChild(file: string, settings: DuckDbSettings, now: Date): Promise<FirstSeed | undefined> {
  if (fs.existsSync(file)) return Promise.resolve(undefined);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...LOADER, CHILD, file, JSON.stringify(settings), now.toISOString()], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) return resolve((JSON.parse(stdout) as FirstSeed | null) ?? undefined);
      // A half-written file would look seeded to the next start.
      fs.rmSync(file, { force: true });
      fs.rmSync(`${file}.wal`, { force: true });
      reject(new Error(`Generating the demo warehouse in ${file} failed: ${stderr.trim() || `exit code ${code}`}`));
    });
  });
}
