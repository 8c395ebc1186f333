// `insights data load`: a data file into a warehouse table for one tenant. The embedded warehouse
// belongs to one process, so this takes the data-dir lock (a running server makes it refuse;
// uploads then go through POST /api/v1/data/{table}).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config/index.ts';
import { lockDataDir, type DataDirLock } from '../db/lock.ts';
import { formatBytes, progressReporter } from '../lib/progress.ts';
import type { DataFile, LoadMode, LoadProgress } from '../warehouse/load/rules.ts';
import { loadTenantData } from '../warehouse/tenant-load.ts';
import { openWarehouse } from '../warehouse/open.ts';
import { RollupStore } from '../warehouse/rollups/rollups.ts';
import { loadModel } from '../semantic/model.ts';
import { tenantColumns } from '../semantic/tenancy.ts';
import { isTenantId, TENANT_ID_RULE } from '../auth/context.ts';
import { parseDateFormat, parseDelimiter } from '../warehouse/load/formats.ts';
import { dataFileOf, LOAD_MODES, tableNameProblem } from '../warehouse/load/rules.ts';
import { need, options, UsageError, type Command } from './args.ts';

export interface FileLoad {
  table: string;
  file: DataFile;
  tenantId: string;
  mode: LoadMode;
}

/**
 * The file under a name DuckDB reads literally. Its readers take a path as a glob (`a*b.csv` reads
 * `aZZb.csv` too, `~/` is the home directory): a name with such characters is linked from a temp
 * directory under a plain one, and that is read.
 */
export function literalFile(file: DataFile): { file: DataFile; release(): void } {
  if (!/[*?[\]{}]|^~/.test(file.path)) return { file, release() {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-file-'));
  const gz = /\.(gz|gzip)$/i.test(file.path) ? '.gz' : '';
  const link = path.join(dir, `data.${file.format}${gz}`);
  fs.symlinkSync(path.resolve(file.path), link);
  return { file: { ...file, path: link }, release: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Loads the file, drawing progress on stderr and printing rows, size and time on stdout. */
export async function loadDataFile(config: Config, load: FileLoad): Promise<void> {
  const literal = literalFile(load.file);
  try {
    await loadLiteral(config, { ...load, file: literal.file }, load.file.path);
  } finally {
    literal.release();
  }
}

async function loadLiteral(config: Config, { table, file, tenantId, mode }: FileLoad, shownPath: string): Promise<void> {
  const bytes = fs.statSync(file.path).size;
  // Before anything is loaded: the model names the table's tenant column, and an invalid model
  // refuses the load rather than failing after its commit.
  const model = loadModel(config.modelPath);
  const tenantColumn = tenantColumns(model)(table);
  let lock: DataDirLock | undefined;
  if (!config.warehouseUrl) lock = lockDataDir(config.dataDir);
  try {
    const warehouse = await openWarehouse(config);
    try {
      const progress = progressReporter();
      const labels: Record<LoadProgress['step'], string> = {
        reading: `Reading ${shownPath} (${formatBytes(bytes)})`,
        loading: `Loading into ${table}`,
        sending: `Sending to ${warehouse.title}`,
        committing: 'Committing',
        refreshing: 'Refreshing rollups',
      };
      const started = Date.now();
      const {
        result,
        refreshed,
        read: columns,
      } = await loadTenantData(warehouse, new RollupStore(warehouse, model.rollups), {
        table,
        file,
        tenantId,
        tenantColumn,
        mode,
        exclusive: true,
        onProgress: (p) => {
          progress.step(labels[p.step]);
          if (p.fraction !== undefined) progress.update(p.fraction);
        },
      });
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
      // What the file was read as, so a date left as text or a number read as text shows at once.
      const width = Math.max(...columns.map((c) => c.name.length));
      const described = columns.map((c) => `  ${c.name.padEnd(width)}  ${c.type}${c.date_format ? `  (dates as ${c.date_format})` : ''}`);
      if (columns.length) console.log(`Columns:\n${described.join('\n')}`);
    } finally {
      await warehouse.close();
    }
  } finally {
    lock?.release();
  }
}

export const data: Command = async (config, args) => {
  const [sub, ...rest] = args;
  if (sub !== 'load') throw new UsageError('data needs load');
  const { values, positionals } = options(rest, ['table', 'file', 'tenant', 'mode', 'delimiter', 'date-format']);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const table = need(values, 'table');
  const tableProblem = tableNameProblem(table);
  if (tableProblem) throw new UsageError(`--table ${tableProblem}`);
  const tenantId = need(values, 'tenant');
  if (!isTenantId(tenantId)) throw new UsageError(`--tenant must be ${TENANT_ID_RULE}`);
  const mode = (values.mode ?? 'append') as LoadMode;
  if (!LOAD_MODES.includes(mode)) throw new UsageError('--mode must be append or replace');
  const path = need(values, 'file');
  let file: DataFile;
  try {
    file = dataFileOf(path);
  } catch (err) {
    throw new UsageError(`--file: ${(err as Error).message}`);
  }
  for (const [option, set] of [
    ['delimiter', (v: string) => (file.delimiter = parseDelimiter(v))],
    ['date-format', (v: string) => (file.dateFormat = parseDateFormat(v).format)],
  ] as const) {
    try {
      if (values[option] !== undefined) set(values[option]);
    } catch (err) {
      throw new UsageError(`--${option}: ${(err as Error).message}`);
    }
  }
  if (!fs.existsSync(path)) throw new UsageError(`--file ${path} does not exist`);
  await loadDataFile(config, { table, file, tenantId, mode });
};
