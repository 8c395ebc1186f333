// A fresh, migrated system of record for each test app: PGlite by default (loaded from a migrated
// template dump, ~10x faster than initdb), or a fresh schema of DATABASE_URL's PostgreSQL.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PGliteDb, type Db } from '../../src/db/index.ts';
import { PostgresDb } from '../../src/db/postgres.ts';
import { listMigrations, migrate } from '../../src/db/migrate.ts';

export const usingPostgres = Boolean(process.env.DATABASE_URL);

function templatePath(): string {
  const hash = crypto.createHash('sha256');
  for (const m of listMigrations()) hash.update(m.name).update(m.sql);
  return path.join(os.tmpdir(), `insights-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** A migrated PGlite database from the template, whatever DATABASE_URL says (data dirs of child servers). */
export async function pgliteFromTemplate(): Promise<Db> {
  const file = templatePath();
  if (!fs.existsSync(file)) {
    const fresh = await PGliteDb.open({});
    await migrate(fresh);
    const dump = await fresh.dump();
    // Parallel test files may build it at once: write aside, then rename atomically.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file);
    return fresh;
  }
  const db = await PGliteDb.open({ loadDataDir: new Blob([fs.readFileSync(file)]) });
  await migrate(db); // no-op unless the template is stale
  return db;
}

export interface TestDb {
  db: Db;
  /** The PostgreSQL schema, when on PostgreSQL (other processes of a test can join it). */
  schema?: string;
  close(): Promise<void>;
}

export async function freshDb(): Promise<TestDb> {
  if (!usingPostgres) {
    const db = await pgliteFromTemplate();
    return { db, close: () => db.close() };
  }
  const url = process.env.DATABASE_URL!;
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = new PostgresDb(url, { schema, max: 5 });
  await migrate(db);
  return {
    db,
    schema,
    async close() {
      await db.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}
