// The change feeds behind the in-memory caches (api_tokens, dashboards, ai_connectors): on one
// PostgreSQL database, a listener acts on its own schema's changes only. NOTIFY channels belong to
// the whole database, so before migration 764 every schema's change emptied every schema's caches;
// the suite's files (a schema each) then made "answered from memory" fail now and then.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshDb, usingPostgres } from '../helpers/db.ts';

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('a listener hears its own schema’s changes, not another schema’s on the same database', {
  skip: !usingPostgres && 'needs DATABASE_URL (PGlite is one process, one schema)',
}, async () => {
  const a = await freshDb();
  const b = await freshDb();
  const heard = { a: 0, b: 0 };
  const listening = [await a.db.listen('insights_dashboards', () => heard.a++), await b.db.listen('insights_dashboards', () => heard.b++)];
  try {
    // A subscription announces itself once as it becomes live (changes before it were unseen).
    heard.a = 0;
    heard.b = 0;
    await a.db.query('DELETE FROM dashboards WHERE false');
    await until(() => heard.a === 1, "a's own change");
    await b.db.query('DELETE FROM dashboards WHERE false');
    await until(() => heard.b >= 1, "b's own change");
    // Both announcements have long arrived by now: a listener taking every schema's counts two.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(heard.b, 1, "b heard only its own schema's change");
    assert.equal(heard.a, 1, "a did not hear b's");
  } finally {
    for (const l of listening) await l.close();
    await a.close();
    await b.close();
  }
});

test('the dashboards’ row feed names the rows of its own schema’s change, and nothing of another schema', {
  skip: !usingPostgres && 'needs DATABASE_URL (PGlite is one process, one schema)',
}, async () => {
  const a = await freshDb();
  const b = await freshDb();
  const heard: { a: (string | undefined)[]; b: (string | undefined)[] } = { a: [], b: [] };
  const listening = [
    await a.db.listen('insights_dashboard_rows', (p) => heard.a.push(p)),
    await b.db.listen('insights_dashboard_rows', (p) => heard.b.push(p)),
  ];
  try {
    heard.a.length = 0;
    heard.b.length = 0;
    await a.db.query(
      `INSERT INTO dashboards (id, tenant_id, name, created_by, created_by_name, is_shared, shared_with_emails, widget_ids, global_filter_presets, created_at, updated_at)
       VALUES ('d1', 'acme', 'One', 'ann', 'ann', false, '{}', '{}', '[]', now(), now())`,
    );
    await a.db.query(`UPDATE dashboards SET widget_ids = '{w1}' WHERE id = 'd1'`);
    await a.db.query(`UPDATE dashboards SET is_shared = true WHERE id = 'd1'`);
    await a.db.query(`UPDATE dashboards SET name = 'none' WHERE false`);
    await until(() => heard.a.length >= 3, "a's three changes");
    await new Promise((r) => setTimeout(r, 300));
    const rows = heard.a.map((p) => p!.slice(p!.indexOf('\t') + 1));
    assert.deepEqual(
      rows,
      ['[["acme", "d1", true]]', '[["acme", "d1", false]]', '[["acme", "d1", true]]'],
      'a statement that changed nothing says nothing',
    );
    assert.ok(
      heard.a.every((p) => p!.startsWith(`${a.schema}\t`)),
      String(heard.a),
    );
    assert.deepEqual(heard.b, [], "b heard nothing of a's schema");
    // Moved to another tenant and given another id in one statement: named as it is and as it was.
    heard.a.length = 0;
    await a.db.query(`UPDATE dashboards SET tenant_id = 'globex', id = 'd2' WHERE id = 'd1'`);
    await until(() => heard.a.length >= 1, 'the move');
    const moved = JSON.parse(heard.a[0]!.slice(heard.a[0]!.indexOf('\t') + 1)) as unknown[];
    assert.deepEqual(moved.map((r) => JSON.stringify(r)).sort(), ['["acme","d1",true]', '["globex","d2",true]']);
  } finally {
    for (const l of listening) await l.close();
    await a.close();
    await b.close();
  }
});
