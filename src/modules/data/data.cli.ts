// `insights data load`: a data file into a warehouse table for one tenant, from the command line.
// The embedded warehouse belongs to one process, so this takes the data-dir lock (a running server
// makes it refuse; uploads then go through POST /api/v1/data/{table}).
import fs from 'node:fs';
import type { Config } from '../../config/index.ts';
import { lockDataDir, type DataDirLock } from '../../db/lock.ts';
import { need, options, UsageError } from '../../lib/cli-args.ts';
import { formatBytes, progressReporter } from '../../lib/progress.ts';
import { dataFileOf, LOAD_MODES, type DataFile, tableNameProblem, type LoadMode, type LoadProgress } from '../../warehouse/load.ts';
import { openWarehouse } from '../../warehouse/open.ts';
import { isTenantId } from './data.service.ts';

export async function dataCommand(config: Config, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'load') throw new UsageError('data needs load');
  const { values, positionals } = options(rest, ['table', 'file', 'tenant', 'mode']);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const table = need(values, 'table');
  const tableProblem = tableNameProblem(table);
  if (tableProblem) throw new UsageError(`--table ${tableProblem}`);
  const tenantId = need(values, 'tenant');
  if (!isTenantId(tenantId)) throw new UsageError('--tenant must be 1-100 characters of A-Z, a-z, 0-9, _, . and -');
  const mode = (values.mode ?? 'append') as LoadMode;
  if (!LOAD_MODES.includes(mode)) throw new UsageError('--mode must be append or replace');
  const path = need(values, 'file');
  let file: DataFile;
  try {
    file = dataFileOf(path);
  } catch (err) {
    throw new UsageError(`--file: ${(err as Error).message}`);
  }
  if (!fs.existsSync(path)) throw new UsageError(`--file ${path} does not exist`);
  const bytes = fs.statSync(path).size;

  let lock: DataDirLock | undefined;
  if (!config.warehouseUrl) lock = lockDataDir(config.dataDir);
  try {
    const warehouse = await openWarehouse(config);
    try {
      const progress = progressReporter();
      const labels: Record<LoadProgress['step'], string> = {
        reading: `Reading ${path} (${formatBytes(bytes)})`,
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
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      progress.done(
        `Loaded ${result.rowsLoaded.toLocaleString('en')} rows (${formatBytes(bytes)}) into ${table} for tenant ${tenantId} ` +
          `(${mode}${result.created ? ', table created' : ''}) in the ${warehouse.dialect} warehouse in ${seconds} s.`,
      );
    } finally {
      await warehouse.close();
    }
  } finally {
    lock?.release();
  }
}
