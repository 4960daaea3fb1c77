import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.ts';

const reopeners = new WeakMap<DatabaseHandle, () => DatabaseHandle>();
const urls = new WeakMap<DatabaseHandle, string>();

/** The DATABASE_URL that points another process (a spawned `serve` or `worker`) at a database from freshDatabase. */
export function processUrl(handle: DatabaseHandle): string {
  const url = urls.get(handle);
  if (!url) throw new Error('processUrl: not a handle from freshDatabase');
  return url;
}

/** Another connection (pool) to a database from freshDatabase, as a second server process would open; close it before the first. */
export function secondConnection(handle: DatabaseHandle): DatabaseHandle {
  const reopen = reopeners.get(handle);
  if (!reopen) throw new Error('secondConnection: not a handle from freshDatabase');
  return reopen();
}

/**
 * A fresh, migrated database for one test file: a temporary SQLite file by default, or a
 * throwaway schema in TEST_DATABASE_URL's PostgreSQL database when that is set. `migratedTo`
 * stops after that migration (for tests of a later migration's effect on older data).
 */
export async function freshDatabase(options: { migratedTo?: string } = {}): Promise<DatabaseHandle> {
  const migrate = (handle: DatabaseHandle) =>
    options.migratedTo ? migrateTo(handle, options.migratedTo) : migrateToLatest(handle);
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const handle = openDatabase(pgUrl, { pgSchema: schema, pgPoolSize: 5 });
    // Kysely's migrator lists every schema's tables (has_schema_privilege per schema), which
    // fails if another test file drops its schema meanwhile: migrations share a lock that a drop takes alone.
    await withSchemaLock(pgUrl, 'shared', async (admin) => {
      await admin.query(`CREATE SCHEMA ${schema}`);
      await migrate(handle);
    });
    const fresh: DatabaseHandle = {
      ...handle,
      close: async () => {
        await handle.close();
        await withSchemaLock(pgUrl, 'exclusive', (admin) => admin.query(`DROP SCHEMA ${schema} CASCADE`));
      },
    };
    reopeners.set(fresh, () => openDatabase(pgUrl, { pgSchema: schema, pgPoolSize: 5 }));
    urls.set(fresh, `${pgUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`);
    return fresh;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-test-'));
  const url = `sqlite:${path.join(dir, 'test.db')}`;
  const handle = openDatabase(url);
  await migrate(handle);
  const fresh: DatabaseHandle = {
    ...handle,
    close: async () => {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  reopeners.set(fresh, () => openDatabase(url));
  urls.set(fresh, url);
  return fresh;
}

const SCHEMA_LOCK = 7_342_001;

async function withSchemaLock(
  url: string,
  mode: 'shared' | 'exclusive',
  work: (admin: pg.Client) => Promise<unknown>,
): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const suffix = mode === 'shared' ? '_shared' : '';
  try {
    await admin.query(`SELECT pg_advisory_lock${suffix}(${SCHEMA_LOCK})`);
    await work(admin);
  } finally {
    await admin.query(`SELECT pg_advisory_unlock${suffix}(${SCHEMA_LOCK})`).catch(() => undefined);
    await admin.end();
  }
}
