// What the tests of the examples over vega-datasets share: a fresh data dir, the files loaded by
// the CLI as a user would, the server started on the example's model, and the calls a user makes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { migratedDataDir, ROOT, runCli, startServer, type CliResult, type RunningServer } from '../helpers/process.ts';

/** The vega-datasets files, installed as a dev dependency (never copied into the repo). */
export const VEGA = path.join(ROOT, 'node_modules/vega-datasets/data');

export interface Example {
  dir: string;
  model: string;
  server?: RunningServer;
  auth: Record<string, string>;
  loads: CliResult[];
}

/** Checks the model, loads each [table, file] through the CLI into a fresh data dir. */
export async function loadExample(name: string, files: [table: string, file: string][]): Promise<Example> {
  const dir = await migratedDataDir(`insights-example-${name}-`);
  const model = path.join(ROOT, 'examples', name, 'model.yml');
  const env = { INSIGHTS_DATA_DIR: dir, INSIGHTS_MODEL: model };
  const loads: CliResult[] = [];
  for (const [table, file] of files) {
    const res = await runCli(['data', 'load', '--table', table, '--file', path.join(VEGA, file), '--tenant', 'demo'], env, 180_000);
    assert.equal(res.code, 0, res.stderr);
    loads.push(res);
  }
  const check = await runCli(['model', 'check'], env);
  assert.equal(check.code, 0, check.stderr);
  assert.doesNotMatch(check.stderr, /warning/, check.stderr);
  return { dir, model, auth: {}, loads };
}

export async function startExample(example: Example): Promise<void> {
  example.server = await startServer(example.dir, 90_000, { INSIGHTS_MODEL: example.model });
  const token = /owner token for tenant "demo" \(shown once, keep it\):\n\n {2}(\S+)/.exec(example.server.output())?.[1];
  assert.ok(token, example.server.output());
  example.auth = { authorization: `Svc ${token}` };
}

export async function stopExample(example: Example | undefined): Promise<void> {
  if (!example) return;
  if (example.server) {
    example.server.child.kill('SIGTERM');
    await example.server.exited;
  }
  fs.rmSync(example.dir, { recursive: true, force: true });
}

export type Row = Record<string, unknown>;

/** GET an insight's execute: its rows. */
export async function execute(example: Example, code: string, query: string): Promise<Row[]> {
  const res = await fetch(`${example.server!.url}/api/v1/insights/${code}/execute?${query}`, { headers: example.auth });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { data: { rows: Row[] } }).data.rows;
}

/** Runs SQL on an in-memory DuckDB of the test's own: the figures the service's must equal. */
export async function duck<T = Row>(sql: string): Promise<T[]> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJson() as T[];
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

export const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;

/** Sums `value` per `key` over rows. */
export function sumBy<T>(rows: T[], key: (r: T) => string | null, value: (r: T) => number): Map<string | null, number> {
  const out = new Map<string | null, number>();
  for (const r of rows) out.set(key(r), (out.get(key(r)) ?? 0) + value(r));
  return out;
}
