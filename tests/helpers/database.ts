import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

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
    return {
      ...handle,
      close: async () => {
        await handle.close();
        const cleanup = new pg.Client({ connectionString: pgUrl });
        await cleanup.connect();
        await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
        await cleanup.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-test-'));
  const handle = openDatabase(`sqlite:${path.join(dir, 'test.db')}`);
  await migrateToLatest(handle);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
