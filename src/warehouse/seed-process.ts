// The child process of seedNewDuckDbInChild (first-seed.ts): argv = file, DuckDB settings (JSON),
// now (ISO). Prints what it generated as JSON on stdout.
import { seedDemoIfEmpty } from './demo.ts';
import { DuckDbWarehouse } from './duckdb.ts';
import { warehouseDdl } from './warehouse.ts';

const [file, settings, now] = process.argv.slice(2);
const warehouse = await DuckDbWarehouse.open(file, JSON.parse(settings));
try {
  await warehouse.exec(warehouseDdl('duckdb'));
  process.stdout.write(JSON.stringify((await seedDemoIfEmpty(warehouse, new Date(now))) ?? null));
} finally {
  await warehouse.close();
}
