import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

const reopeners = new WeakMap<DatabaseHandle, () => DatabaseHandle>();

/** Another connection (pool) to a database from freshDatabase, as a second server process would open; close it before the first. */
export function secondConnection(handle: DatabaseHandle): DatabaseHandle {
  const reopen = reopeners.get(handle);
  if (!reopen) throw new Error('secondConnection: not a handle from freshDatabase');
  return reopen();
}

/**
 * A fresh, migrated database for one test file: a temporary SQLite file by default, or a
 * throwaway schema in TEST_DATABASE_URL's PostgreSQL database when that is set.
 */
export async function freshDatabase(): Promise<DatabaseHandle> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const handle = openDatabase(pgUrl, { pgSchema: schema, pgPoolSize: 5 });
    await migrateToLatest(handle);
    const fresh: DatabaseHandle = {
      ...handle,
      close: async () => {
        await handle.close();
        const cleanup = new pg.Client({ connectionString: pgUrl });
        await cleanup.connect();
        await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
        await cleanup.end();
      },
    };
    reopeners.set(fresh, () => openDatabase(pgUrl, { pgSchema: schema, pgPoolSize: 5 }));
    return fresh;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-test-'));
  const url = `sqlite:${path.join(dir, 'test.db')}`;
  const handle = openDatabase(url);
  await migrateToLatest(handle);
  const fresh: DatabaseHandle = {
    ...handle,
    close: async () => {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  reopeners.set(fresh, () => openDatabase(url));
  return fresh;
}
