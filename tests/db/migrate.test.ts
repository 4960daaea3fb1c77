import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import type { Database } from '../../src/db/schema.ts';
import { freshDatabase, processUrl } from '../helpers/database.ts';

describe('migrations at process start', () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await freshDatabase();
  });
  afterAll(() => handle.close());

  /** Another handle on the same database that records the SQL it runs. */
  function observed(): { handle: DatabaseHandle; queries: string[] } {
    const queries: string[] = [];
    const log = (event: { query: { sql: string } }) => void queries.push(event.query.sql);
    const url = processUrl(handle);
    const db = new Kysely<Database>({
      dialect:
        handle.dialect === 'postgres'
          ? new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) })
          : new SqliteDialect({ database: new BetterSqlite3(url.slice('sqlite:'.length)) }),
      log,
    });
    return {
      handle: {
        db,
        dialect: handle.dialect,
        pgSchema: handle.pgSchema,
        health: handle.health,
        close: () => db.destroy(),
      },
      queries,
    };
  }

  it('a database already up to date applies nothing and only reads the list of applied migrations', async () => {
    const { handle: starting, queries } = observed();
    try {
      expect(await migrateToLatest(starting)).toEqual([]);
      expect(await migrateToLatest(starting)).toEqual([]);
    } finally {
      await starting.close();
    }
    // Kysely's migrator would take the database-wide migration lock and, on PostgreSQL, list
    // every schema's tables: every process start would queue behind any migration running.
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      expect(query).not.toMatch(/kysely_migration_lock|pg_advisory_lock|pg_attribute/);
      expect(query).toMatch(/^select /i);
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'PostgreSQL: a schema chosen by the URL search_path, as a spawned worker gets it, is recognised as migrated',
    async () => {
      const worker = openDatabase(processUrl(handle));
      try {
        expect(await migrateToLatest(worker)).toEqual([]);
      } finally {
        await worker.close();
      }
    },
  );
});
