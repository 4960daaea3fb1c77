import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import type { Database } from '../../src/db/schema.ts';
import { freshDatabase } from '../helpers/database.ts';

describe('migrations at process start', () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await freshDatabase();
  });
  afterAll(() => handle.close());

  /** Another handle on the same database that records the SQL it runs. */
  async function observed(): Promise<{ handle: DatabaseHandle; queries: string[] }> {
    const queries: string[] = [];
    const log = (event: { query: { sql: string } }) => void queries.push(event.query.sql);
    let db: Kysely<Database>;
    if (handle.dialect === 'postgres') {
      const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1, options: `-c search_path=${handle.pgSchema}` });
      db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
    } else {
      const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(handle.db);
      const file = rows.find((r) => r.name === 'main')!.file;
      db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new BetterSqlite3(file) }), log });
    }
    return { handle: { db, dialect: handle.dialect, pgSchema: handle.pgSchema, close: () => db.destroy() }, queries };
  }

  it('a database already up to date applies nothing and only reads the list of applied migrations', async () => {
    const { handle: starting, queries } = await observed();
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

  it.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL: a schema chosen by the URL search_path, as a spawned worker gets it, is recognised as migrated', async () => {
    const url = `${process.env.TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${handle.pgSchema}`)}`;
    const worker = openDatabase(url);
    try {
      expect(await migrateToLatest(worker)).toEqual([]);
    } finally {
      await worker.close();
    }
  });
});
