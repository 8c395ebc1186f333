// Dashboards are read from memory until a change may have touched them (DashboardsRepository,
// src/db/change-cache.ts): a repeated list or read costs no query, and every change — through the
// API, a widget added or removed (widget_ids), an edit by hand in SQL, and on PostgreSQL one made by
// another instance — is seen by the very next read. A change forgets only what it may have touched
// (migration 765 names the rows): the dashboard's own read, its tenant's lists that hold it, and
// every list of its tenant when it may have entered or left one; other tenants' reads stay.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../../src/app.ts';
import { announcedRows } from '../../../src/modules/dashboards/dashboards.repository.ts';
import { loadConfig } from '../../../src/config/index.ts';
import type { Db } from '../../../src/db/index.ts';
import { PostgresDb } from '../../../src/db/postgres.ts';
import { SecretBox } from '../../../src/lib/secrets.ts';
import { buildTestApp, call, JWT_SECRET, type TestApp } from '../../helpers/app.ts';
import { freshDb, usingPostgres } from '../../helpers/db.ts';
import { testWarehouse } from '../../helpers/warehouse.ts';

/** Counts the reads of the dashboards table the app sends to its database. */
function countingReads(db: Db): { count: () => number } {
  let n = 0;
  const query = db.query.bind(db);
  db.query = ((sql: string, params?: unknown[]) => {
    if (/FROM dashboards\s+WHERE/.test(sql) && !sql.includes('FOR UPDATE')) n++;
    return query(sql, params);
  }) as Db['query'];
  return { count: () => n };
}

/** PGlite announces a change before the statement returns; PostgreSQL a network hop after the commit: retried for up to 2 s. */
async function seen<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await read();
  const until = Date.now() + 2000;
  while (usingPostgres && !ok(v) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 5));
    v = await read();
  }
  return v;
}

/**
 * Runs `change` and, on PostgreSQL, waits until a listener of our own has heard its announcement
 * (a network hop after the commit) and a little more, so the app's listener has heard it too.
 * PGlite announces before the statement returns.
 */
async function announced<T>(db: Db, change: () => Promise<T>, count = 1): Promise<T> {
  if (!usingPostgres) return change();
  let heard = 0;
  let all = () => {};
  const hearing = new Promise<void>((resolve) => {
    all = resolve;
  });
  const ours = await db.listen('insights_dashboard_rows', (payload) => {
    if (payload && ++heard === count) all();
  });
  try {
    const out = await change();
    await Promise.race([hearing, new Promise((r) => setTimeout(r, 5000))]);
    await new Promise((r) => setTimeout(r, 100));
    return out;
  } finally {
    await ours.close();
  }
}

test('an announcement names its rows, or (anything else) everything', () => {
  assert.deepEqual(announcedRows('public\t[["acme","d1",false],["acme","d2",true]]'), [
    ['acme', 'd1', false],
    ['acme', 'd2', true],
  ]);
  for (const everything of [
    undefined,
    '',
    'public',
    'public\t*',
    'public\t{"a":1}',
    'public\t[["acme","d1"]]',
    'public\t[[1,"d1",true]]',
    'public\t[',
  ]) {
    assert.equal(announcedRows(everything), undefined, String(everything));
  }
});

