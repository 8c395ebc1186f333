// The work of `insights data load` (src/cli.ts parses its arguments): a data file into a warehouse
// table for one tenant. The embedded warehouse belongs to one process, so this takes the data-dir
// lock (a running server makes it refuse; uploads then go through POST /api/v1/data/{table}).
import fs from 'node:fs';
import type { Config } from '../../config/index.ts';
import { lockDataDir, type DataDirLock } from '../../db/lock.ts';
import { formatBytes, progressReporter } from '../../lib/progress.ts';
import type { DataFile, LoadMode, LoadProgress } from '../../warehouse/load.ts';
import { openWarehouse } from '../../warehouse/open.ts';
import { RollupStore } from '../../warehouse/rollups.ts';
import { loadModel } from '../../semantic/model.ts';

export interface FileLoad {
  table: string;
  file: DataFile;
  tenantId: string;
  mode: LoadMode;
}

/** Loads the file, drawing progress on stderr and printing rows, size and time on stdout. */
export async function loadDataFile(config: Config, { table, file, tenantId, mode }: FileLoad): Promise<void> {
  const bytes = fs.statSync(file.path).size;
  let lock: DataDirLock | undefined;
  if (!config.warehouseUrl) lock = lockDataDir(config.dataDir);
  try {
    const warehouse = await openWarehouse(config);
    try {
      const progress = progressReporter();
      const labels: Record<LoadProgress['step'], string> = {
        reading: `Reading ${file.path} (${formatBytes(bytes)})`,
        loading: `Loading into ${table}`,
        sending: 'Sending to PostgreSQL',
        committing: 'Committing',
      };
      const started = Date.now();
      const versionBefore = (await warehouse.version(tenantId)) ?? '';
      const result = await warehouse.load({
        table,
        file,
        tenantId,
        mode,
        exclusive: true,
        onProgress: (p) => {
          progress.step(labels[p.step]);
          if (p.fraction !== undefined) progress.update(p.fraction);
        },
      });
      progress.step('Refreshing rollups');
      const refreshed = await new RollupStore(warehouse, loadModel(config.modelPath).rollups).refreshAfterLoad({ table, tenantId, mode, timeRanges: result.timeRanges, versionBefore });
      const done = refreshed.filter((r) => r.tenants.length);
      const notDone = refreshed.filter((r) => !r.tenants.length);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      progress.done(
        `Loaded ${result.rowsLoaded.toLocaleString('en')} rows (${formatBytes(bytes)}) into ${table} for tenant ${tenantId} ` +
          `(${mode}${result.created ? ', table created' : ''}) in the ${warehouse.dialect} warehouse in ${seconds} s.` +
          (done.length ? ` Rollups refreshed: ${done.map((r) => `${r.rollup} (${r.ms} ms)`).join(', ')}.` : '') +
          // The load stands; a rollup not refreshed answers from the raw rows until `insights rollups build`.
          notDone.map((r) => ` Rollup ${r.rollup} not refreshed: ${r.failed ?? r.left_out?.map((x) => x.problem).join('; ')}.`).join(''),
      );
    } finally {
      await warehouse.close();
    }
  } finally {
    lock?.release();
  }
}
