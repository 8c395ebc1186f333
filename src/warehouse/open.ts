// Opens the warehouse a process uses: PostgreSQL or ClickHouse when WAREHOUSE_URL is set, else the
// DuckDB file <data dir>/warehouse.duckdb. On the demo model the demo's tables are created when
// missing, so queries on an unseeded warehouse return no rows rather than failing; on a model of
// the user's own (INSIGHTS_MODEL) only the service's own table is: every other name is theirs.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/index.ts';
import { firstContact, StartupError, where } from '../lib/startup.ts';
import type { ClickHouseWarehouse } from './clickhouse/clickhouse.ts';
import { DuckDbWarehouse } from './duckdb/duckdb.ts';
import { seedNewDuckDbInChild, type FirstSeed } from './duckdb/first-seed.ts';
import type { Warehouse } from './warehouse.ts';
import { DEMO_MODEL_PATH } from '../semantic/load.ts';

export class WarehouseLockedError extends Error {}

/** Whether the process runs on the demo shop's model: no INSIGHTS_MODEL, or the demo's own file. */
export function onDemoModel(config: Pick<Config, 'modelPath'>): boolean {
  return !config.modelPath || path.resolve(config.modelPath) === path.resolve(DEMO_MODEL_PATH);
}

/** The embedded warehouse's file. */
export function duckDbFile(config: Config): string {
  return path.join(config.dataDir, 'warehouse.duckdb');
}

/**
 * The first start of the embedded warehouse on the demo model: a new DuckDB file is seeded by a
 * child process, so the serving one never holds the seed's memory. Undefined (nothing done) with
 * WAREHOUSE_URL, on a model of the user's own, or when the file exists.
 */
export function seedNewEmbedded(config: Config, now: Date): Promise<FirstSeed | undefined> {
  if (config.warehouseUrl || !onDemoModel(config)) return Promise.resolve(undefined);
  return seedNewDuckDbInChild(duckDbFile(config), config.duckdb, now);
}

export async function openWarehouse(config: Config): Promise<Warehouse> {
  let warehouse: Warehouse;
  if (config.warehouseUrl) {
    const url = config.warehouseUrl;
    warehouse = await firstContact('WAREHOUSE_URL', url, async () => {
      if (!/^postgres(ql)?:/.test(url)) return openClickHouse(url, config.clickhouseCluster);
      // Each engine's client is loaded only when it is the one configured (docs/footprint.md).
      const { PostgresWarehouse } = await import('./postgres/postgres.ts');
      const pg = new PostgresWarehouse(url);
      try {
        await pg.exec('SELECT 1');
        return pg;
      } catch (err) {
        void pg.close().catch(() => {});
        throw err;
      }
    });
  } else {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const file = duckDbFile(config);
    try {
      warehouse = await DuckDbWarehouse.open(file, config.duckdb);
    } catch (err) {
      // DuckDB holds its own lock on the file: another process (a running server) has it open.
      if (/lock/i.test(String((err as Error).message))) {
        throw new WarehouseLockedError(`The warehouse ${file} is in use by another process. Stop the running server first.`);
      }
      throw err;
    }
  }
  try {
    await warehouse.ensureTables(onDemoModel(config));
  } catch (err) {
    await warehouse.close().catch(() => {});
    throw err;
  }
  return warehouse;
}

/** A ClickHouse server (or cluster) answering as the URL says: reachable, credentials and database right. */
async function openClickHouse(url: string, cluster?: string): Promise<ClickHouseWarehouse> {
  const { ClickHouseWarehouse } = await import('./clickhouse/clickhouse.ts');
  const ch = new ClickHouseWarehouse(url, { cluster });
  try {
    await ch.query('SELECT 1 FROM system.one');
    if (cluster) {
      const [row] = await ch.query('SELECT count() AS n FROM system.clusters WHERE cluster = $1', [cluster]);
      if (!Number(row?.n))
        throw new StartupError(
          'INSIGHTS_CLICKHOUSE_CLUSTER',
          `the ClickHouse server at ${where(url)} knows no cluster "${cluster}" (see system.clusters)`,
        );
    }
    return ch;
  } catch (err) {
    void ch.close().catch(() => {});
    throw err;
  }
}