describe('dashboards from memory', () => {
  let t: TestApp;
  let reads: { count: () => number };
  let auth: string;
  let id: string;
  before(async () => {
    t = await buildTestApp();
    reads = countingReads(t.db);
    auth = await t.login({ tenant: 'acme', user: 'ann', role: 'admin' });
    // On PostgreSQL the insert's own announcement arrives a network hop after its commit (later on a
    // loaded machine) and empties the cache once more: wait until a listener of our own has heard
    // it, rather than for a fixed time (300 ms was not enough under two test suites at once).
    let heard = () => {};
    const announced = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const ours = await t.db.listen('insights_dashboard_rows', () => heard());
    id = (await call(t, auth, 'POST', '/api/v1/dashboards/', { name: 'Sales' })).data.id;
    if (usingPostgres) {
      await Promise.race([announced, new Promise((r) => setTimeout(r, 5000))]);
      await new Promise((r) => setTimeout(r, 100));
    }
    await ours.close();
  });
  after(() => t.close());

  test('a repeated list and read cost one query each', async () => {
    const before = reads.count();
    for (let i = 0; i < 4; i++) {
      assert.equal((await call(t, auth, 'GET', '/api/v1/dashboards/')).statusCode, 200);
      assert.equal((await call(t, auth, 'GET', `/api/v1/dashboards/${id}`)).data.name, 'Sales');
    }
    assert.equal(reads.count() - before, 2);
  });

  test('a change through the API is seen by the next read and list', async () => {
    await call(t, auth, 'GET', `/api/v1/dashboards/${id}`);
    assert.equal((await call(t, auth, 'PATCH', `/api/v1/dashboards/${id}`, { name: 'Sales 2' })).statusCode, 200);
    assert.equal((await call(t, auth, 'GET', `/api/v1/dashboards/${id}`)).data.name, 'Sales 2');
    const listed = await call(t, auth, 'GET', '/api/v1/dashboards/');
    assert.equal(listed.data.find((d: { id: string }) => d.id === id).name, 'Sales 2');
  });

  test('a widget added or removed is seen at once', async () => {
    assert.deepEqual((await call(t, auth, 'GET', `/api/v1/dashboards/${id}`)).data.widgets, []);
    const w = await call(t, auth, 'POST', `/api/v1/dashboards/${id}/widgets`, {
      title: 'r',
      widget_type: 'chart',
      data_source: 'live_insight',
      insight_code: 'revenue',
    });
    assert.equal(w.statusCode, 201, w.body);
    const withWidget = await call(t, auth, 'GET', `/api/v1/dashboards/${id}`);
    assert.deepEqual(
      withWidget.data.widgets.map((x: { id: string }) => x.id),
      [w.data.id],
    );
    assert.equal((await call(t, auth, 'DELETE', `/api/v1/dashboards/${id}/widgets/${w.data.id}`)).statusCode, 204);
    assert.deepEqual((await call(t, auth, 'GET', `/api/v1/dashboards/${id}`)).data.widgets, []);
  });

  test('a change by hand in SQL, and a delete, are seen by the next read', async () => {
    await call(t, auth, 'GET', `/api/v1/dashboards/${id}`);
    await t.db.query(`UPDATE dashboards SET name = 'By hand' WHERE id = $1`, [id]);
    const read = await seen(
      () => call(t, auth, 'GET', `/api/v1/dashboards/${id}`),
      (r) => r.data.name === 'By hand',
    );
    assert.equal(read.data.name, 'By hand');
    assert.equal((await call(t, auth, 'DELETE', `/api/v1/dashboards/${id}`)).statusCode, 204);
    assert.equal((await call(t, auth, 'GET', `/api/v1/dashboards/${id}`)).statusCode, 404);
    assert.equal((await call(t, auth, 'GET', '/api/v1/dashboards/')).data.length, 0);
  });

  test("a widget added to one dashboard leaves other tenants' reads and its tenant's other dashboards in memory", async () => {
    const bob = await t.login({ tenant: 'globex', user: 'bob', role: 'admin' });
    const [g, x, y] = await announced(
      t.db,
      async () => [
        (await call(t, bob, 'POST', '/api/v1/dashboards/', { name: 'Globex' })).data.id,
        (await call(t, auth, 'POST', '/api/v1/dashboards/', { name: 'X' })).data.id,
        (await call(t, auth, 'POST', '/api/v1/dashboards/', { name: 'Y' })).data.id,
      ],
      3,
    );
    const others = async () => {
      assert.equal((await call(t, bob, 'GET', '/api/v1/dashboards/')).data.length, 1);
      assert.equal((await call(t, bob, 'GET', `/api/v1/dashboards/${g}`)).data.name, 'Globex');
      assert.equal((await call(t, auth, 'GET', `/api/v1/dashboards/${y}`)).data.name, 'Y');
    };
    await others();
    const w = await announced(t.db, () =>
      call(t, auth, 'POST', `/api/v1/dashboards/${x}/widgets`, {
        title: 'r',
        widget_type: 'chart',
        data_source: 'live_insight',
        insight_code: 'revenue',
      }),
    );
    assert.equal(w.statusCode, 201, w.body);
    const afterWrite = reads.count();
    await others();
    assert.equal(reads.count(), afterWrite, "globex's list and dashboard and acme's other dashboard are answered from memory");
    // The dashboard written to, and the lists holding it, are read again and show the widget.
    const got = await call(t, auth, 'GET', `/api/v1/dashboards/${x}`);
    assert.deepEqual(
      got.data.widgets.map((v: { id: string }) => v.id),
      [w.data.id],
    );
    const listed = await call(t, auth, 'GET', '/api/v1/dashboards/');
    assert.deepEqual(listed.data.find((d: { id: string }) => d.id === x).widget_ids, [w.data.id]);
    assert.equal(reads.count(), afterWrite + 2);
  });

  test("a dashboard's read in flight is kept when another dashboard of its tenant changes, not when it changes itself", async () => {
    const [x, y, z] = await announced(
      t.db,
      async () => [
        (await call(t, auth, 'POST', '/api/v1/dashboards/', { name: 'X' })).data.id,
        (await call(t, auth, 'POST', '/api/v1/dashboards/', { name: 'Y' })).data.id,
        (await call(t, auth, 'POST', '/api/v1/dashboards/', { name: 'Z' })).data.id,
      ],
      3,
    );
    const query = t.db.query;
    /** Reads dashboard `held` and answers only after `meanwhile` has run: the read is in flight during it. */
    const readWhile = async (held: string, meanwhile: () => Promise<unknown>) => {
      let reached = () => {};
      const inFlight = new Promise<void>((r) => {
        reached = r;
      });
      let release = () => {};
      const gate = new Promise<void>((r) => {
        release = r;
      });
      let holding = false;
      t.db.query = (async (sql: string, params?: unknown[]) => {
        const rows = await query(sql, params);
        // The first read of it only: the change made meanwhile reads it too.
        if (!holding && /FROM dashboards WHERE tenant_id = \$1 AND id = \$2/.test(sql) && params?.[1] === held) {
          holding = true;
          reached();
          await gate;
        }
        return rows;
      }) as Db['query'];
      try {
        const read = call(t, auth, 'GET', `/api/v1/dashboards/${held}`);
        await inFlight;
        await meanwhile();
        release();
        return (await read).data.name;
      } finally {
        t.db.query = query;
      }
    };
    assert.equal(await readWhile(x, () => announced(t.db, () => call(t, auth, 'PATCH', `/api/v1/dashboards/${y}`, { name: 'Y 2' }))), 'X');
    const before = reads.count();
    assert.equal((await call(t, auth, 'GET', `/api/v1/dashboards/${x}`)).data.name, 'X');
    assert.equal(reads.count(), before, 'kept: the change was of another dashboard');

    assert.equal(await readWhile(z, () => announced(t.db, () => call(t, auth, 'PATCH', `/api/v1/dashboards/${z}`, { name: 'Z 2' }))), 'Z');
    assert.equal((await call(t, auth, 'GET', `/api/v1/dashboards/${z}`)).data.name, 'Z 2', 'not kept: it changed while read');
  });

  test("a member's list stays while a dashboard it does not hold changes, and sees sharing at once", async () => {
    const mia = await t.login({ tenant: 'acme', user: 'mia', role: 'member' });
    const z = await announced(t.db, async () => (await call(t, auth, 'POST', '/api/v1/dashboards/', { name: 'Private' })).data.id);
    const names = async () => (await call(t, mia, 'GET', '/api/v1/dashboards/')).data.map((d: { name: string }) => d.name);
    assert.ok(!(await names()).includes('Private'));
    const before = reads.count();
    await announced(t.db, () =>
      call(t, auth, 'POST', `/api/v1/dashboards/${z}/widgets`, {
        title: 'r',
        widget_type: 'chart',
        data_source: 'live_insight',
        insight_code: 'revenue',
      }),
    );
    const afterWrite = reads.count();
    assert.ok(!(await names()).includes('Private'));
    assert.equal(reads.count(), afterWrite, "the member's list does not hold it: answered from memory");
    assert.ok(afterWrite > before, 'the widget write read its dashboard');
    // Shared through the API, and unshared by hand in SQL: the member's next list follows both.
    await announced(t.db, () => call(t, auth, 'PATCH', `/api/v1/dashboards/${z}`, { is_shared: true }));
    assert.ok((await names()).includes('Private'));
    await announced(t.db, () => t.db.query(`UPDATE dashboards SET is_shared = false WHERE id = $1`, [z]));
    const after = await seen(names, (n) => !n.includes('Private'));
    assert.ok(!after.includes('Private'));
  });

  test("sharing with a member and making them its owner, by hand in SQL, enter the member's remembered list", async () => {
    const mia = await t.login({ tenant: 'acme', user: 'mia', role: 'member' });
    const f = await announced(t.db, async () => (await call(t, auth, 'POST', '/api/v1/dashboards/', { name: 'ForMia' })).data.id);
    const names = async (): Promise<string[]> =>
      (await call(t, mia, 'GET', '/api/v1/dashboards/')).data.map((d: { name: string }) => d.name);
    assert.ok(!(await names()).includes('ForMia'), 'remembered without it');
    await announced(t.db, () => t.db.query(`UPDATE dashboards SET shared_with_emails = '{mia@acme.example}' WHERE id = $1`, [f]));
    assert.ok((await seen(names, (n) => n.includes('ForMia'))).includes('ForMia'), 'shared with her e-mail');
    await announced(t.db, () => t.db.query(`UPDATE dashboards SET shared_with_emails = '{}' WHERE id = $1`, [f]));
    assert.ok(!(await seen(names, (n) => !n.includes('ForMia'))).includes('ForMia'), 'no longer shared');
    await announced(t.db, () => t.db.query(`UPDATE dashboards SET created_by = 'mia' WHERE id = $1`, [f]));
    assert.ok((await seen(names, (n) => n.includes('ForMia'))).includes('ForMia'), 'hers now');
    await t.db.query(`DELETE FROM dashboards WHERE id = $1`, [f]);
  });

  test("a dashboard moved to another tenant by hand leaves the first tenant's lists and enters the other's", async () => {
    const bob = await t.login({ tenant: 'globex', user: 'bob', role: 'admin' });
    const m = await announced(t.db, async () => (await call(t, auth, 'POST', '/api/v1/dashboards/', { name: 'Moving' })).data.id);
    const names = async (who: string): Promise<string[]> =>
      (await call(t, who, 'GET', '/api/v1/dashboards/')).data.map((d: { name: string }) => d.name);
    assert.ok((await names(auth)).includes('Moving'));
    assert.ok(!(await names(bob)).includes('Moving'));
    await announced(t.db, () => t.db.query(`UPDATE dashboards SET tenant_id = 'globex' WHERE id = $1`, [m]));
    assert.ok(
      !(
        await seen(
          () => names(auth),
          (n) => !n.includes('Moving'),
        )
      ).includes('Moving'),
      'gone from acme',
    );
    assert.ok(
      (
        await seen(
          () => names(bob),
          (n) => n.includes('Moving'),
        )
      ).includes('Moving'),
      'in globex',
    );
    await t.db.query(`DELETE FROM dashboards WHERE id = $1`, [m]);
  });

  test('a change of more rows than an announcement holds forgets everything', async () => {
    const bob = await t.login({ tenant: 'globex', user: 'bob', role: 'admin' });
    await call(t, bob, 'GET', '/api/v1/dashboards/');
    const before = reads.count();
    await call(t, bob, 'GET', '/api/v1/dashboards/');
    assert.equal(reads.count(), before, 'remembered');
    // 300 rows of another tenant in one statement: [tenant, id, true] each is far beyond 7000 bytes.
    await announced(t.db, () =>
      t.db.query(
        `INSERT INTO dashboards (id, tenant_id, name, created_by, created_by_name, is_shared, shared_with_emails, widget_ids, global_filter_presets, created_at, updated_at)
         SELECT 'bulk-' || i || '-${'x'.repeat(20)}', 'acme', 'Bulk ' || i, 'ann', 'ann', false, '{}', '{}', '[]', now(), now() FROM generate_series(1, 300) i`,
      ),
    );
    await call(t, bob, 'GET', '/api/v1/dashboards/');
    assert.equal(reads.count(), before + 1, "globex's list is read again: the announcement said everything");
    await t.db.query(`DELETE FROM dashboards WHERE id LIKE 'bulk-%'`);
  });

  test('what a caller gets is a copy: changing it changes nothing remembered', async () => {
    const d = await call(t, auth, 'POST', '/api/v1/dashboards/', { name: 'Copy' });
    const first = await t.app.services.dashboards.getForSystem('acme', d.data.id);
    (first as { name: string }).name = 'mutated';
    assert.equal((await t.app.services.dashboards.getForSystem('acme', d.data.id)).name, 'Copy');
  });
});

