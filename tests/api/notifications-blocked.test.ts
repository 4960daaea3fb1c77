import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyAboutEvents } from '../../src/modules/notifications/notify.service.ts';
import { type Actor, createHarness, type TestHarness } from '../helpers/harness.ts';

describe('blocked notifications and task references', () => {
  let h: TestHarness;
  let lead: Actor;
  let ann: Actor;
  let bob: Actor;
  let outsider: Actor;

  const handle = async (actor: Actor, value: string) => {
    const res = await h.request('PATCH', '/api/v1/me/', { token: actor.token, body: { handle: value } });
    expect(res.status, res.text).toBe(200);
  };
  const inbox = async (actor: Actor) => {
    const res = await h.request('GET', '/api/v1/me/notifications/', { token: actor.token });
    expect(res.status, res.text).toBe(200);
    return res.body.data as Array<{ reason: string; task: { key: string } | null; text: string; actor: unknown }>;
  };
  const createTask = async (by: Actor, project: string, body: Record<string, unknown>) => {
    const res = await h.request('POST', `/api/v1/projects/${project}/tasks/`, { token: by.token, body });
    expect(res.status, res.text).toBe(201);
    return res.body.data.key as string;
  };
  const link = async (by: Actor, key: string, other: string, type: string) => {
    const res = await h.request('POST', `/api/v1/tasks/${key}/link/`, { token: by.token, body: { task: other, type } });
    expect(res.status, res.text).toBe(201);
  };
  const standup = async (by: Actor, blockers: Array<{ text: string; task?: string }>) => {
    const res = await h.request('PUT', '/api/v1/standups/me/', { token: by.token, body: { blockers } });
    expect(res.status, res.text).toBe(200);
  };
  const activity = async (reader: Actor, key: string) => {
    const res = await h.request('GET', `/api/v1/tasks/${key}/activities/`, { token: reader.token });
    expect(res.status, res.text).toBe(200);
    return (res.body.data as Array<{ action: string; to: unknown; actor: unknown }>).filter(
      (a) => a.action === 'mentioned_in',
    );
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
    await h.project(lead, 'BLK');
    await h.project(lead, 'HID');
    await h.addMember('BLK', ann.accountId);
    await h.addMember('BLK', bob.accountId);
    await h.addMember('HID', bob.accountId);
    await notify();
  });
  afterAll(() => h.close());

  it('a new blocks link tells the assignee of the blocked task, not the actor, and only when they see both tasks', async () => {
    const blocked = await createTask(lead, 'BLK', { title: 'Launch', assignee: ann.accountId });
    const blocker = await createTask(lead, 'BLK', { title: 'Certificates' });
    const hidden = await createTask(lead, 'HID', { title: 'Secret vendor contract' });
    await notify();
    const before = (await inbox(ann)).length;

    await link(bob, blocker, blocked, 'blocks');
    await notify();
    const [latest] = await inbox(ann);
    expect(latest).toMatchObject({
      reason: 'blocked',
      task: { key: blocked },
      actor: { id: bob.accountId, name: expect.any(String) },
      text: expect.stringContaining(`marked ${blocked} “Launch” as blocked by ${blocker} “Certificates”`),
    });
    expect((await inbox(ann)).length).toBe(before + 1);

    // Ann does not see HID: a task there blocking hers tells her nothing (its title would leak).
    await link(lead, blocked, hidden, 'blocked_by');
    await notify();
    expect((await inbox(ann)).length).toBe(before + 1);
    expect(JSON.stringify(await inbox(ann))).not.toContain('Secret vendor');

    // relates_to is no blocker; and the actor is never told (Ann links her own task).
    const other = await createTask(lead, 'BLK', { title: 'Other' });
    await notify();
    await link(lead, other, blocked, 'relates_to');
    await link(ann, other, blocked, 'blocks');
    await notify();
    expect((await inbox(ann)).length).toBe(before + 1);
  });

  it('a standup blocker tells the assignee of the task it names and the people it names who may see it', async () => {
    const key = await createTask(lead, 'BLK', { title: 'Payments', assignee: ann.accountId });
    const hidden = await createTask(lead, 'HID', { title: 'Hidden work', assignee: bob.accountId });
    await notify();
    const count = {
      ann: (await inbox(ann)).length,
      bob: (await inbox(bob)).length,
      out: (await inbox(outsider)).length,
    };

    await standup(lead, [
      { text: 'Waiting on the bank, @bob and @outsider know', task: key },
      { text: 'Need a laptop from @ann' },
    ]);
    await notify();
    const annInbox = await inbox(ann);
    expect(
      annInbox
        .slice(0, 2)
        .map((n) => [n.reason, n.task?.key ?? null, n.text])
        .sort(),
    ).toEqual(
      [
        ['blocked', key, expect.stringContaining(`declared ${key} “Payments” blocked in a standup`)],
        ['blocked', null, expect.stringContaining('named you in a standup blocker')],
      ].sort(),
    );
    expect(annInbox.length).toBe(count.ann + 2);
    expect((await inbox(bob))[0]).toMatchObject({
      reason: 'blocked',
      task: { key },
      text: expect.stringContaining(`named you in a standup blocker on ${key}`),
    });
    // The outsider is not a member of BLK: the blocker is about a task they cannot see.
    expect((await inbox(outsider)).length).toBe(count.out);

    // Declaring the same blockers again raises nothing new; the author hears nothing of their own.
    await standup(lead, [
      { text: 'Waiting on the bank, @bob and @outsider know', task: key },
      { text: 'Need a laptop from @ann' },
    ]);
    await notify();
    expect((await inbox(ann)).length).toBe(count.ann + 2);
    await standup(bob, [{ text: 'Blocked, says @bob', task: hidden }]);
    await notify();
    expect((await inbox(bob)).length).toBe(count.bob + 1);
  });

  it('a task key in a description or comment records "mentioned in" on that task, shown only to those who see the naming task', async () => {
    const target = await createTask(lead, 'BLK', { title: 'Target' });
    const source = await createTask(lead, 'HID', { title: 'Names it', description: `Depends on ${target}.` });
    await notify();
    // Bob sees both projects; Ann only BLK.
    expect(await activity(bob, target)).toEqual([
      expect.objectContaining({ action: 'mentioned_in', to: { task: source, comment: null }, actor: null }),
    ]);
    expect(await activity(ann, target)).toEqual([]);

    const visible = await createTask(lead, 'BLK', { title: 'Visible' });
    await notify();
    const res = await h.request('POST', `/api/v1/tasks/${visible}/comments/`, {
      token: lead.token,
      body: { body: `See ${target} and ${visible}, not x${target} or /${target}/ or NOPE-1.` },
    });
    expect(res.status, res.text).toBe(201);
    await notify();
    const seen = await activity(ann, target);
    expect(seen).toEqual([
      expect.objectContaining({ action: 'mentioned_in', to: { task: visible, comment: res.body.data.id } }),
    ]);
    // A task naming itself records nothing; an edit records only the keys it adds.
    expect(await activity(ann, visible)).toEqual([]);
    const edit = await h.request('PUT', `/api/v1/tasks/${source}/`, {
      token: lead.token,
      body: { description: `Depends on ${target} and ${visible}.` },
    });
    expect(edit.status, edit.text).toBe(200);
    await notify();
    expect(await activity(bob, target)).toHaveLength(2);
    expect(await activity(bob, visible)).toEqual([expect.objectContaining({ to: { task: source, comment: null } })]);
    expect(await activity(ann, visible)).toEqual([]);
  });
});
