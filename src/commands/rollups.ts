// `insights rollups build|status`: the model's rollups, built now or described (docs/rollups.md).
import { loadModel } from '../semantic/model.ts';
import { RollupStore } from '../warehouse/rollups/rollups.ts';
import { options, UsageError, type Command } from './args.ts';
import { withWarehouse } from './open.ts';

export const rollups: Command = async (config, args) => {
  const [sub, ...rest] = args;
  if (sub !== 'build' && sub !== 'status') throw new UsageError('rollups needs build or status');
  const { values } = options(rest, sub === 'build' ? ['rollup'] : []);
  const model = loadModel(config.modelPath);
  if (values.rollup && !model.rollups.some((r) => r.id === values.rollup || r.name === values.rollup)) {
    throw new UsageError(
      `--rollup: the model has no rollup ${values.rollup} (it has: ${model.rollups.map((r) => r.id).join(', ') || 'none'})`,
    );
  }
  await withWarehouse(config, async (warehouse) => {
    const store = new RollupStore(warehouse, model.rollups);
    if (sub === 'build') {
      if (!model.rollups.length) return void console.log('The model declares no rollups (pre_aggregations).');
      for (const b of await store.build(values.rollup ? [values.rollup] : undefined)) {
        if (b.failed) {
          console.log(`${b.rollup}: failed: ${b.failed}`);
          process.exitCode = 1;
          continue;
        }
        console.log(
          b.skipped
            ? `${b.rollup}: not built, ${b.skipped}`
            : `${b.rollup}: built for ${b.tenants.length} tenant${b.tenants.length === 1 ? '' : 's'} in ${(b.ms / 1000).toFixed(1)} s`,
        );
        for (const x of b.left_out ?? []) console.log(`  ${x.tenant}: left out, ${x.problem}`);
      }
    } else {
      for (const r of await store.status()) {
        console.log(
          `${r.rollup} (${r.table}, ${r.granularity}${r.partition_granularity ? `, partitions by ${r.partition_granularity}` : ''})`,
        );
        if (!r.tenants.length) console.log('  not built');
        for (const t of r.tenants)
          console.log(
            `  ${t.tenant}: ${t.rows.toLocaleString('en')} rows, built ${t.built_at}, ` +
              `${t.current ? 'current' : 'outdated (the raw rows answer until it is rebuilt)'}`,
          );
        for (const p of r.problems)
          console.log(
            `  ${p.tenant || 'every tenant'}: problem (${p.attempts} attempt${p.attempts === 1 ? '' : 's'}, last ` +
              `${p.failed_at}): ${p.problem}`,
          );
      }
    }
  });
};
