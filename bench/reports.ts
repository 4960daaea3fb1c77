/**
 * `npm run bench:reports`: the reports from history (docs/api/planning.md#reports) over one
 * project of 20,000 tasks and 200,000 activity rows, p50/p99 and CPU per request of each report
 * (JSON, CSV, `as_of`), next to a baseline measured in the same run: GET of one task, the
 * cheapest authenticated read through the same stack. Goal: every report's p99 under 200 ms.
 *
 *   npm run bench:reports                                              # SQLite in a temporary directory
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/reports npm run bench:reports
 *   TASKS=2000 REQUESTS=20 npm run bench:reports                       # a quicker run
 *
 * A year of history, seeded straight through the query builder: 26 two-week sprints (the last
 * one active), tasks created over the year, each with its creation row and nine changes at
 * random later times (status along the workflow, estimate, sprint, and fields the reports do not
 * read: title, priority, due date), so every task's values now are the last changes' values.
 * Requests go one at a time through Fastify's inject into the service in this process. After
 * seeding: `VACUUM ANALYZE` on PostgreSQL, `PRAGMA optimize` on SQLite.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { isoFromMicros } from '../src/clock.ts';
import { benchService } from './context.ts';
import { cpuOf, measure } from './measure.ts';
import { pick, random, taskTitle } from './text.ts';

const TASKS = Number(process.env.TASKS ?? 20_000);
const REQUESTS = Number(process.env.REQUESTS ?? 50);
/** Activity rows per task: its creation and nine changes. */
const CHANGES_PER_TASK = 9;
const SPRINTS = 26;
const SPRINT_DAYS = 14;
const GOAL_P99_MS = 200;
const DAY_MS = 86_400_000;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const stamp = (ms: number) => isoFromMicros(ms * 1000 + Math.floor(random() * 1000));

/** The statuses a task moves to from each one (the default workflow, weighted forward). */
const NEXT: Record<string, string[]> = {
  'To Do': ['In Progress', 'In Progress', 'In Progress', 'Done'],
  'In Progress': ['In Review', 'In Review', 'Done', 'To Do'],
  'In Review': ['Done', 'Done', 'In Progress'],
  Done: ['To Do'],
};

