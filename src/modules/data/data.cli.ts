// The work of `insights data load` (src/cli.ts parses its arguments): a data file into a warehouse
// table for one tenant. The embedded warehouse belongs to one process, so this takes the data-dir
// lock (a running server makes it refuse; uploads then go through POST /api/v1/data/{table}).
import fs from 'node:fs';
import type { Config } from '../../config/index.ts';
import { lockDataDir, type DataDirLock } from '../../db/lock.ts';
import { formatBytes, progressReporter } from '../../lib/progress.ts';
import type { DataFile, LoadMode, LoadProgress } from '../../warehouse/load.ts';
import { fileColumns } from '../../warehouse/load-reader.ts';
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
      const refreshed = await new RollupStore(warehouse, loadModel(config.modelPath).rollups).refreshAfterLoad({ table, tenantId, mode, timeRanges: result.timeRanges });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const columns = fileColumns(file);
      progress.done(
        `Loaded ${result.rowsLoaded.toLocaleString('en')} rows (${formatBytes(bytes)}) into ${table} for tenant ${tenantId} ` +
          `(${mode}${result.created ? ', table created' : ''}) in the ${warehouse.dialect} warehouse in ${seconds} s.` +
          (refreshed.length ? ` Rollups refreshed: ${refreshed.map((r) => `${r.rollup} (${r.ms} ms)`).join(', ')}.` : ''),
      );
      // What the file was read as, so a date left as text or a number read as text shows at once.
      const width = Math.max(...columns.map((c) => c.name.length));
      if (columns.length) console.log(`Columns:\n${columns.map((c) => `  ${c.name.padEnd(width)}  ${c.type}${c.date_format ? `  (dates as ${c.date_format})` : ''}`).join('\n')}`);
    } finally {
      await warehouse.close();
    }
  } finally {
    lock?.release();
  }
}
