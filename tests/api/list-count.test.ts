import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

/**
 * An offset page of tasks counts up to 1,000 matches past itself: its cost does not
 * grow with the project, and a walk until `offset >= count` still reaches every task.
 */
describe('task lists count up to 1,000 past the page', () => {
  let h: TestHarness;
  let actor: Actor;
  const TASKS = 1300;
  const list = (query: string) => h.request('GET', `/api/v1/projects/COUNT/tasks/?${query}`, { token: actor.token });

  beforeAll(async () => {
    h = await createHarness();
    actor = await h.actor();
    const { id } = await h.project(actor, 'COUNT');
    const project = await h.ctx.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await sql`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < ${TASKS})
      insert into tasks (project_id, number, key, title, description, task_type_id, priority_id, status_id, version, created_at, updated_at)
      select ${id}, i, ${'COUNT-'} || i, 'Task ' || i, '', ${project.default_task_type_id}, ${project.default_priority_id},
        ${project.default_status_id}, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
      from n`.execute(h.ctx.db);
    await h.ctx.db.updateTable('projects').set({ task_counter: TASKS }).where('id', '=', id).execute();
  }, 120_000);
  afterAll(() => h.close());

  it('says "more than offset + limit + 1,000" past that', async () => {
    const first = await list('limit=50');
    expect(first.body.data.map((t: { key: string }) => t.key).slice(0, 2)).toEqual(['COUNT-1', 'COUNT-2']);
    expect(first.body.pagination).toEqual({ count: 1051, limit: 50, offset: 0 });
    expect((await list('limit=50&offset=100')).body.pagination).toEqual({ count: 1151, limit: 50, offset: 100 });
  });

  it('counts exactly within reach, filtered or not', async () => {
    expect((await list('limit=50&offset=250')).body.pagination).toEqual({ count: 1300, limit: 50, offset: 250 });
    expect((await list('status_category=done')).body.pagination).toEqual({ count: 0, limit: 50, offset: 0 });
    expect((await list('status_category=todo&limit=10&offset=290')).body.pagination.count).toBe(1300);
  });

  it('lets a walk until offset >= count reach every task', async () => {
    const seen: string[] = [];
    for (let offset = 0; ;) {
      const res = await list(`limit=200&offset=${offset}`);
      seen.push(...res.body.data.map((t: { key: string }) => t.key));
      offset += res.body.data.length;
      if (res.body.data.length === 0 || offset >= res.body.pagination.count) break;
    }
    expect(seen).toHaveLength(TASKS);
    expect(seen.at(-1)).toBe('COUNT-1300');
  });

  it('counts the same way in the query endpoint', async () => {
    const res = await h.request('GET', `/api/v1/tasks/?q=${encodeURIComponent('project = COUNT')}&limit=20`, {
      token: actor.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ count: 1021, limit: 20, offset: 0 });
    const ordered = await h.request(
      'GET',
      `/api/v1/tasks/?q=${encodeURIComponent('project = COUNT')}&ordering=key&limit=20&offset=1280`,
      {
        token: actor.token,
      },
    );
    expect(ordered.body.pagination).toEqual({ count: 1300, limit: 20, offset: 1280 });
    expect(ordered.body.data).toHaveLength(20);
  });
});
