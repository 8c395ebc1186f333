// What the commands open, each for the length of one command: the system of record (its data-dir
// lock taken by openRuntime) or the warehouse (the embedded one locked to this process alone).
import type { Config } from '../config/index.ts';
import { lockDataDir, type DataDirLock } from '../db/lock.ts';
import type { TokensService } from '../modules/tokens/tokens.service.ts';
import { openRuntime } from '../runtime.ts';
import { openWarehouse, WarehouseLockedError } from '../warehouse/open.ts';
import type { Warehouse } from '../warehouse/warehouse.ts';
import { UsageError } from './args.ts';

export async function withTokens<T>(config: Config, fn: (tokens: TokensService) => Promise<T>): Promise<T> {
  const runtime = await openRuntime(config);
  try {
    return await fn(runtime.tokens);
  } finally {
    await runtime.close();
  }
}

/** The warehouse to this process alone (the data-dir lock for the embedded one), closed after `fn`. */
export async function withWarehouse(config: Config, fn: (warehouse: Warehouse) => Promise<void>): Promise<void> {
  let lock: DataDirLock | undefined;
  if (!config.warehouseUrl) lock = lockDataDir(config.dataDir);
  try {
    const warehouse = await openWarehouse(config).catch((err) => {
      throw err instanceof WarehouseLockedError ? new UsageError(err.message) : err;
    });
    try {
      await fn(warehouse);
    } finally {
      await warehouse.close();
    }
  } finally {
    lock?.release();
  }
}
