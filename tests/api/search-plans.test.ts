import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as repo from '../../src/modules/search/search.repository.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

/**
 * The statements of a search read the text index, whatever the planner's statistics: on
 * PostgreSQL a rare word under `ORDER BY id DESC LIMIT 20` was answered at 500k tasks by walking
 * the primary key backward and reading every row.
 */
describe('search statements read the text index', () => {
  let h: TestHarness;
  let actor: Actor;
  let projectId: number;
  const TASKS = 20_000;
  const search = (query: string) => h.request('GET', `/api/v1/search/?${query}`, { token: actor.token });
  const keys = (res: { body: { data: Array<{ key: string }> } }) => res.body.data.map((t) => t.key);

  beforeAll(async () => {
    h = await createHarness();
    actor = await h.actor();
    projectId = (await h.project(actor, 'PLAN')).id;
    const project = await h.ctx.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', projectId)
      .executeTakeFirstOrThrow();
    // Every tenth task has "login" in its title, every tenth (others) in its description; five
    // have "zephyrine" in their description. Seeded in one statement, then planner statistics.
    await sql`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < ${TASKS})
      insert into tasks (project_id, number, key, title, description, task_type_id, priority_id, status_id, version, created_at, updated_at)
      select ${projectId}, i, ${'PLAN-'} || i,
        'Task ' || i || case when i % 10 = 0 then ' login' else '' end,
        'plain words ' || case when i % 10 = 5 then 'login' when i % 4000 = 7 then 'zephyrine' else 'nothing' end,
        ${project.default_task_type_id}, ${project.default_priority_id}, ${project.default_status_id}, 1,
        '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
      from n`.execute(h.ctx.db);
    await h.ctx.db.updateTable('projects').set({ task_counter: TASKS }).where('id', '=', projectId).execute();
    await sql.raw(h.ctx.dialect === 'postgres' ? 'analyze tasks' : 'analyze').execute(h.ctx.db);
  }, 120_000);
  afterAll(() => h.close());

  it('finds the five tasks of a rare word, newest first', async () => {
    const res = await search('q=zephyrine&limit=20');
    expect(keys(res)).toEqual(['PLAN-16007', 'PLAN-12007', 'PLAN-8007', 'PLAN-4007', 'PLAN-7']);
    expect(res.body.pagination).toEqual({ count: 5, limit: 20, offset: 0 });
    const cursor = await search('q=zephyrine&limit=2&cursor=');
    expect(keys(cursor)).toEqual(['PLAN-7', 'PLAN-4007']);
    const ordered = await search('q=zephyrine&ordering=key&limit=2&offset=1');
    expect(keys(ordered)).toEqual(['PLAN-4007', 'PLAN-8007']);
  });

  it('finds nothing for an absent word', async () => {
    const res = await search('q=quixotical&limit=20');
    expect(res.body).toEqual({ success: true, data: [], pagination: { count: 0, limit: 20, offset: 0 } });
  });

  it('answers a common word from both tiers, titles first', async () => {
    const first = await search('q=login&limit=3');
    expect(keys(first)).toEqual(['PLAN-20000', 'PLAN-19990', 'PLAN-19980']);
    expect(first.body.pagination).toEqual({ count: 1000, limit: 3, offset: 0 });
    const filtered = await search('q=login&status=To%20Do&limit=2&offset=998');
    expect(keys(filtered)).toEqual(['PLAN-10020', 'PLAN-10010']);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL: gathers a rare word through its GIN index', async () => {
    const scope = { projectIds: [projectId] };
    for (const [word, vector] of [
      ['zephyrin:*', 'search_vector'],
      ['quixot:*', 'search_vector'],
      ['zephyrin:*', 'title_vector'],
    ] as const) {
      const compiled = repo.gatherStatement(h.ctx.db, word, scope, vector, 1000).compile();
      const plan = (
        await h.ctx.db.executeQuery<{ 'QUERY PLAN': string }>({ ...compiled, sql: `explain ${compiled.sql}` })
      ).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      const index = vector === 'search_vector' ? 'tasks_search_idx' : 'tasks_title_search_idx';
      expect(plan).toContain(`Bitmap Index Scan on ${index}`);
      expect(plan).not.toContain('tasks_pkey');
      expect(plan).not.toContain('Seq Scan');
    }
  });

  it.runIf(!process.env.TEST_DATABASE_URL)('SQLite: a filtered search starts from the FTS index', async () => {
    const expression = '{title description} : ("zephyrine"*)';
    const slice = await repo.ftsMatchSlice(h.ctx.db, expression, { status: 'To Do' }, 0, 20);
    expect(slice).toHaveLength(5);
    const compiled = repo.ftsSliceStatement(h.ctx.db, expression, { status: 'To Do' }, 0, 20).compile();
    const plan = await h.ctx.db.executeQuery<{ detail: string }>({
      ...compiled,
      sql: `explain query plan ${compiled.sql}`,
    });
    const details = plan.rows.map((r) => r.detail);
    expect(details[0]).toMatch(/^SCAN fts VIRTUAL TABLE INDEX/);
    expect(details.slice(1).every((d) => /USING INTEGER PRIMARY KEY|USING .*INDEX/.test(d))).toBe(true);
  });
});