describe('two instances on one PostgreSQL', { skip: !usingPostgres && 'needs DATABASE_URL' }, () => {
  test('a change on one instance is seen by the other', async () => {
    const { db, schema, close } = await freshDb();
    const other = new PostgresDb(process.env.DATABASE_URL!, { schema, max: 2 });
    const config = loadConfig({ INSIGHTS_DATA_DIR: '/nonexistent-test-data-dir', INSIGHTS_JWT_SECRET: JWT_SECRET });
    const warehouse = await testWarehouse(new Date());
    const deps = { config, clock: { now: () => new Date() }, secrets: new SecretBox(crypto.randomBytes(32)), logger: false, warehouse };
    const a = await buildApp({ ...deps, db });
    const b = await buildApp({ ...deps, db: other });
    try {
      const { token } = await a.services.tokens.create({ tenantId: 'acme', name: 'x', userId: 'eve', role: 'admin' });
      const as = (app: typeof a, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
        app.inject({ method, url, headers: { authorization: `Svc ${token}` }, ...(body ? { payload: body as object } : {}) });
      const d = (await as(a, 'POST', '/api/v1/dashboards/', { name: 'Shared' })).json();
      assert.equal((await as(b, 'GET', `/api/v1/dashboards/${d.id}`)).json().name, 'Shared');
      assert.equal((await as(a, 'PATCH', `/api/v1/dashboards/${d.id}`, { name: 'Renamed' })).statusCode, 200);
      const read = await seen(
        () => as(b, 'GET', `/api/v1/dashboards/${d.id}`),
        (r) => r.json().name === 'Renamed',
      );
      assert.equal(read.json().name, 'Renamed');
    } finally {
      await a.close();
      await b.close();
      await other.close();
      await warehouse.close();
      await close();
    }
  });
});
