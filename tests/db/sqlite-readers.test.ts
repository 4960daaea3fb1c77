import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { createTask } from '../helpers/factory.ts';

// Reader threads exist for SQLite files only; PostgreSQL reads through its pool.
describe.skipIf(process.env.TEST_DATABASE_URL)('SQLite reader threads: read-only connections beside the main one', () => {
  let h: TestHarness;
  let ann: Actor;
  let readers: Db;

  beforeAll(async () => {
    h = await createHarness();
    ann = await h.actor({ role: 'member' });
    await h.project(ann, 'RDR');
    readers = h.ctx.database.readers!;
  });
  afterAll(() => h.close());

  const taskCount = async (db: Db) => Number((await db.selectFrom('tasks').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);

  it('a read transaction sees what the main connection committed, and keeps its snapshot while the main connection writes', async () => {
    await createTask(h, ann, 'RDR');
    const seen = await readers.transaction().execute(async (trx) => {
      const before = await taskCount(trx);
      await createTask(h, ann, 'RDR');
      return { before, after: await taskCount(trx) };
    });
    expect(seen).toEqual({ before: 1, after: 1 });
    expect(await readers.transaction().execute(taskCount)).toBe(2);
  });

  it('refuses to write', async () => {
    const write = readers.updateTable('tasks').set({ title: 'changed by a reader' }).execute();
    await expect(write).rejects.toMatchObject({ code: 'SQLITE_READONLY' });
    expect((await h.request('GET', '/api/v1/tasks/RDR-1/', { token: ann.token })).body.data.title).toBe('A task');
  });

  it('queues transactions beyond its threads, and answers each', async () => {
    const counts = await Promise.all(Array.from({ length: 9 }, () => readers.transaction().execute(taskCount)));
    expect(counts).toEqual(Array(9).fill(2));
    const search = await h.request('GET', '/api/v1/search/?q=task', { token: ann.token });
    expect(search.body.pagination.count).toBe(2);
  });
});
