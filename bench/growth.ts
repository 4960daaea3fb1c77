/**
 * `npm run bench:growth`: grows one organization step by step (default 10k, 100k, 500k tasks)
 * and after each step measures the reads whose cost must not grow with the data: p50/p99 and the
 * service's CPU per request, then a line per read saying whether it stayed within 2× of its
 * figure at the first size.
 *
 *   npm run bench:growth                                  # SQLite in a temporary directory
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/growth npm run bench:growth
 *   SIZES=10000,100000 REQUESTS=200 npm run bench:growth  # a quicker run
 *   EXPLAIN=1 ...                                         # also print the plans of the rare and absent word's search statements
 *   SIZES=100000 READS=query,board npm run bench:growth   # only the reads whose name contains "query" or "board"
 *
 * The organization has four projects; the first holds half of all tasks (the "biggest project"
 * of the list and board reads); one task in ten is assigned to the bot that sends the requests (its
 * `me()`). Five tasks carry a rare word, none an absent one. Requests go one
 * at a time through Fastify's inject into the service in this process (no sockets), so CPU per
 * request is this process's user + system time over the requests: the service's JavaScript and
 * its driver, not the database server's own CPU on PostgreSQL. After each step: `VACUUM ANALYZE`
 * on PostgreSQL (what autovacuum would have done), `PRAGMA optimize` on SQLite.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { systemClock } from '../src/clock.ts';
import { type Db } from '../src/db/database.ts';
import * as search from '../src/modules/search/search.repository.ts';
import { fts5Query, tsQuery } from '../src/modules/search/search-query.ts';
import { SEARCH_REACH } from '../src/modules/search/search.service.ts';
import { benchService } from './context.ts';
import { cpuOf, type Figures, measure } from './measure.ts';
import { pick, random, taskDescription, taskTitle } from './text.ts';

const SIZES = (process.env.SIZES ?? '10000,100000,500000').split(',').map(Number);
const REQUESTS = Number(process.env.REQUESTS ?? 300);
const PROJECTS = ['GA', 'GB', 'GC', 'GD'];
const RARE = 'zephyrine';
const ABSENT = 'quixotical';
const RARE_TASKS = 5;
/** Only the reads whose name contains one of these (comma-separated), e.g. `READS=query,board`. */
const READS = process.env.READS?.split(',').filter(Boolean);

