// `insights model check|init`: validate a model against the warehouse, or write a starter model
// from loaded tables (src/semantic/starter.ts).
import fs from 'node:fs';
import nodePath from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config/index.ts';
import { systemClock } from '../lib/clock.ts';
import { progressReporter } from '../lib/progress.ts';
import { openRuntime } from '../runtime.ts';
import { loadModel } from '../semantic/model.ts';
import { tenantColumns } from '../semantic/tenancy.ts';
import { openWarehouse } from '../warehouse/open.ts';
import { options, UsageError, type Command } from './args.ts';
import { withWarehouse } from './open.ts';

export const model: Command = async (config, args) => {
  const [sub, ...rest] = args;
  if (sub === 'init') return modelInit(config, rest);
  if (sub !== 'check') throw new UsageError('model needs check or init');
  const { values } = options(rest, ['model']);
  const { runModelCheck } = await import('../semantic/model-check.ts');
  // The system of record, when one exists: an embedded one not created yet has nothing to check.
  const openRecords = async () =>
    config.databaseUrl || fs.existsSync(nodePath.join(config.dataDir, 'pgdata')) ? openRuntime(config) : undefined;
  process.exitCode = await runModelCheck(
    values.model ?? config.modelPath,
    () => openWarehouse(config),
    { out: (line) => console.log(line), err: (line) => console.error(line) },
    openRecords,
  );
};

const parseModelInitArgs = (args: string[]) =>
  parseArgs({ args, options: { table: { type: 'string', multiple: true }, out: { type: 'string' } }, strict: true });

/** `insights model init`: a starter model from loaded tables (src/semantic/starter.ts). */
async function modelInit(config: Config, args: string[]): Promise<void> {
  let parsed: ReturnType<typeof parseModelInitArgs>;
  try {
    parsed = parseModelInitArgs(args);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const tables = (parsed.values.table ?? []).map((t) => t.trim()).filter(Boolean);
  if (!tables.length) throw new UsageError('--table is required (once per table: --table sales --table customers)');
  const out = parsed.values.out;
  if (out && fs.existsSync(out)) throw new UsageError(`--out ${out} exists; name a new file (the starter model never overwrites one)`);
  const { profileTable, starterModel } = await import('../semantic/starter.ts');
  // The tables' tenant columns as the configured model names them (tenant_id where it names none).
  let tenantColumnOf: ReturnType<typeof tenantColumns> | undefined;
  try {
    tenantColumnOf = tenantColumns(loadModel(config.modelPath));
  } catch {
    tenantColumnOf = undefined;
  }
  await withWarehouse(config, async (warehouse) => {
    const loaded = await warehouse.tables(tenantColumnOf);
    const progress = progressReporter();
    const profiles = [];
    for (const name of tables) {
      const table = loaded.find((t) => t.name === name);
      if (!table) {
        const names = loaded.map((t) => t.name);
        throw new UsageError(
          `--table ${name}: no such table in the ${warehouse.dialect} warehouse ` +
            `(${names.length ? `loaded: ${names.join(', ')}` : 'load one first: insights data load --table … --file …'})`,
        );
      }
      progress.step(`Reading ${name}`);
      profiles.push(await profileTable(warehouse, { name, columns: table.columns, tenantColumn: table.tenantColumn }));
    }
    const { yaml, model, notes } = starterModel(profiles, systemClock.now().toISOString().slice(0, 10));
    if (out) fs.writeFileSync(out, yaml, { flag: 'wx' });
    else process.stdout.write(yaml);
    for (const n of notes) process.stderr.write(`note: ${n}\n`);
    const counts = `${model.cubes?.length} cube${model.cubes?.length === 1 ? '' : 's'}, ${model.insights?.length} insights`;
    if (out) progress.done(`Wrote ${out} (${counts}). Check it with: insights model check --model ${out}`);
  });
}
