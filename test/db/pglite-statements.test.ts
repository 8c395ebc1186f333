// PGlite's statements kept prepared (src/db/pglite-statements.ts): the same rows as PGlite's own
// query for every kind of value the repositories bind, failures that leave the next run whole, a
// statement made stale by a table changed under it prepared again, transactions as before, and no
// more statements kept than the bound. Embedded only: PostgreSQL's driver is another path.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PGliteDb } from '../../src/db/index.ts';

let db: PGliteDb;

before(async () => {
  db = await PGliteDb.open({});
  await db.exec(`CREATE TABLE kinds (
    id text PRIMARY KEY, n int, big bigint, price numeric, ok boolean, at timestamptz, day date,
    doc jsonb, tags text[], note text)`);
});
after(() => db.close());

const prepared = async () => Number((await db.raw.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0].n);

test('every kind of value binds and reads back as the query of PGlite itself gives it', async () => {
  const at = new Date('2026-11-29T01:02:03.456Z');
  const insert = `INSERT INTO kinds (id, n, big, price, ok, at, day, doc, tags, note)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10) RETURNING *`;
  const rows = [
    ['a', 1, 9_007_199_254_740_991, '12.50', true, at, '2026-02-28', JSON.stringify({ x: [1, 'two'] }), ['a', 'b "c"'], 'é, ünïcode'],
    ['b', null, null, null, false, null, null, null, null, null],
    ['c', -5, 0, 0.1, false, '2026-01-01T00:00:00Z', new Date('2026-03-01T00:00:00Z'), JSON.stringify('text'), [], ''],
  ];
  for (const r of rows) assert.deepEqual(await db.query(insert, r), (await db.raw.query(`SELECT * FROM kinds WHERE id = $1`, [r[0]])).rows);
  const select = 'SELECT * FROM kinds WHERE id = ANY ($1) ORDER BY id';
  assert.deepEqual(await db.query(select, [['a', 'b', 'c']]), (await db.raw.query(select, [['a', 'b', 'c']])).rows);
  const [a] = await db.query(select, [['a']]);
  assert.equal(a.big, 9_007_199_254_740_991);
  assert.equal(a.price, 12.5);
  assert.deepEqual(a.at, at);
  assert.deepEqual(a.doc, { x: [1, 'two'] });
  assert.deepEqual(a.tags, ['a', 'b "c"']);
});

test('a failed run leaves the text usable: the error is the one PostgreSQL raised, the next run answers', async () => {
  const insert = 'INSERT INTO kinds (id, n) VALUES ($1, $2)';
  await db.query(insert, ['dup', 1]);
  await assert.rejects(db.query(insert, ['dup', 2]), (err: Error & { code?: string }) => err.code === '23505');
  await assert.rejects(db.query(insert, ['x', 'not a number']), (err: Error & { code?: string }) => err.code === '22P02');
  await db.query(insert, ['dup2', 3]);
  assert.deepEqual(await db.query('SELECT n FROM kinds WHERE id = $1', ['dup2']), [{ n: 3 }]);
  await assert.rejects(db.query('SELEC nothing', []), (err: Error & { code?: string }) => err.code === '42601');
});

test('a statement made stale by a table changed under it is prepared again', async () => {
  await db.exec('CREATE TABLE shifting (id int PRIMARY KEY)');
  await db.query('INSERT INTO shifting (id) VALUES ($1)', [1]);
  const read = 'SELECT * FROM shifting WHERE id = $1';
  assert.deepEqual(await db.query(read, [1]), [{ id: 1 }]);
  await db.exec("ALTER TABLE shifting ADD COLUMN label text DEFAULT 'new'");
  // PostgreSQL may refuse the kept plan once ("cached plan must not change result type"); never twice.
  const rows = await db.query(read, [1]).catch(() => db.query(read, [1]));
  assert.deepEqual(rows, [{ id: 1, label: 'new' }]);
});

test('transactions commit and roll back as before, and other statements wait for them', async () => {
  let outside: Promise<{ n: number }[]> | undefined;
  await db.transaction(async (tx) => {
    await tx.query('INSERT INTO kinds (id, n) VALUES ($1, $2)', ['t1', 1]);
    // A statement outside the transaction waits for it: it sees the commit, never the middle.
    outside = db.query<{ n: number }>('SELECT count(*)::int AS n FROM kinds WHERE id LIKE $1', ['t%']);
    await tx.query('INSERT INTO kinds (id, n) VALUES ($1, $2)', ['t2', 2]);
  });
  assert.deepEqual(await outside, [{ n: 2 }]);
  await assert.rejects(
    db.transaction(async (tx) => {
      await tx.query('INSERT INTO kinds (id, n) VALUES ($1, $2)', ['t3', 3]);
      await tx.query('INSERT INTO kinds (id, n) VALUES ($1, $2)', ['t1', 4]);
    }),
    (err: Error & { code?: string }) => err.code === '23505',
  );
  assert.deepEqual(await db.query('SELECT id FROM kinds WHERE id LIKE $1 ORDER BY id', ['t%']), [{ id: 't1' }, { id: 't2' }]);
});

test('at most 256 texts are kept: the least recently used are closed', async () => {
  for (let i = 0; i < 300; i++) await db.query(`SELECT $1::int + ${i} AS n`, [i]);
  assert.deepEqual(await db.query('SELECT $1::int + 299 AS n', [1]), [{ n: 300 }]);
  assert.ok((await prepared()) <= 257, `${await prepared()} statements kept`);
});
