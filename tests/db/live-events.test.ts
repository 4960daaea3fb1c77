import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentPosition, readLiveEvents } from '../../src/modules/live/live.repository.ts';
import type { LivePosition } from '../../src/modules/live/position.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { addLabel, addMilestone, addSprint, createTask, projectId, taskId } from '../helpers/factory.ts';

describe('live_events: what the triggers record and how readers follow commits', () => {
  let h: TestHarness;
  let ann: Actor;

  beforeAll(async () => {
    h = await createHarness();
    ann = await h.actor({ role: 'member' });
    await h.project(ann, 'EVT');
  });
  afterAll(() => h.close());

  const readOnce = (after: LivePosition) => readLiveEvents(h.ctx.db, h.ctx.dialect, after, 200);
  /** Reads until nothing is held back: on a shared PostgreSQL server, other databases' transactions hold rows back for a moment. */
  const read = async (after: LivePosition) => {
    for (let i = 0; ; i++) {
      const result = await readOnce(after);
      if (!result.held || i === 100) return result;
      await sleep(20);
    }
  };
  /**
   * Where a test's changes start: the current position once nothing committed earlier is held
   * back behind it (another test file's open transaction on a shared PostgreSQL server holds the
   * position back, and the setup's own rows would then be read as the test's).
   */
  const settledPosition = async () => {
    for (let i = 0; ; i++) {
      const position = await currentPosition(h.ctx.db, h.ctx.dialect);
      const after = await readOnce(position);
      if ((!after.held && after.events.length === 0) || i === 100) return position;
      await sleep(20);
    }
  };
  const summary = (events: Awaited<ReturnType<typeof read>>['events']) =>
    events.map((e) => `${e.kind}:${e.action}:${e.key ?? '-'}:${e.version ?? '-'}`);

  it('records one row per task change (the task counter a creation moves is not a project setting)', async () => {
    const start = await settledPosition();
    const task = await createTask(h, ann, 'EVT');
    await h.request('PUT', `/api/v1/tasks/${task.key}/`, { token: ann.token, body: { title: 'Renamed' } });
    const { events, held } = await read(start);
    expect(held).toBe(false);
    expect(summary(events)).toEqual([`task:created:${task.key}:1`, `task:updated:${task.key}:2`]);
  });

  it('records a link for both of its tasks and an attachment for its task, without a new version', async () => {
    const [a, b] = [await createTask(h, ann, 'EVT'), await createTask(h, ann, 'EVT')];
    const start = await settledPosition();
    const link = await h.request('POST', `/api/v1/tasks/${a.key}/link/`, {
      token: ann.token,
      body: { task: b.key, type: 'blocks' },
    });
    expect(link.status, link.text).toBe(201);
    const attachment = await h.ctx.db
      .insertInto('attachments')
      .values({
        task_id: await taskId(h, b.key),
        storage_name: 'x',
        filename: 'x.txt',
        content_type: 'text/plain',
        size: 1,
        sha256: '0'.repeat(64),
        uploaded_by: null,
        created_at: h.clock.nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.ctx.db.deleteFrom('attachments').where('id', '=', attachment.id).execute();
    const { events } = await read(start);
    expect(summary(events)).toEqual([
      `task:links:${a.key}:1`,
      `task:links:${b.key}:1`,
      `task:attachments:${b.key}:1`,
      `task:attachments:${b.key}:1`,
    ]);
  });

  it('records changes of project settings written by any hand', async () => {
    const start = await settledPosition();
    const label = await addLabel(h, 'EVT', 'bug');
    await addMilestone(h, 'EVT', 'v1');
    await addSprint(h, 'EVT', 'S1');
    await h.ctx.db.updateTable('labels').set({ color: '#ff0000' }).where('id', '=', label).execute();
    await h.ctx.db.deleteFrom('labels').where('id', '=', label).execute();
    const { events } = await read(start);
    expect(summary(events)).toEqual([
      'project:labels:-:-',
      'project:milestones:-:-',
      'project:sprints:-:-',
      'project:labels:-:-',
      'project:labels:-:-',
    ]);
    expect(events.every((e) => e.project === 'EVT')).toBe(true);
  });

  it('resumes strictly after a position, in order', async () => {
    const start = await settledPosition();
    const tasks = [await createTask(h, ann, 'EVT'), await createTask(h, ann, 'EVT'), await createTask(h, ann, 'EVT')];
    const all = (await read(start)).events;
    expect(all.map((e) => e.key)).toEqual(tasks.map((t) => t.key));
    expect((await read(all[0]!.position)).events.map((e) => e.key)).toEqual(tasks.slice(1).map((t) => t.key));
    expect((await read(all[2]!.position)).events).toEqual([]);
    expect(await currentPosition(h.ctx.db, h.ctx.dialect)).toEqual(all[2]!.position);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'PostgreSQL: does not move past a row a transaction still running may commit before it',
    async () => {
      const project = await projectId(h, 'EVT');
      const config = h.ctx.database.pgClientConfig!;
      const early = new pg.Client(config);
      const late = new pg.Client(config);
      await early.connect();
      await late.connect();
      try {
        const start = await settledPosition();
        const insert = `INSERT INTO live_events (project_id, kind, action) VALUES (${project}, 'project', $1)`;
        // `early` takes its sequence value first but commits last: ids alone would let a reader skip it.
        await early.query('BEGIN');
        await early.query(insert, ['early']);
        await late.query('BEGIN');
        await late.query(insert, ['late']);
        await late.query('COMMIT');

        const waiting = await readOnce(start);
        expect(waiting).toEqual({ events: [], held: true });

        await early.query('COMMIT');
        const done = await read(start);
        expect(done.held).toBe(false);
        expect(done.events.map((e) => e.action)).toEqual(['early', 'late']);
      } finally {
        await early.end();
        await late.end();
      }
    },
  );
});
