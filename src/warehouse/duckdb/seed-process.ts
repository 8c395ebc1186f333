// The child process of seedNewDuckDbInChild (first-seed.ts): argv = file, DuckDB settings (JSON),
// now (ISO). Prints what it generated as JSON on stdout.
import { demoModel } from '../../semantic/model.ts';
import { seedDemoIfEmpty } from '../demo/demo.ts';
import { DuckDbWarehouse } from './duckdb.ts';
import { RollupStore } from '../rollups/rollups.ts';

const [file, settings, now] = process.argv.slice(2);
const warehouse = await DuckDbWarehouse.open(file, JSON.parse(settings));
try {
  await warehouse.ensureTables(true);
  const seeded = await seedDemoIfEmpty(warehouse, new Date(now));
  // The demo model's rollups are built here too: built by the server at its start, their joins and
  // aggregations grew its DuckDB allocator for good (idle RSS 248 → 260–282 MB, peak 293 → 417–433 MB).
  // Built from this data with this model, the server finds them current and builds nothing.
  const rollups = seeded ? await new RollupStore(warehouse, demoModel().rollups).build() : [];
  process.stdout.write(
    JSON.stringify(
      seeded ? { ...seeded, rollups: rollups.map((b) => `${b.rollup} ${b.skipped ? `not built (${b.skipped})` : `${b.ms} ms`}`) } : null,
    ),
  );
} finally {
  await warehouse.close();
}
