// Opens the warehouse a process uses: PostgreSQL when WAREHOUSE_URL is set, else the DuckDB file
// <data dir>/warehouse.duckdb. The tables are created when missing, so queries on an unseeded
// warehouse return no rows rather than failing.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/index.ts';
import { firstContact } from '../lib/startup.ts';
import { DuckDbWarehouse } from './duckdb.ts';
import { PostgresWarehouse } from './postgres.ts';
import { warehouseDdl, type Warehouse } from './warehouse.ts';

export class WarehouseLockedError extends Error {}

/** The embedded warehouse's file. */
export function duckDbFile(config: Config): string {
  return path.join(config.dataDir, 'warehouse.duckdb');
}

export async function openWarehouse(config: Config): Promise<Warehouse> {
  let warehouse: Warehouse;
  if (config.warehouseUrl) {
    const url = config.warehouseUrl;
    warehouse = await firstContact('WAREHOUSE_URL', url, async () => {
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
    await warehouse.exec(warehouseDdl(warehouse.dialect));
  } catch (err) {
    await warehouse.close().catch(() => {});
    throw err;
  }
  return warehouse;
}
