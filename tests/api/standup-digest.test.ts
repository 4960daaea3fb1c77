import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendStandupDigests } from '../../src/modules/notifications/standup-digest.ts';
import { type Actor, createHarness, type TestHarness } from '../helpers/harness.ts';
import { type Browser, person } from '../helpers/people.ts';

type Person = Browser & { email: string; org: string };

describe('the daily digest: a standup reminder at the team time', () => {
  let h: TestHarness;
  let lead: Actor;
  let ann: Person;
  let bob: Person;
  let cat: Person;
  let annHandle: string;
  let leadName: string;
  let bobName: string;
  let size: { id: number; options: Array<{ id: number; value: string }> };

  const send = () => sendStandupDigests(h.ctx);
  const digestsOf = (userId: number) =>
    h.ctx.db
      .selectFrom('notifications')
      .select(['subject', 'body', 'data', 'in_app', 'project_id', 'task_id', 'actor_id'])
      .where('user_id', '=', userId)
      .where('reason', '=', 'standup_reminder')
      .orderBy('id')
      .execute();
  const dates = async (userId: number) =>
    (await digestsOf(userId)).map((n) => (JSON.parse(n.data) as { date: string }).date);
  const createTask = async (body: Record<string, unknown>) => {
    const res = await h.request('POST', '/api/v1/projects/DIG/tasks/', { token: lead.token, body });
    expect(res.status, res.text).toBe(201);
    return res.body.data.key as string;
  };
  const update = async (key: string, body: Record<string, unknown>) => {
    const res = await h.request('PUT', `/api/v1/tasks/${key}/`, { token: lead.token, body });
    expect(res.status, res.text).toBe(200);
  };

  beforeAll(async () => {
    h = await createHarness();
    ann = await person(h, { role: 'member' });
    bob = await person(h, { org: ann.org, role: 'member' });
    cat = await person(h, { org: ann.org, role: 'member' });
    lead = await h.actor({ org: ann.org, role: 'admin' });
    await h.project(lead, 'DIG');
    await h.project(lead, 'HID');
    for (const p of [ann, bob, cat]) await h.addMember('DIG', p.userId);
    await h.addMember('HID', bob.userId);
    annHandle = (await ann.request('GET', '/api/v1/me/')).body.data.account.handle;
    leadName = (
      await h.ctx.db.selectFrom('users').select('name').where('id', '=', lead.accountId).executeTakeFirstOrThrow()
    ).name;
    bobName = (await bob.request('GET', '/api/v1/me/')).body.data.account.name;
    const field = await h.request('POST', '/api/v1/custom-fields/', {
      token: lead.token,
      body: { name: 'Size', type: 'select', options: ['S', 'L'] },
    });
    expect(field.status, field.text).toBe(201);
    size = field.body.data;
  });
  afterAll(() => h.close());

  it('comes once at the reminder time of a standup day to each person who has not checked in, holding their day', async () => {
    // Monday 23 November 2026, before the default 09:30 UTC.
    h.clock.set('2026-11-23T08:00:00Z');
    const doing = await createTask({ title: 'Doing it', assignee: ann.userId });
    await update(doing, { status: 'In Progress' });
    const waiting = await createTask({ title: 'Not started', assignee: ann.userId });
    const followed = await createTask({ title: 'Bob’s', assignee: bob.userId });
    const hidden = await h.request('POST', '/api/v1/projects/HID/tasks/', {
      token: lead.token,
      body: { title: 'Secret', assignee: bob.userId },
    });
    expect((await ann.request('POST', `/api/v1/tasks/${followed}/follow/`)).status).toBe(200);
    await update(followed, {
      title: 'Bob’s renamed',
      status: 'In Progress',
      custom_fields: { [size.id]: size.options[1]!.id },
    });
    const declared = await bob.request('PUT', '/api/v1/standups/me/', {
      done: '',
      doing: '',
      blockers: [
        { text: `waiting for @${annHandle}`, task: null },
        { text: 'her task is stuck', task: doing },
        { text: 'not about ann', task: null },
        { text: `secret, @${annHandle}`, task: hidden.body.data.key },
      ],
    });
    expect(declared.status, declared.text).toBe(200);
    expect((await cat.request('POST', '/api/v1/standups/me/skip/')).status).toBe(200);

    h.clock.set('2026-11-23T09:29:59Z');
    expect(await send()).toBe(0);

    h.clock.set('2026-11-23T09:30:00Z');
    // Two workers at once: one digest each (bob submitted and cat skipped today; the lead is a service account).
    const [a, b] = await Promise.all([send(), send()]);
    expect(a + b).toBe(1);
    expect(await send()).toBe(0);
    h.clock.set('2026-11-23T18:00:00Z');
    expect(await send()).toBe(0);

    const [digest] = await digestsOf(ann.userId);
    expect(await digestsOf(bob.userId)).toEqual([]);
    expect(await digestsOf(cat.userId)).toEqual([]);
    // Her own tasks count as followed (assignee and creator follow by default); nothing of HID, which she cannot see.
    expect(digest).toEqual({
      subject: 'Standup for 2026-11-23: 1 task in flight, 3 followed tasks changed, 2 blockers naming you',
      body: [
        'Your tasks in flight:',
        `- ${doing} “Doing it” (In Progress)`,
        '',
        'Changed on tasks you follow since your last digest:',
        `- ${doing} “Doing it”: created, status (${leadName})`,
        `- ${waiting} “Not started”: created (${leadName})`,
        `- ${followed} “Bob’s renamed”: created, title, status, Size (${leadName})`,
        '',
        'Blockers that name you:',
        `- ${bobName}: waiting for @${annHandle}`,
        `- ${bobName} on ${doing}: her task is stuck`,
      ].join('\n'),
      data: JSON.stringify({ date: '2026-11-23', link: '/standups?tab=me&prefill=1' }),
      in_app: 1,
      project_id: null,
      task_id: null,
      actor_id: null,
    });

    const inbox = await ann.request('GET', '/api/v1/me/notifications/?reason=standup_reminder');
    expect(inbox.body.data).toEqual([
      {
        id: expect.any(Number),
        reason: 'standup_reminder',
        created_at: expect.any(String),
        read_at: null,
        actor: null,
        task: null,
        comment: null,
        text: digest!.subject,
      },
    ]);
  });

  it('tells only what changed since the previous digest, on standup days only', async () => {
    h.clock.set('2026-11-23T12:00:00Z');
    const key = await createTask({ title: 'Later', assignee: ann.userId });
    // Saturday and Sunday are not standup days.
    for (const at of ['2026-11-28T10:00:00Z', '2026-11-29T10:00:00Z']) {
      h.clock.set(at);
      expect(await send()).toBe(0);
    }
    expect(await dates(ann.userId)).toEqual(['2026-11-23']);
    h.clock.set('2026-11-24T09:30:00Z');
    // She unfollows a task of hers: its changes are no longer hers to hear of.
    const unfollowed = await createTask({ title: 'Not mine to watch', assignee: ann.userId });
    expect((await ann.request('DELETE', `/api/v1/tasks/${unfollowed}/follow/`)).status).toBe(204);
    // Nobody has checked in on Tuesday yet.
    expect(await send()).toBe(3);
    const [, tuesday] = await digestsOf(ann.userId);
    expect(tuesday!.body).toContain(
      ['Changed on tasks you follow since your last digest:', `- ${key} “Later”: created (${leadName})`, ''].join('\n'),
    );
    // Bob's latest entry (Monday's) still declares them; his next one, without them, clears them.
    expect(tuesday!.body).toContain(`Blockers that name you:\n- ${bobName}: waiting for @${annHandle}\n`);
    h.clock.set('2026-11-25T08:00:00Z');
    expect((await bob.request('PUT', '/api/v1/standups/me/', { blockers: [] })).status).toBe(200);
    h.clock.set('2026-11-25T09:30:00Z');
    await send();
    const [, , wednesday] = await digestsOf(ann.userId);
    expect(wednesday!.body.endsWith('Blockers that name you:\n- none')).toBe(true);
    expect(await dates(bob.userId)).toEqual(['2026-11-24']);
  });

  it('comes at the reminder time of the timezone the team has then, once per team day across timezone changes', async () => {
    const admin = await person(h, { role: 'admin' });
    const dan = await person(h, { org: admin.org, role: 'member' });
    const settings = async (body: Record<string, unknown>) =>
      expect((await admin.request('PATCH', '/api/v1/standups/settings/', body)).status).toBe(200);
    const at = async (iso: string) => {
      h.clock.set(iso);
      await send();
      return dates(dan.userId);
    };
    // Before the organization's settings exist, the defaults: 09:30 UTC, Monday to Friday.
    expect(await at('2026-11-25T09:29:00Z')).toEqual([]);
    expect(await at('2026-11-25T09:30:00Z')).toEqual(['2026-11-25']);
    await settings({ timezone: 'America/Los_Angeles', reminder_time: '09:00' });
    // 09:00 on Wednesday in Los Angeles: that team day had its digest already.
    expect(await at('2026-11-25T17:00:00Z')).toEqual(['2026-11-25']);
    await settings({ timezone: 'Pacific/Auckland' });
    // Thursday begins in Auckland at 11:00 UTC on Wednesday; its 09:00 is 20:00 UTC.
    expect(await at('2026-11-25T19:59:00Z')).toEqual(['2026-11-25']);
    expect(await at('2026-11-25T20:00:00Z')).toEqual(['2026-11-25', '2026-11-26']);
    // Moving back west: Wednesday afternoon again in Los Angeles, whose digest is behind it.
    await settings({ timezone: 'America/Los_Angeles' });
    expect(await at('2026-11-25T22:00:00Z')).toEqual(['2026-11-25', '2026-11-26']);
    expect(await at('2026-11-26T17:00:00Z')).toEqual(['2026-11-25', '2026-11-26']);
    expect(await at('2026-11-27T16:59:00Z')).toEqual(['2026-11-25', '2026-11-26']);
    expect(await at('2026-11-27T17:00:00Z')).toEqual(['2026-11-25', '2026-11-26', '2026-11-27']);
    // Standup days as the team sets them: no Monday any more.
    await settings({ days: ['tue', 'wed', 'thu', 'fri'] });
    expect(await at('2026-11-30T18:00:00Z')).toEqual(['2026-11-25', '2026-11-26', '2026-11-27']);
  });

  it('follows the preferences: in the app only, or not at all (and not again that day)', async () => {
    const admin = await person(h, { role: 'admin' });
    const eve = await person(h, { org: admin.org, role: 'member' });
    const fay = await person(h, { org: admin.org, role: 'member' });
    const prefer = async (who: Person, delivery: { in_app: boolean; email: boolean }) =>
      expect(
        (
          await who.request('PATCH', '/api/v1/me/notification-preferences/', {
            reasons: { standup_reminder: delivery },
          })
        ).status,
      ).toBe(200);
    await prefer(eve, { in_app: true, email: false });
    await prefer(fay, { in_app: false, email: false });
    h.clock.set('2026-12-01T09:30:00Z');
    await send();
    expect((await digestsOf(eve.userId)).map((n) => n.in_app)).toEqual([1]);
    expect(await digestsOf(fay.userId)).toEqual([]);
    await prefer(fay, { in_app: true, email: false });
    h.clock.set('2026-12-01T10:30:00Z');
    await send();
    expect(await digestsOf(fay.userId)).toEqual([]);
  });
});