async function main(): Promise<void> {
  const { ctx, app, bot, headers, get, close } = await benchService('growth');
  const projects: Array<{
    key: string;
    id: number;
    typeId: number;
    priorityId: number;
    statuses: Array<{ id: number; name: string }>;
    count: number;
  }> = [];
  for (const key of PROJECTS) {
    const res = await app.inject({ method: 'POST', url: '/api/v1/projects/', headers, payload: { name: key, key } });
    const id = (res.json() as { data: { id: number } }).data.id;
    const p = await ctx.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const statuses = await ctx.db.selectFrom('statuses').select(['id', 'name']).where('project_id', '=', id).execute();
    projects.push({ key, id, typeId: p.default_task_type_id!, priorityId: p.default_priority_id!, statuses, count: 0 });
  }
  const big = projects[0]!;
  const now = systemClock.nowIso();
  let total = 0;
  let rareLeft = RARE_TASKS;

  /** Tasks up to `size`: half in the first project, the rest spread over the others. */
  async function grow(size: number): Promise<number> {
    const started = performance.now();
    while (total < size) {
      const batch = Math.min(1000, size - total);
      const byProject = new Map<number, object[]>();
      const changes: object[] = [];
      for (let i = 0; i < batch; i++) {
        const project = (total + i) % 2 === 0 ? big : projects[1 + ((total + i) % 3)]!;
        project.count++;
        // The rare word: in the descriptions of five tasks of the first step, one of them in its title too.
        const rare = rareLeft > 0 && (total + i) % 997 === 0 ? rareLeft-- : 0;
        const rows = byProject.get(project.id) ?? [];
        rows.push({
          project_id: project.id,
          number: project.count,
          key: `${project.key}-${project.count}`,
          title: rare === 1 ? `${taskTitle()} ${RARE}` : taskTitle(),
          description: rare ? `${taskDescription()} ${RARE}` : taskDescription(),
          task_type_id: project.typeId,
          priority_id: project.priorityId,
          status_id: pick(project.statuses).id,
          // One task in ten is the bot's own, for `assignee = me()`.
          assignee_id: (total + i) % 10 === 0 ? bot.id : null,
          version: 1,
          created_by: bot.id,
          created_at: now,
          updated_at: now,
        });
        byProject.set(project.id, rows);
      }
      for (const [projectId, rows] of byProject) {
        const inserted = await ctx.db
          .insertInto('tasks')
          .values(rows as never)
          .returning(['id', 'key'])
          .execute();
        for (const t of inserted)
          changes.push({
            project_id: projectId,
            task_id: t.id,
            task_key: t.key,
            action: 'created',
            task: JSON.stringify({ key: t.key }),
            changed_at: now,
          });
      }
      await ctx.db
        .insertInto('task_changes')
        .values(changes as never)
        .execute();
      total += batch;
    }
    for (const p of projects)
      await ctx.db.updateTable('projects').set({ task_counter: p.count }).where('id', '=', p.id).execute();
    if (ctx.dialect === 'postgres') await sql`vacuum analyze`.execute(ctx.db);
    else await sql`pragma optimize`.execute(ctx.db);
    return (performance.now() - started) / 1000;
  }

  const measureRead = (paths: () => string) =>
    measure(() => get(paths()), REQUESTS, ctx.dialect === 'postgres' ? ctx.db : null);

  const firstCursor = async () => {
    const res = await get('/api/v1/changes/tasks/?limit=200');
    return (res.json() as { pagination: { next_cursor: string } }).pagination.next_cursor;
  };
  const reads: Array<[string, () => Promise<() => string>]> = [
    ['GET task', async () => () => `/api/v1/tasks/${big.key}-${1 + Math.floor(random() * big.count)}/`],
    ['list, biggest project, first page (offset)', async () => () => `/api/v1/projects/${big.key}/tasks/?limit=50`],
    [
      'list, biggest project, first page (cursor)',
      async () => () => `/api/v1/projects/${big.key}/tasks/?limit=50&cursor=`,
    ],
    [
      'board column (To Do, 50 cards)',
      async () => () => `/api/v1/projects/${big.key}/board/?status=${encodeURIComponent('To Do')}&limit=50&cursor=`,
    ],
    ['board first paint (every column, 50 cards)', async () => () => `/api/v1/projects/${big.key}/board/?limit=50`],
    ['search, common word', async () => () => `/api/v1/search/?q=login&limit=20`],
    [`search, rare word (${RARE_TASKS} tasks)`, async () => () => `/api/v1/search/?q=${RARE}&limit=20`],
    ['search, absent word', async () => () => `/api/v1/search/?q=${ABSENT}&limit=20`],
    [
      'cross-project query (status_category, label-free)',
      async () => () =>
        `/api/v1/tasks/?q=${encodeURIComponent('status_category = todo AND text ~ "login" ORDER BY created DESC')}&limit=50`,
    ],
    [
      'query: assignee = me() AND status_category != done',
      async () => () =>
        `/api/v1/tasks/?q=${encodeURIComponent('assignee = me() AND status_category != done')}&limit=50`,
    ],
    [
      'query: text ~ "login timeout"',
      async () => () => `/api/v1/tasks/?q=${encodeURIComponent('text ~ "login timeout"')}&limit=50`,
    ],
    [
      'changes feed, page of 200 after the first',
      async () => {
        const cursor = await firstCursor();
        return () => `/api/v1/changes/tasks/?limit=200&cursor=${cursor}`;
      },
    ],
  ];

  const results = new Map<string, Map<number, Figures>>();
  console.log(`# bench:growth on ${ctx.dialect}, ${REQUESTS} requests per read, one at a time`);
  for (const size of SIZES) {
    const seconds = await grow(size);
    console.log(
      `\n## ${size} tasks (seeded in ${seconds.toFixed(0)} s; load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
    );
    console.log('| read | p50 ms | p99 ms | CPU ms per request: service / database |');
    console.log('|---|---|---|---|');
    for (const [name, paths] of reads) {
      if (READS && !READS.some((part) => name.includes(part))) continue;
      const figures = await measureRead(await paths());
      const row = results.get(name) ?? new Map<number, Figures>();
      row.set(size, figures);
      results.set(name, row);
      console.log(`| ${name} | ${figures.p50.toFixed(2)} | ${figures.p99.toFixed(2)} | ${cpuOf(figures)} |`);
    }
    if (process.env.EXPLAIN)
      await explainSearch(
        ctx.db,
        ctx.dialect,
        projects.map((p) => p.id),
        size,
      );
  }

  const first = SIZES[0]!;
  console.log(`\n## Within 2× of ${first} tasks (p50 / p99 ms / CPU ms per request; load distorts p50, not CPU)`);
  console.log(`| read | ${SIZES.map((s) => `${s}`).join(' | ')} | CPU within 2× | p50 within 2× |`);
  console.log(`|---|${SIZES.map(() => '---').join('|')}|---|---|`);
  for (const [name, row] of results) {
    const base = row.get(first)!;
    const within = (ok: (f: Figures) => boolean) => (SIZES.every((s) => ok(row.get(s)!)) ? 'yes' : '**no**');
    // CPU: the service's and the database's; a database figure under 0.2 ms is within its clock's ticks.
    const cpu = within((f) => f.cpu <= 2 * base.cpu && (f.dbCpu === null || f.dbCpu <= Math.max(2 * base.dbCpu!, 0.2)));
    const cells = SIZES.map((s) => {
      const f = row.get(s)!;
      return `${f.p50.toFixed(2)} / ${f.p99.toFixed(2)} / ${cpuOf(f)}`;
    });
    console.log(`| ${name} | ${cells.join(' | ')} | ${cpu} | ${within((f) => f.p50 <= 2 * base.p50)} |`);
  }
  await close();
}

/**
 * The plans of the statements a search for the rare and the absent word runs: on PostgreSQL the
 * gathering statement (EXPLAIN ANALYZE), on SQLite a slice of the FTS index filtered by status.
 */
async function explainSearch(db: Db, dialect: string, projectIds: number[], size: number): Promise<void> {
  for (const word of [RARE, ABSENT]) {
    const compiled =
      dialect === 'postgres'
        ? search.gatherStatement(db, tsQuery([word]), { projectIds }, 'search_vector', SEARCH_REACH).compile()
        : search
            .ftsSliceStatement(db, `{title description} : (${fts5Query([word])})`, { status: 'To Do' }, 0, 20)
            .compile();
    const plan = await db.executeQuery<Record<string, string>>({
      ...compiled,
      sql: `${dialect === 'postgres' ? 'explain analyze' : 'explain query plan'} ${compiled.sql}`,
    });
    const lines = plan.rows.map((r) => r['QUERY PLAN'] ?? r.detail);
    console.log(`\nPlan at ${size} tasks, search for "${word}":\n\n    ${lines.join('\n    ')}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
