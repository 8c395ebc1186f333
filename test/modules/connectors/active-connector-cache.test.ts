// Each tenant's active AI connector is read from memory until ai_connectors changes
// (ConnectorsRepository, src/db/change-cache.ts, migration 731): chat asks for it on every question.
// Every change — saved, switched off, deleted, edited by hand in SQL — is seen by the next read.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Db } from '../../../src/db/index.ts';
import { migrate } from '../../../src/db/migrate.ts';
import { ConnectorsRepository, type ConnectorRecord } from '../../../src/modules/connectors/connectors.repository.ts';
import { freshDb, usingPostgres } from '../../helpers/db.ts';

let db: Db;
let close: () => Promise<void>;
let repo: ConnectorsRepository;
let reads = 0;

before(async () => {
  ({ db, close } = await freshDb());
  await migrate(db);
  const query = db.query.bind(db);
  db.query = ((sql: string, params?: unknown[]) => {
    if (sql.includes('FROM ai_connectors WHERE tenant_id = $1 AND is_active')) reads++;
    return query(sql, params);
  }) as Db['query'];
  repo = new ConnectorsRepository(db);
  await repo.cacheReads((onChange) => db.listen('insights_ai_connectors', onChange));
});
after(async () => {
  await repo.stopCaching();
  await close();
});

const record = (provider: ConnectorRecord['provider']): ConnectorRecord => ({
  tenant_id: 'acme',
  provider,
  api_key_sealed: 'sealed',
  api_key_masked: 'sk-…abcd',
  model: null,
  base_url: null,
  is_active: true,
  created_at: new Date(),
  updated_at: new Date(),
});

/** PGlite announces before the statement returns; PostgreSQL a network hop after the commit: retried for up to 2 s. */
async function seen(ok: (r: ConnectorRecord | undefined) => boolean): Promise<ConnectorRecord | undefined> {
  let r = await repo.findActive('acme');
  const until = Date.now() + 2000;
  while (usingPostgres && !ok(r) && Date.now() < until) {
    await new Promise((res) => setTimeout(res, 5));
    r = await repo.findActive('acme');
  }
  return r;
}

test('the active connector is read once, and every change is seen by the next read', async () => {
  assert.equal(await repo.findActive('acme'), undefined);
  if (usingPostgres) await new Promise((r) => setTimeout(r, 300)); // the migration's own announcements
  const before = reads;
  for (let i = 0; i < 3; i++) assert.equal(await repo.findActive('acme'), undefined);
  assert.ok(reads - before <= 1, `${reads - before} reads`);

  await repo.saveActive(record('vendor_a'));
  assert.equal((await repo.findActive('acme'))?.provider, 'vendor_a', 'own write, at once');
  const copy = await repo.findActive('acme');
  copy!.provider = 'vendor_b';
  assert.equal((await repo.findActive('acme'))?.provider, 'vendor_a', 'hits are copies');

  await repo.saveActive(record('vendor_b'));
  assert.equal((await repo.findActive('acme'))?.provider, 'vendor_b');
  await repo.setActive('acme', 'vendor_b', false, new Date());
  assert.equal(await repo.findActive('acme'), undefined);

  await db.query(`UPDATE ai_connectors SET is_active = true WHERE tenant_id = 'acme' AND provider = 'vendor_a'`);
  assert.equal((await seen((r) => r?.provider === 'vendor_a'))?.provider, 'vendor_a', 'an edit by hand');
  assert.equal(await repo.delete('acme', 'vendor_a'), true);
  assert.equal(await repo.findActive('acme'), undefined);
});