async function main(): Promise<void> {
  const { ctx, app, bot, headers, get, close } = await benchService('reports');

  const key = 'RPT';
  const created = await app.inject({ method: 'POST', url: '/api/v1/projects/', headers, payload: { name: key, key } });
  const projectId = (created.json() as { data: { id: number } }).data.id;
  const project = await ctx.db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirstOrThrow();
  const statusIds = new Map(
    (await ctx.db.selectFrom('statuses').select(['id', 'name']).where('project_id', '=', projectId).execute()).map(
      (s) => [s.name, s.id],
    ),
  );
  const types = await ctx.db.selectFrom('task_types').select('id').where('project_id', '=', projectId).execute();
  const priorities = await ctx.db
    .selectFrom('priorities')
    .select(['id', 'name'])
    .where('project_id', '=', projectId)
    .execute();

  const seedStarted = performance.now();
  const nowMs = Date.now();
  // Sprints back to back, the last one holding today (active), the others completed.
  const lastStart = nowMs - 6 * DAY_MS;
  const sprints: Array<{ id: number; startMs: number; endMs: number }> = [];
  for (let i = 0; i < SPRINTS; i++) {
    const startMs = lastStart - (SPRINTS - 1 - i) * SPRINT_DAYS * DAY_MS;
    const endMs = startMs + (SPRINT_DAYS - 1) * DAY_MS;
    const row = await ctx.db
      .insertInto('sprints')
      .values({
        project_id: projectId,
        name: `Sprint ${i + 1}`,
        goal: '',
        start_date: day(startMs),
        end_date: day(endMs),
        state: i === SPRINTS - 1 ? 'active' : 'completed',
        created_at: stamp(startMs - DAY_MS),
        updated_at: stamp(startMs - DAY_MS),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    sprints.push({ id: row.id, startMs, endMs });
  }
  const historyStart = sprints[0]!.startMs;
  const sprintAt = (ms: number) => sprints.find((s) => s.startMs <= ms && ms < s.endMs + DAY_MS)?.id ?? null;

  let activityRows = 0;
  for (let first = 1; first <= TASKS; first += 500) {
    const tasks: object[] = [];
    const histories: Array<Array<{ field: string | null; from: unknown; to: unknown; at: string }>> = [];
    for (let n = first; n < Math.min(first + 500, TASKS + 1); n++) {
      const createdMs = historyStart + random() * (nowMs - historyStart - DAY_MS);
      const times = Array.from(
        { length: CHANGES_PER_TASK },
        () => createdMs + random() * Math.min(60 * DAY_MS, nowMs - createdMs),
      ).sort((a, b) => a - b);
      let status = 'To Do';
      let estimate: number | null = null;
      let sprint: number | null = null;
      let title = taskTitle();
      let priority = project.default_priority_id!;
      let due: string | null = null;
      const history: (typeof histories)[number] = [{ field: null, from: null, to: null, at: stamp(createdMs) }];
      const change = (field: string, from: unknown, to: unknown, ms: number) =>
        history.push({ field, from, to, at: stamp(ms) });
      for (const ms of times) {
        const r = random();
        if (r < 0.4) {
          const next = pick(NEXT[status]!);
          change('status', status, next, ms);
          status = next;
        } else if (r < 0.55) {
          const next = pick([1, 2, 3, 5, 8, 13]);
          change('estimate', estimate, next, ms);
          estimate = next;
        } else if (r < 0.7) {
          const next: number | null = sprint === null ? sprintAt(ms) : random() < 0.3 ? null : sprintAt(ms);
          change('sprint', sprint, next, ms);
          sprint = next;
        } else if (r < 0.8) {
          const next = taskTitle();
          change('title', title, next, ms);
          title = next;
        } else if (r < 0.9) {
          const next = pick(priorities);
          change('priority', priorities.find((p) => p.id === priority)!.name, next.name, ms);
          priority = next.id;
        } else {
          const next = day(ms + random() * 30 * DAY_MS);
          change('due_date', due, next, ms);
          due = next;
        }
      }
      tasks.push({
        project_id: projectId,
        number: n,
        key: `${key}-${n}`,
        title,
        description: '',
        task_type_id: pick(types).id,
        priority_id: priority,
        status_id: statusIds.get(status)!,
        estimate,
        sprint_id: sprint,
        due_date: due,
        version: history.length,
        created_by: bot.id,
        created_at: history[0]!.at,
        updated_at: history.at(-1)!.at,
      });
      histories.push(history);
    }
    const inserted = await ctx.db
      .insertInto('tasks')
      .values(tasks as never)
      .returning('id')
      .execute();
    const activities = inserted.flatMap(({ id }, i) =>
      histories[i]!.map((h) => ({
        task_id: id,
        actor_id: bot.id,
        action: h.field === null ? 'created' : 'updated',
        field: h.field,
        from_value: h.field === null ? null : JSON.stringify(h.from),
        to_value: h.field === null ? null : JSON.stringify(h.to),
        created_at: h.at,
      })),
    );
    for (let i = 0; i < activities.length; i += 1000)
      await ctx.db
        .insertInto('activities')
        .values(activities.slice(i, i + 1000))
        .execute();
    // One change record per write, as task-writes.ts inserts: what the reports' summary checks for news.
    const changes = inserted.flatMap(({ id }, i) =>
      histories[i]!.map((h) => ({
        project_id: projectId,
        task_id: id,
        task_key: `${key}-${first + i}`,
        action: h.field === null ? ('created' as const) : ('updated' as const),
        task: null,
        before: null,
        changed_at: h.at,
      })),
    );
    for (let i = 0; i < changes.length; i += 1000)
      await ctx.db
        .insertInto('task_changes')
        .values(changes.slice(i, i + 1000))
        .execute();
    activityRows += activities.length;
  }
  await ctx.db.updateTable('projects').set({ task_counter: TASKS }).where('id', '=', projectId).execute();
  if (ctx.dialect === 'postgres') await sql`vacuum analyze`.execute(ctx.db);
  else await sql`pragma optimize`.execute(ctx.db);
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  const today = day(nowMs);
  const active = sprints.at(-1)!;
  const completed = sprints.at(-2)!;
  const midCompleted = new Date(completed.startMs + 7 * DAY_MS).toISOString();
  const monthAgo = new Date(nowMs - 30 * DAY_MS).toISOString();
  const base = `/api/v1/projects/${key}/reports`;
  const reads: Array<[string, string]> = [
    ['baseline: GET task', `/api/v1/tasks/${key}-1/`],
    ['burndown, active sprint', `${base}/burndown/?sprint=${active.id}`],
    ['burndown, last completed sprint', `${base}/burndown/?sprint=${completed.id}`],
    [
      'burndown, last completed sprint, as_of its 8th day',
      `${base}/burndown/?sprint=${completed.id}&as_of=${midCompleted}`,
    ],
    ['burndown, 90 days, whole project', `${base}/burndown/?from=${day(nowMs - 89 * DAY_MS)}&to=${today}`],
    ['burndown, active sprint, CSV', `${base}/burndown/?sprint=${active.id}&format=csv`],
    ['flow, 30 days', `${base}/flow/?from=${day(nowMs - 29 * DAY_MS)}&to=${today}`],
    ['flow, 90 days', `${base}/flow/?from=${day(nowMs - 89 * DAY_MS)}&to=${today}`],
    [
      'flow, 90 days, as_of 30 days ago',
      `${base}/flow/?from=${day(nowMs - 119 * DAY_MS)}&to=${day(nowMs - 30 * DAY_MS)}&as_of=${monthAgo}`,
    ],
    ['flow, 30 days, CSV', `${base}/flow/?from=${day(nowMs - 29 * DAY_MS)}&to=${today}&format=csv`],
    ['cycle-time, 90 days', `${base}/cycle-time/?from=${day(nowMs - 89 * DAY_MS)}&to=${today}`],
    ['cycle-time, 365 days', `${base}/cycle-time/?from=${day(nowMs - 364 * DAY_MS)}&to=${today}`],
    [
      'cycle-time, 90 days, as_of 30 days ago',
      `${base}/cycle-time/?from=${day(nowMs - 119 * DAY_MS)}&to=${day(nowMs - 30 * DAY_MS)}&as_of=${monthAgo}`,
    ],
    ['cycle-time, 90 days, CSV', `${base}/cycle-time/?from=${day(nowMs - 89 * DAY_MS)}&to=${today}&format=csv`],
    ['velocity', `${base}/velocity/`],
    ['velocity, as_of 30 days ago', `${base}/velocity/?as_of=${monthAgo}`],
    ['velocity, CSV', `${base}/velocity/?format=csv`],
  ];
  const only = process.env.ONLY;

  console.log(
    `# bench:reports on ${ctx.dialect}: ${TASKS} tasks, ${activityRows} activity rows, ${SPRINTS} sprints (seeded in ${seedSeconds.toFixed(0)} s), ${REQUESTS} requests per read, one at a time`,
  );
  console.log(
    `load before: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  // The first report builds the project's summary (src/modules/reports/history-cache.ts).
  const coldStarted = performance.now();
  const coldCpu = process.cpuUsage();
  await get(`${base}/burndown/?sprint=${active.id}`);
  const cold = process.cpuUsage(coldCpu);
  console.log(
    `first report after start (builds the summary): ${(performance.now() - coldStarted).toFixed(0)} ms, CPU ${((cold.user + cold.system) / 1000).toFixed(0)} ms`,
  );
  console.log('| read | p50 ms | p99 ms | CPU ms per request: service / database | response KB | p99 < 200 ms |');
  console.log('|---|---|---|---|---|---|');
  // A write before each report: the summary then reads the written task again (not the project).
  let edits = 0;
  const writeThenGet = async (url: string) => {
    edits++;
    const res = await app.inject({
      method: 'PUT',
      url: `/api/v1/tasks/${key}-${1 + (edits % TASKS)}/`,
      headers,
      payload: { estimate: 1 + (edits % 13) },
    });
    if (res.statusCode !== 200) throw new Error(`PUT answered ${res.statusCode}: ${res.body}`);
    return get(url);
  };
  reads.push(
    ["PUT of one task's estimate, then GET task (the write's cost)", `/api/v1/tasks/${key}-1/`],
    ["PUT of one task's estimate, then flow, 30 days", `${base}/flow/?from=${day(nowMs - 29 * DAY_MS)}&to=${today}`],
  );
  for (const [name, url] of reads) {
    if (only && !name.includes(only) && !name.startsWith('baseline')) continue;
    const size = (await get(url)).rawPayload.length / 1024;
    const figures = await measure(
      name.startsWith('PUT') ? () => writeThenGet(url) : () => get(url),
      REQUESTS,
      ctx.dialect === 'postgres' ? ctx.db : null,
    );
    const goal = name.startsWith('baseline') ? '' : figures.p99 < GOAL_P99_MS ? 'yes' : '**no**';
    console.log(
      `| ${name} | ${figures.p50.toFixed(2)} | ${figures.p99.toFixed(2)} | ${cpuOf(figures)} | ${size.toFixed(1)} | ${goal} |`,
    );
  }
  console.log(
    `load after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  await close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
