import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { notifyAboutEvents } from '../../src/modules/notifications/notify.service.ts';
import { emitDueSoon, notifyOverdue } from '../../src/worker/scheduler.ts';
import { freshDatabase } from '../helpers/database.ts';
import { removeMember } from '../helpers/factory.ts';
import { type Actor, createHarness, type TestHarness } from '../helpers/harness.ts';
import { changeOf, type LiveClient, openLive } from '../helpers/live.ts';
import { person } from '../helpers/people.ts';

describe('notifications: who is told, and the inbox API', () => {
  let h: TestHarness;
  let lead: Actor;
  let ann: Actor;
  let bob: Actor;
  let outsider: Actor;

  const handle = async (actor: Actor, value: string) => {
    const res = await h.request('PATCH', '/api/v1/me/', { token: actor.token, body: { handle: value } });
    expect(res.status, res.text).toBe(200);
  };
  const inbox = async (actor: Actor, query = '') => {
    const res = await h.request('GET', `/api/v1/me/notifications/${query}`, { token: actor.token });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const reasons = async (actor: Actor) =>
    (await inbox(actor)).data.map((n: { reason: string; task: { key: string } | null }) => [n.reason, n.task?.key]);
  const createTask = async (by: Actor, project: string, body: Record<string, unknown>) => {
    const res = await h.request('POST', `/api/v1/projects/${project}/tasks/`, { token: by.token, body });
    expect(res.status, res.text).toBe(201);
    return res.body.data.key as string;
  };
  const patchTask = async (by: Actor, key: string, body: Record<string, unknown>) => {
    const res = await h.request('PUT', `/api/v1/tasks/${key}/`, { token: by.token, body });
    expect(res.status, res.text).toBe(200);
  };
  const comment = async (by: Actor, key: string, body: string) => {
    const res = await h.request('POST', `/api/v1/tasks/${key}/comments/`, { token: by.token, body: { body } });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as number;
  };
  const notify = () => notifyAboutEvents(h.ctx);

  beforeAll(async () => {
    h = await createHarness();
    lead = await h.actor({ role: 'admin' });
    ann = await h.actor({ org: lead.org, role: 'member' });
    bob = await h.actor({ org: lead.org, role: 'member' });
    outsider = await h.actor({ org: lead.org, role: 'member' });
    await handle(lead, 'lead');
    await handle(ann, 'ann');
    await handle(bob, 'bob');
    await handle(outsider, 'outsider');
    await h.project(lead, 'NOTE');
    await h.project(lead, 'SIDE');
    await h.addMember('NOTE', ann.accountId);
    await h.addMember('NOTE', bob.accountId);
    await h.addMember('SIDE', ann.accountId);
    await notify();
  });
  afterAll(() => h.close());

  it('assigned and mentioned on create; the actor and non-members are never told; one notification per person per action', async () => {
    const key = await createTask(lead, 'NOTE', {
      title: 'Ship it',
      description: 'For @ann and @bob. Also @lead, @outsider, @nobody and mail@bob.example.',
      assignee: ann.accountId,
    });
    // Nothing is told in the request: the worker judges the committed change.
    expect((await inbox(ann)).data).toEqual([]);
    expect(await notify()).toBeGreaterThan(0);

    const annInbox = await inbox(ann);
    expect(annInbox.data).toEqual([
      {
        id: expect.any(Number),
        reason: 'assigned',
        created_at: expect.any(String),
        read_at: null,
        actor: { id: lead.accountId, name: expect.any(String) },
        task: { key, title: 'Ship it' },
        comment: null,
        text: expect.stringContaining(`assigned ${key}`),
      },
    ]);
    expect(await reasons(bob)).toEqual([['mentioned', key]]);
    expect(await reasons(lead)).toEqual([]);
    expect(await reasons(outsider)).toEqual([]);
    expect(await notify()).toBe(0);
  });

  it('status changes, updates and comments reach followers (assignee and creator by default); a mention ends at the first non-handle character', async () => {
    const key = await createTask(ann, 'NOTE', { title: 'Follow me', assignee: bob.accountId });
    await notify();
    const follow = await h.request('POST', `/api/v1/tasks/${key}/follow/`, { token: lead.token });
    expect(follow.status, follow.text).toBe(200);
    const before = {
      ann: (await inbox(ann)).data.length,
      bob: (await inbox(bob)).data.length,
      lead: (await inbox(lead)).data.length,
    };

    await patchTask(lead, key, { status: 'In Progress' });
    await notify();
    expect((await reasons(ann))[0]).toEqual(['status_changed', key]);
    expect((await reasons(bob))[0]).toEqual(['status_changed', key]);
    expect((await inbox(lead)).data.length).toBe(before.lead);

    await patchTask(bob, key, { title: 'Follow me now' });
    await notify();
    expect((await inbox(ann)).data[0]).toMatchObject({ reason: 'updated', text: expect.stringContaining('title') });
    expect((await reasons(lead))[0]).toEqual(['updated', key]);
    expect((await inbox(bob)).data.length).toBe(before.bob + 1);

    const id = await comment(lead, key, 'Done yet, @bob. Ask @ann.');
    await notify();
    expect((await inbox(bob)).data[0]).toMatchObject({ reason: 'mentioned', comment: id });
    expect((await inbox(ann)).data[0]).toMatchObject({ reason: 'mentioned', comment: id });
    expect((await inbox(ann)).data.length).toBe(before.ann + 3);
  });

  it('an update names a custom field by its name and a select value by its option, not by their ids', async () => {
    const field = await h.request('POST', '/api/v1/custom-fields/', {
      token: lead.token,
      body: { name: 'Severity', type: 'select', options: ['low', 'high'] },
    });
    expect(field.status, field.text).toBe(201);
    const [low, high] = field.body.data.options as Array<{ id: number }>;
    const key = await createTask(lead, 'NOTE', { title: 'Rate me', assignee: ann.accountId });
    await patchTask(lead, key, { custom_fields: { [field.body.data.id]: low!.id } });
    await notify();
    await patchTask(lead, key, { title: 'Rated', custom_fields: { [field.body.data.id]: high!.id } });
    await notify();
    const [latest] = (await inbox(ann)).data;
    expect(latest).toMatchObject({ reason: 'updated', text: expect.stringMatching(/ changed title, Severity of /) });
    const stored = await h.ctx.db
      .selectFrom('notifications')
      .select('body')
      .where('id', '=', latest.id)
      .executeTakeFirstOrThrow();
    expect(stored.body).toBe('title: "Rate me" → "Rated"\nSeverity: "low" → "high"');
  });

  it('the assignee and the creator can unfollow: no more status changes, updates or comments until they follow again', async () => {
    const key = await createTask(ann, 'NOTE', { title: 'Quiet', assignee: bob.accountId });
    await notify();
    const count = async (actor: Actor) => (await inbox(actor)).data.length;
    for (const who of [ann, bob]) {
      const res = await h.request('DELETE', `/api/v1/tasks/${key}/follow/`, { token: who.token });
      expect(res.status, res.text).toBe(204);
    }
    const before = { ann: await count(ann), bob: await count(bob) };
    await patchTask(lead, key, { status: 'In Progress' });
    await patchTask(lead, key, { title: 'Quieter' });
    await comment(lead, key, 'Anyone?');
    await notify();
    expect({ ann: await count(ann), bob: await count(bob) }).toEqual(before);
    // A mention still reaches them: it is not about following.
    await comment(lead, key, 'You, @bob');
    await notify();
    expect((await reasons(bob))[0]).toEqual(['mentioned', key]);
    expect(await count(ann)).toBe(before.ann);

    expect((await h.request('POST', `/api/v1/tasks/${key}/follow/`, { token: ann.token })).status).toBe(200);
    await patchTask(lead, key, { title: 'Loud again' });
    await notify();
    expect((await reasons(ann))[0]).toEqual(['updated', key]);
    expect(await count(bob)).toBe(before.bob + 1);
  });

  it('a removed member is not told; a mention of someone outside the project notifies nobody', async () => {
    const key = await createTask(lead, 'NOTE', { title: 'Secret', assignee: bob.accountId });
    await notify();
    const recorded = () =>
      h.ctx.db
        .selectFrom('notifications as n')
        .innerJoin('tasks as t', 't.id', 'n.task_id')
        .select('n.reason')
        .where('t.key', '=', key)
        .where('n.user_id', 'in', [bob.accountId, outsider.accountId])
        .execute();
    expect(await recorded()).toEqual([{ reason: 'assigned' }]);
    await removeMember(h, lead, 'NOTE', bob.accountId);
    await comment(lead, key, 'Hello @bob and @outsider');
    await patchTask(lead, key, { title: 'Still secret' });
    await notify();
    expect(await recorded()).toEqual([{ reason: 'assigned' }]);
    // What Bob was told about NOTE before is hidden while he is not a member.
    expect((await inbox(bob)).data.filter((n: { task: { key: string } }) => n.task.key.startsWith('NOTE-'))).toEqual(
      [],
    );
    expect(await reasons(outsider)).toEqual([]);
    await h.addMember('NOTE', bob.accountId);
    expect((await reasons(bob)).some(([, task]: [string, string]) => task === key)).toBe(true);
  });

  it('due_soon and overdue reach the assignee once per due date, from the scheduler with the injected clock', async () => {
    const key = await createTask(lead, 'SIDE', { title: 'Due', assignee: ann.accountId, due_date: '2026-11-21' });
    const done = await createTask(lead, 'SIDE', { title: 'Done', assignee: ann.accountId, due_date: '2026-11-21' });
    await patchTask(lead, done, { status: 'In Progress' });
    await patchTask(lead, done, { status: 'Done' });
    await notify();
    const before = (await inbox(ann)).data.length;
    await emitDueSoon(h.ctx);
    await notify();
    expect(
      (await inbox(ann)).data.slice(0, 2).map((n: { reason: string; task: { key: string } }) => [n.reason, n.task.key]),
    ).toEqual([
      ['due_soon', key],
      ['status_changed', done],
    ]);
    expect((await inbox(ann)).data[0]).toMatchObject({
      actor: null,
      text: expect.stringContaining('is due on 2026-11-21'),
    });

    expect(await notifyOverdue(h.ctx)).toBe(0);
    h.clock.set('2026-11-22T00:30:00Z');
    expect(await notifyOverdue(h.ctx)).toBe(1);
    expect(await notifyOverdue(h.ctx)).toBe(0);
    const overdue = (await inbox(ann, '?reason=overdue')).data;
    expect(overdue).toEqual([expect.objectContaining({ reason: 'overdue', task: { key, title: 'Due' }, actor: null })]);
    expect((await inbox(ann)).data.length).toBe(before + 2);
    // A new due date is a new occurrence.
    await patchTask(lead, key, { due_date: '2026-11-20' });
    expect(await notifyOverdue(h.ctx)).toBe(1);
  });

  it('lists newest first, paginated, filtered by unread and reason; marks read by id and all', async () => {
    const key = await createTask(lead, 'SIDE', { title: 'Side', assignee: ann.accountId });
    await notify();
    const all = await inbox(ann);
    expect(all.data[0]).toMatchObject({ reason: 'assigned', task: { key } });
    const ids = all.data.map((n: { id: number }) => n.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.pagination).toMatchObject({ count: ids.length, limit: 50, offset: 0 });

    const page = await inbox(ann, '?limit=1&offset=1');
    expect(page.data.map((n: { id: number }) => n.id)).toEqual([ids[1]]);

    const mentioned = await inbox(ann, '?reason=mentioned');
    expect(mentioned.data.every((n: { reason: string }) => n.reason === 'mentioned')).toBe(true);
    const two = await inbox(ann, '?reason=mentioned,assigned');
    expect(new Set(two.data.map((n: { reason: string }) => n.reason))).toEqual(new Set(['mentioned', 'assigned']));
    const bad = await h.request('GET', '/api/v1/me/notifications/?reason=assigned,nope', { token: ann.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');

    const read = await h.request('POST', '/api/v1/me/notifications/read/', {
      token: ann.token,
      body: { ids: [ids[0], (await inbox(bob)).data[0].id] },
    });
    expect(read.status, read.text).toBe(200);
    // Bob's id is not Ann's to mark.
    expect(read.body.data).toEqual({ read: 1 });
    expect((await inbox(bob)).data[0].read_at).toBeNull();
    const unread = await inbox(ann, '?unread=true');
    expect(unread.data.map((n: { id: number }) => n.id)).toEqual(ids.slice(1));

    const everything = await h.request('POST', '/api/v1/me/notifications/read/', {
      token: ann.token,
      body: { all: true },
    });
    expect(everything.body.data).toEqual({ read: ids.length - 1 });
    expect((await inbox(ann, '?unread=true')).data).toEqual([]);
    for (const body of [{}, { ids: [] }, { all: false }, { ids: [1], all: true }]) {
      const res = await h.request('POST', '/api/v1/me/notifications/read/', { token: ann.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('a token restricted to projects sees only theirs (and those about no task); no scope is needed', async () => {
    const restricted = await h.tokenFor(ann.accountId, ['webhooks:read'], ['SIDE']);
    const res = await h.request('GET', '/api/v1/me/notifications/', { token: restricted.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.every((n: { task: { key: string } }) => n.task.key.startsWith('SIDE-'))).toBe(true);
    const noScope = await h.tokenFor(ann.accountId, ['webhooks:read']);
    expect((await h.request('GET', '/api/v1/me/notifications/', { token: noScope.token })).body.data.length).toBe(
      (await inbox(ann)).data.length,
    );
  });

  it('preferences: defaults, a PATCH naming only what changes, and in-app off keeps a reason out of the inbox', async () => {
    const got = await h.request('GET', '/api/v1/me/notification-preferences/', { token: bob.token });
    expect(got.status).toBe(200);
    expect(got.body.data.reasons).toEqual({
      assigned: { in_app: true, email: true },
      mentioned: { in_app: true, email: true },
      commented: { in_app: true, email: false },
      status_changed: { in_app: true, email: false },
      updated: { in_app: true, email: false },
      due_soon: { in_app: true, email: false },
      overdue: { in_app: true, email: false },
      blocked: { in_app: true, email: false },
      standup_reminder: { in_app: true, email: true },
      endpoint_disabled: { in_app: true, email: true },
    });
    const patched = await h.request('PATCH', '/api/v1/me/notification-preferences/', {
      token: bob.token,
      body: { reasons: { assigned: { in_app: false }, commented: { email: true } } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.reasons.assigned).toEqual({ in_app: false, email: true });
    expect(patched.body.data.reasons.commented).toEqual({ in_app: true, email: true });
    expect(patched.body.data.reasons.mentioned).toEqual({ in_app: true, email: true });
    for (const body of [{ reasons: { nope: { email: true } } }, { reasons: { assigned: { sms: true } } }, {}]) {
      const res = await h.request('PATCH', '/api/v1/me/notification-preferences/', { token: bob.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }

    const before = (await inbox(bob)).data.length;
    await createTask(lead, 'NOTE', { title: 'Quiet', assignee: bob.accountId });
    await notify();
    expect((await inbox(bob)).data.length).toBe(before);
  });
});

describe('notifications over the live stream', () => {
  let h: TestHarness;
  let base: string;

  beforeAll(async () => {
    h = await createHarness({
      config: { live: { heartbeatMs: 15_000, pollMs: 100, maxStreamsPerPerson: 3, maxStreamsPerOrganization: 100 } },
    });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => h.close());

  it('a notification reaches its recipient only; marking it read tells their other tabs', async () => {
    const ann = await person(h, { role: 'member' });
    const bob = await person(h, { org: ann.org, role: 'member' });
    const bot = await h.actor({ org: ann.org, role: 'admin' });
    await h.project(bot, 'LIVN');
    await h.addMember('LIVN', ann.userId);
    await h.addMember('LIVN', bob.userId);
    const streams = await Promise.all(
      [ann, bob].map(async (who) => {
        const client = await openLive(base, { headers: { cookie: who.cookie } });
        expect(client.status, client.body).toBe(200);
        await client.waitFor((e) => e.event === 'ready');
        return client;
      }),
    );
    const [annStream, bobStream] = streams as [LiveClient, LiveClient];

    const created = await h.request('POST', '/api/v1/projects/LIVN/tasks/', {
      token: bot.token,
      body: { title: 'Live one', assignee: ann.userId },
    });
    const key = created.body.data.key as string;
    await notifyAboutEvents(h.ctx);
    const isNotification = (e: { event?: string; data: string }) =>
      e.event === 'change' && changeOf(e as never).kind === 'notification';
    const arrived = await annStream.waitFor(isNotification);
    expect(changeOf(arrived)).toEqual({ kind: 'notification', project: 'LIVN', key, action: 'created', version: null });

    const [notification] = (await ann.request('GET', '/api/v1/me/notifications/')).body.data;
    expect((await ann.request('POST', '/api/v1/me/notifications/read/', { ids: [notification.id] })).status).toBe(200);
    const read = await annStream.waitFor((e) => isNotification(e) && changeOf(e).action === 'read');
    expect(changeOf(read).key).toBe(key);

    // Bob saw the task's changes, never Ann's notification.
    await bobStream.waitFor((e) => e.event === 'change' && changeOf(e).key === key);
    expect(bobStream.events.filter(isNotification)).toEqual([]);
    for (const client of streams) client.close();
  });
});

describe('the notifications migration', () => {
  it('gives existing notices the reason endpoint_disabled, and marks recorded events notified', async () => {
    const database = await freshDatabase({ migratedTo: '0023_retention' });
    try {
      const db = database.db;
      const at = '2026-01-01T00:00:00.000000Z';
      const org = (
        await sql<{ id: number }>`INSERT INTO organizations (name, slug, created_at)
          VALUES ('m', 'm', ${at}) RETURNING id`.execute(db)
      ).rows[0]!.id;
      const user = (
        await sql<{ id: number }>`INSERT INTO users (organization_id, kind, email, name, role, created_at, handle)
          VALUES (${org}, 'human', 'o@m.test', 'O', 'owner', ${at}, 'o') RETURNING id`.execute(db)
      ).rows[0]!.id;
      await sql`INSERT INTO notifications (organization_id, user_id, kind, subject, body, data, created_at)
        VALUES (${org}, ${user}, 'webhook_endpoint_disabled', 'Webhook endpoint 4 was disabled', 'b', '{}', ${at})`.execute(
        db,
      );
      await sql`INSERT INTO event_outbox (event_id, type, organization_id, project_id, actor_id, correlation_id, envelope, occurred_at)
        VALUES ('evt_1', 'task.created', ${org}, NULL, ${user}, 'c1', '{}', ${at})`.execute(db);

      expect(await migrateToLatest(database)).toContain('0024_notifications');
      const notices = await db.selectFrom('notifications').select(['reason', 'in_app', 'task_id']).execute();
      expect(notices).toEqual([{ reason: 'endpoint_disabled', in_app: 1, task_id: null }]);
      const events = await db.selectFrom('event_outbox').select('notified_at').execute();
      expect(events).toEqual([{ notified_at: at }]);
    } finally {
      await database.close();
    }
  });
});
