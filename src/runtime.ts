// Opens what a process needs before it can serve or run a command: the system of record (locked,
// when embedded), its migrations, the master key, and the services the CLI uses without the app.
import path from 'node:path';
import type { Config } from './config/index.ts';
import { PGliteDb, type Db } from './db/index.ts';
import { restrictDataDir } from './db/data-dir.ts';
import { lockDataDir, type DataDirLock } from './db/lock.ts';
import { migrate } from './db/migrate.ts';
import { systemClock } from './lib/clock.ts';
import { loadOrCreateMasterKey, SecretBox } from './lib/secrets.ts';
import { firstContact } from './lib/startup.ts';
import { sweepTempDirs } from './lib/temp-dir.ts';
import { TokensRepository } from './modules/tokens/tokens.repository.ts';
import { TokensService } from './modules/tokens/tokens.service.ts';

export interface Runtime {
  db: Db;
  secrets: SecretBox;
  masterKeyGenerated: boolean;
  /** API tokens for the operator (the CLI), across tenants. */
  tokens: TokensService;
  close(): Promise<void>;
}

export async function openRuntime(config: Config): Promise<Runtime> {
  // Upload and staging files that a crashed process left behind (never a running one's).
  sweepTempDirs();
  let lock: DataDirLock | undefined;
  let db: Db;
  if (config.databaseUrl) {
    // No embedded database to lock, but the data dir may hold the warehouse and the master key:
    // owner-only all the same (lockDataDir does this in the other branch).
    restrictDataDir(config.dataDir, { create: false });
    const url = config.databaseUrl;
    const { PostgresDb } = await import('./db/postgres.ts');
    db = await firstContact('DATABASE_URL', url, async () => {
      const pg = new PostgresDb(url);
      try {
        await pg.query('SELECT 1');
        return pg;
      } catch (err) {
        void pg.close().catch(() => {});
        throw err;
      }
    });
  } else {
    lock = lockDataDir(config.dataDir);
    try {
      db = await PGliteDb.open({ dataDir: path.join(config.dataDir, 'pgdata') });
    } catch (err) {
      lock.release();
      throw err;
    }
  }
  try {
    await migrate(db);
    // PGlite writes some files (its relation-cache init files) through its own umask, 0644,
    // whatever the process's: once it has started and migrated, they are put right as well.
    if (db.kind === 'pglite') restrictDataDir(config.dataDir);
    const { key, generated } = loadOrCreateMasterKey(config.masterKey, config.dataDir);
    return {
      db,
      secrets: new SecretBox(key),
      masterKeyGenerated: generated,
      tokens: new TokensService(new TokensRepository(db), systemClock),
      async close() {
        await db.close();
        lock?.release();
      },
    };
  } catch (err) {
    await db.close().catch(() => {});
    lock?.release();
    throw err;
  }
}
