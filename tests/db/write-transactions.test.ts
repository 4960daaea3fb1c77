import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { freshDatabase, secondConnection } from '../helpers/database.ts';

/**
 * Two processes on one database (serve and a worker, or serve and a CLI command): a transaction
 * that reads and then writes must commit even when the other one writes in between.
 */
describe('a read-then-write transaction beside another writer', () => {
  let first: DatabaseHandle;
  let second: DatabaseHandle;

  beforeAll(async () => {
    first = await freshDatabase();
    second = secondConnection(first);
    await sql`create table lock_probe (n integer not null)`.execute(first.db);
    // The other writer gives up at once instead of waiting, so the test sees who holds the lock.
    if (first.dialect === 'sqlite') await sql`pragma busy_timeout = 0`.execute(second.db);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('commits; on SQLite it holds the write lock from its start, so the other writer waits its turn', async () => {
    let otherWrite: 'committed' | 'busy' | null = null;
    await first.db.transaction().execute(async (trx) => {
      await sql`select count(*) from lock_probe`.execute(trx);
      try {
        await sql`insert into lock_probe (n) values (2)`.execute(second.db);
        otherWrite = 'committed';
      } catch (error) {
        expect(String(error)).toMatch(/database is locked/);
        otherWrite = 'busy';
      }
      await sql`insert into lock_probe (n) values (1)`.execute(trx);
    });

    const rows = await sql<{ n: number }>`select n from lock_probe order by n`.execute(first.db);
    if (first.dialect === 'sqlite') {
      expect(otherWrite).toBe('busy');
      expect(rows.rows.map((row) => Number(row.n))).toEqual([1]);
    } else {
      expect(otherWrite).toBe('committed');
      expect(rows.rows.map((row) => Number(row.n))).toEqual([1, 2]);
    }
  });
});
