// A delivery worker in its own process, on the PostgreSQL schema of the test that spawned it, so
// the test can kill it with SIGKILL in the middle of a batch. Prints "claimed N" when it holds a
// batch; the parent decides when to kill it.
import fs from 'node:fs';
import { buildApp } from '../../src/app.ts';
import { EgressGuard } from '../../src/adapters/egress.ts';
import { loadConfig } from '../../src/config/index.ts';
import { PostgresDb } from '../../src/db/postgres.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { SecretBox } from '../../src/lib/secrets.ts';
import { testWarehouse } from './warehouse.ts';

const env = process.env;
const db = new PostgresDb(env.CHILD_DATABASE_URL!, { schema: env.CHILD_SCHEMA!, max: 4 });
const egress = new EgressGuard(['127.0.0.0/8'], { ca: fs.readFileSync(env.CHILD_CA_FILE!, 'utf8') });
const warehouse = await testWarehouse(new Date(), 500);
const app = await buildApp({
  config: loadConfig({ INSIGHTS_DATA_DIR: '/nonexistent-test-data-dir' }),
  db,
  clock: systemClock,
  secrets: new SecretBox(Buffer.from(env.CHILD_MASTER_KEY!, 'base64')),
  egress,
  warehouse,
  logger: false,
});
await app.ready();
const worker = app.services.deliveryWorker;
process.stdout.write('ready\n');
// One delivery at a time, a whole batch claimed up front: a kill lands with most of it claimed and unsent.
for (;;) {
  const out = await worker.runOnce(Number(env.CHILD_BATCH ?? 30), 1);
  if (out.length === 0) await new Promise((r) => setTimeout(r, 50));
}
