import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/accounts/accounts.service.ts';
import { notifyAboutEvents } from '../../src/modules/notifications/notify.service.ts';
import { type Actor, createHarness, type TestHarness } from '../helpers/harness.ts';

const TASKS = 100;
const FOLLOWERS = 45;

describe('notifications of a bulk update followed by many people', () => {
  let h: TestHarness;
  let lead: Actor;
  let keys: string[];
  let followers: number[];

  beforeAll(async () => {
    h = await createHarness();
    lead = await h.actor({ role: 'admin' });
    await h.project(lead, 'BULK');
    const created = await h.request('POST', '/api/v1/projects/BULK/tasks/bulk/', {
      token: lead.token,
      body: { tasks: Array.from({ length: TASKS }, (_, i) => ({ title: `Task ${i}` })) },
    });
    expect(created.status, created.text).toBe(201);
    keys = created.body.data.map((t: { key: string }) => t.key);
    const org = await h.ctx.db
      .selectFrom('users')
      .select('organization_id')
      .where('id', '=', lead.accountId)
      .executeTakeFirstOrThrow();
    const slug = (
      await h.ctx.db
        .selectFrom('organizations')
        .select('slug')
        .where('id', '=', org.organization_id)
        .executeTakeFirstOrThrow()
    ).slug;
    followers = [];
    for (let i = 0; i < FOLLOWERS; i += 1) {
      const account = await createUser(h.ctx, { org: slug, kind: 'service', name: `follower-${i}`, role: 'member' });
      await h.addMember('BULK', account.id, 'viewer');
      followers.push(account.id);
    }
    const tasks = await h.ctx.db.selectFrom('tasks').select('id').where('key', 'in', keys).execute();
    await h.ctx.db
      .insertInto('task_followers')
      .values(
        followers.flatMap((user_id) =>
          tasks.map((t) => ({ task_id: t.id, user_id, created_at: h.ctx.clock.nowIso() })),
        ),
      )
      .execute();
    while ((await notifyAboutEvents(h.ctx)) > 0);
  });
  afterAll(() => h.close());

  it('records every notification of one action in one pass, more than one INSERT can carry', async () => {
    const res = await h.request('POST', '/api/v1/projects/BULK/tasks/bulk-update/', {
      token: lead.token,
      body: { tasks: keys.map((key) => ({ key, title: `Renamed ${key}` })) },
    });
    expect(res.status, res.text).toBe(200);
    expect(await notifyAboutEvents(h.ctx)).toBe(TASKS);
    const notifications = await h.ctx.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('reason', '=', 'updated')
      .executeTakeFirstOrThrow();
    const announced = await h.ctx.db
      .selectFrom('event_outbox')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('type', '=', 'notification.created')
      .executeTakeFirstOrThrow();
    expect([Number(notifications.n), Number(announced.n)]).toEqual([TASKS * FOLLOWERS, TASKS * FOLLOWERS]);
    const one = await h.request('GET', '/api/v1/me/notifications/?limit=200', {
      token: (await h.tokenFor(followers[0]!)).token,
    });
    expect(one.body.data).toHaveLength(TASKS);
  });
});
