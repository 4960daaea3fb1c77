import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { submit, TIMESTAMP, update } from '../helpers/standups.ts';
import { createTaskAlong, insertLink, standupTeam } from '../helpers/factory.ts';

const DAY1 = '2026-11-21';
const DAY2 = '2026-11-22';

/** Link rows are written directly: the links API is another module's. */
const link = insertLink;

const keys = (body: { data: Array<{ key: string }> }) => body.data.map((item) => item.key).sort();

describe("standup worklist: live, from the person's tasks", () => {
  let h: TestHarness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it("lists the person's assigned in-progress tasks plus those they changed today, live", async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const { lead, ann } = await standupTeam(h, ['ann']);
    const inProgress = await createTaskAlong(h, lead, 'WEB', 'In flight', {
      assignee: ann.accountId,
      path: ['In Progress'],
    });
    const inReview = await createTaskAlong(h, lead, 'WEB', 'Under review', {
      assignee: ann.accountId,
      path: ['In Progress', 'In Review'],
    });
    await createTaskAlong(h, lead, 'WEB', 'Backlog', { assignee: ann.accountId });
    const finishedToday = await createTaskAlong(h, lead, 'WEB', 'Finished', {
      assignee: ann.accountId,
      path: ['In Progress'],
    });
    await update(h, ann, finishedToday, { status: 'Done' });
    const editedToday = await createTaskAlong(h, lead, 'WEB', 'Edited', { assignee: ann.accountId });
    await update(h, ann, editedToday, { priority: 'High' });
    await createTaskAlong(h, lead, 'WEB', 'Not hers', { assignee: lead.accountId, path: ['In Progress'] });

    const res = await h.request('GET', `/api/v1/standups/worklist/${ann.accountId}/`, { token: lead.token });
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual([inProgress, inReview, finishedToday, editedToday].sort());
    expect(res.body.data.find((i: { key: string }) => i.key === finishedToday)).toEqual({
      key: finishedToday,
      project: 'WEB',
      title: 'Finished',
      status: 'Done',
      status_category: 'done',
      priority: 'Medium',
      changed_today: true,
      updated_at: TIMESTAMP,
    });
    expect(res.body.data.find((i: { key: string }) => i.key === inProgress).changed_today).toBe(false);
    expect(res.body.pagination).toEqual({ count: 4, limit: 50, offset: 0 });

    // Tomorrow only in-progress work remains: "changed today" is today only.
    h.clock.set(`${DAY2}T09:00:00Z`);
    const tomorrow = await h.request('GET', `/api/v1/standups/worklist/${ann.accountId}/`, { token: lead.token });
    expect(keys(tomorrow.body)).toEqual([inProgress, inReview].sort());
  });

  it('changes immediately when a task is reassigned', async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const { lead, ann, bob } = await standupTeam(h, ['ann', 'bob']);
    const key = await createTaskAlong(h, lead, 'WEB', 'Handover', { assignee: ann.accountId, path: ['In Progress'] });
    const of = (person: Actor) =>
      h.request('GET', `/api/v1/standups/worklist/${person.accountId}/`, { token: lead.token });
    expect(keys((await of(ann)).body)).toEqual([key]);
    expect(keys((await of(bob)).body)).toEqual([]);

    await update(h, lead, key, { assignee: bob.accountId });
    expect(keys((await of(ann)).body)).toEqual([]);
    expect(keys((await of(bob)).body)).toEqual([key]);

    const assign = await h.request('POST', `/api/v1/tasks/${key}/assign/`, {
      token: lead.token,
      body: { assignee: null },
    });
    expect(assign.status).toBe(200);
    expect(keys((await of(bob)).body)).toEqual([]);
  });

  it('shows only tasks of projects the caller can see; a user of another organization (or none) is 404', async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const { lead, ann, vic } = await standupTeam(h, ['ann', 'vic'], { ops: ['ann'] });
    const web = await createTaskAlong(h, lead, 'WEB', 'Web work', { assignee: ann.accountId, path: ['In Progress'] });
    const ops = await createTaskAlong(h, lead, 'OPS', 'Ops work', { assignee: ann.accountId, path: ['In Progress'] });
    const url = `/api/v1/standups/worklist/${ann.accountId}/`;
    expect(keys((await h.request('GET', url, { token: lead.token })).body)).toEqual([ops, web].sort());
    expect(keys((await h.request('GET', url, { token: vic.token })).body)).toEqual([web]);
    const restricted = await h.tokenFor(lead.accountId, ['standups:read'], ['OPS']);
    expect(keys((await h.request('GET', url, { token: restricted.token })).body)).toEqual([ops]);

    const stranger = await h.actor();
    for (const path of [
      `/api/v1/standups/worklist/${ann.accountId}/`,
      `/api/v1/standups/history/${ann.accountId}/`,
      '/api/v1/standups/worklist/999999/',
    ]) {
      const res = await h.request('GET', path, { token: stranger.token });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });
});

describe('standup history and team list visibility: frozen entries, only what the caller can see', () => {
  let h: TestHarness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it('omits snapshot tasks and blockers of projects the caller cannot see', async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const { lead, ann, vic } = await standupTeam(h, ['ann', 'vic'], { ops: ['ann'] });
    const web = await createTaskAlong(h, lead, 'WEB', 'Web work', { assignee: ann.accountId, path: ['In Progress'] });
    const ops = await createTaskAlong(h, lead, 'OPS', 'Secret ops work', {
      assignee: ann.accountId,
      path: ['In Progress'],
    });
    const written = await submit(h, ann, {
      done: 'things',
      blockers: [
        { text: 'General', task: null },
        { text: 'Ops outage', task: ops },
        { text: 'Web review', task: web },
      ],
    });
    expect(written.tasks.map((t: { key: string }) => t.key).sort()).toEqual([ops, web].sort());

    h.clock.set(`${DAY2}T09:00:00Z`);
    const asVic = await h.request('GET', `/api/v1/standups/history/${ann.accountId}/`, { token: vic.token });
    expect(asVic.body.data).toHaveLength(1);
    expect(asVic.body.data[0].tasks.map((t: { key: string }) => t.key)).toEqual([web]);
    expect(asVic.body.data[0].blockers).toEqual([
      { text: 'General', task: null },
      { text: 'Web review', task: web },
    ]);
    expect(JSON.stringify(asVic.body)).not.toContain('Secret');

    const asLead = await h.request('GET', `/api/v1/standups/history/${ann.accountId}/`, { token: lead.token });
    expect(asLead.body.data[0]).toEqual(written);

    // The same rule in the team list, and even for the author's own token when it is restricted.
    const list = await h.request('GET', `/api/v1/standups/?date=${DAY1}`, { token: vic.token });
    expect(list.body.data[0].tasks.map((t: { key: string }) => t.key)).toEqual([web]);
    const annWebOnly = await h.tokenFor(ann.accountId, ['standups:read'], ['WEB']);
    const own = await h.request('GET', `/api/v1/standups/?date=${DAY1}`, { token: annWebOnly.token });
    expect(own.body.data[0].blockers).toHaveLength(2);

    // A deleted project's tasks stay hidden rather than becoming visible to everyone.
    const projects = (await h.request('GET', '/api/v1/projects/', { token: lead.token })).body.data as Array<{
      id: number;
      key: string;
    }>;
    const opsId = projects.find((p) => p.key === 'OPS')!.id;
    expect((await h.request('DELETE', `/api/v1/projects/${opsId}/`, { token: lead.token })).status).toBe(204);
    const afterDelete = await h.request('GET', `/api/v1/standups/history/${ann.accountId}/`, { token: lead.token });
    expect(afterDelete.body.data[0].tasks.map((t: { key: string }) => t.key)).toEqual([web]);
    expect(afterDelete.body.data[0].blockers.map((b: { text: string }) => b.text)).toEqual(['General', 'Web review']);
  });

  it("the team list shows only the caller's organization", async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const first = await standupTeam(h, ['ann']);
    const second = await standupTeam(h, ['zed']);
    await submit(h, first.ann, { done: 'a' });
    await submit(h, second.zed, { done: 'z' });
    const res = await h.request('GET', `/api/v1/standups/?user=${first.ann.accountId}`, { token: second.zed.token });
    expect(res.body.data).toEqual([]);
    const own = await h.request('GET', '/api/v1/standups/', { token: second.zed.token });
    expect(own.body.data.map((e: { user: number }) => e.user)).toEqual([second.zed.accountId]);
  });
});

describe("standup blockers: declared in today's entries or by blocks links", () => {
  let h: TestHarness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it("lists today's declared blockers and open tasks blocked by unfinished tasks, with who and since when", async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const { lead, ann, bob, vic } = await standupTeam(h, ['ann', 'bob', 'vic'], { ops: ['ann'] });
    const opsTask = await createTaskAlong(h, lead, 'OPS', 'Ops incident');
    const yesterday = await submit(h, ann, { blockers: [{ text: 'Need  review' }, { text: 'Flaky CI' }] });

    h.clock.set(`${DAY2}T09:00:00Z`);
    // Today: "need review" is declared again (same words, other spacing and case): it keeps yesterday's date.
    const today = await submit(h, ann, { blockers: [{ text: 'need review' }, { text: 'Ops is down', task: opsTask }] });
    await submit(h, bob, { blockers: [] });
    await h.request('POST', '/api/v1/standups/me/redraft/', { token: vic.token }); // drafts declare nothing yet

    const blocking = await createTaskAlong(h, lead, 'WEB', 'API design', { path: ['In Progress'] });
    const blocked = await createTaskAlong(h, lead, 'WEB', 'Client', {});
    const doneBlocker = await createTaskAlong(h, lead, 'WEB', 'Finished dep', { path: ['In Progress', 'Done'] });
    const freed = await createTaskAlong(h, lead, 'WEB', 'Unblocked', {});
    const closedBlocked = await createTaskAlong(h, lead, 'WEB', 'Closed anyway', { path: ['In Progress', 'Done'] });
    const related = await createTaskAlong(h, lead, 'WEB', 'Related', {});
    const hiddenBlocked = await createTaskAlong(h, lead, 'OPS', 'Hidden blocked', {});
    const webBlockedByOps = await createTaskAlong(h, lead, 'WEB', 'Needs ops', {});

    const open = await link(h, blocking, blocked, bob);
    await link(h, doneBlocker, freed, bob);
    await link(h, blocking, closedBlocked, bob);
    await link(h, blocking, related, bob, 'relates_to');
    await link(h, blocking, hiddenBlocked, lead);
    const cross = await link(h, opsTask, webBlockedByOps, null);

    const asLead = await h.request('GET', '/api/v1/standups/blockers/', { token: lead.token });
    expect(asLead.status).toBe(200);
    expect(asLead.body.data).toEqual([
      {
        source: 'standup',
        text: 'need review',
        task: null,
        blocked_by: null,
        declared_by: ann.accountId,
        since: yesterday.submitted_at,
        entry: today.id,
        link: null,
      },
      {
        source: 'standup',
        text: 'Ops is down',
        task: opsTask,
        blocked_by: null,
        declared_by: ann.accountId,
        since: today.submitted_at,
        entry: today.id,
        link: null,
      },
      {
        source: 'link',
        text: `Blocked by ${blocking} API design`,
        task: blocked,
        blocked_by: blocking,
        declared_by: bob.accountId,
        since: open.created_at,
        entry: null,
        link: open.id,
      },
      expect.objectContaining({
        source: 'link',
        task: hiddenBlocked,
        blocked_by: blocking,
        declared_by: lead.accountId,
      }),
      expect.objectContaining({
        source: 'link',
        task: webBlockedByOps,
        blocked_by: opsTask,
        declared_by: null,
        since: cross.created_at,
      }),
    ]);

    // Vic sees WEB only: no OPS blocker, and the WEB task blocked from OPS without naming its blocker.
    const asVic = await h.request('GET', '/api/v1/standups/blockers/', { token: vic.token });
    expect(asVic.body.data.map((b: { text: string }) => b.text)).toEqual([
      'need review',
      `Blocked by ${blocking} API design`,
      'Blocked by a task in a project you cannot see',
    ]);
    expect(asVic.body.data[2]).toMatchObject({ task: webBlockedByOps, blocked_by: null, link: cross.id });

    // It is live: finishing the blocking task clears its links.
    await update(h, lead, blocking, { status: 'Done' });
    const later = await h.request('GET', '/api/v1/standups/blockers/', { token: vic.token });
    expect(later.body.data.map((b: { source: string }) => b.source)).toEqual(['standup', 'link']);

    // One pagination for both sources: a cursor walk returns every item once.
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await h.request('GET', `/api/v1/standups/blockers/?limit=1&cursor=${cursor}`, { token: lead.token });
      seen.push(...page.body.data.map((b: { text: string }) => b.text));
      if (!page.body.pagination.has_more) break;
      cursor = page.body.pagination.next_cursor;
    }
    expect(seen.sort()).toEqual(
      (await h.request('GET', '/api/v1/standups/blockers/', { token: lead.token })).body.data
        .map((b: { text: string }) => b.text)
        .sort(),
    );
    expect(seen).toHaveLength(3);
  });

  it("yesterday's blockers and other organizations' are not today's", async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const { ann } = await standupTeam(h, ['ann']);
    await submit(h, ann, { blockers: [{ text: 'Old news' }] });
    const other = await standupTeam(h, ['zed']);
    h.clock.set(`${DAY2}T09:00:00Z`);
    await submit(h, other.zed, { blockers: [{ text: 'Elsewhere' }] });
    const res = await h.request('GET', '/api/v1/standups/blockers/', { token: ann.token });
    expect(res.body.data).toEqual([]);
  });
});

describe('standup settings', () => {
  let h: TestHarness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it('reads the defaults until changed, per organization', async () => {
    const { ann } = await standupTeam(h, ['ann']);
    const res = await h.request('GET', '/api/v1/standups/settings/', { token: ann.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      timezone: 'UTC',
      days: ['mon', 'tue', 'wed', 'thu', 'fri'],
      reminder_time: '09:30',
      questions: [
        'What did you do since your last check-in?',
        'What are you working on today?',
        'Is anything blocking you?',
      ],
    });
  });

  it("PATCH changes any subset (canonical timezone, days in week order) for the caller's organization only", async () => {
    const { lead } = await standupTeam(h, []);
    const other = await standupTeam(h, []);
    const res = await h.request('PATCH', '/api/v1/standups/settings/', {
      token: lead.token,
      body: { timezone: 'europe/berlin', days: ['fri', 'mon'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ timezone: 'Europe/Berlin', days: ['mon', 'fri'], reminder_time: '09:30' });
    const next = await h.request('PATCH', '/api/v1/standups/settings/', {
      token: lead.token,
      body: { reminder_time: '10:15', questions: ['Anything?'] },
    });
    expect(next.body.data).toEqual({
      timezone: 'Europe/Berlin',
      days: ['mon', 'fri'],
      reminder_time: '10:15',
      questions: ['Anything?'],
    });
    expect((await h.request('GET', '/api/v1/standups/settings/', { token: lead.token })).body.data).toEqual(
      next.body.data,
    );
    expect((await h.request('GET', '/api/v1/standups/settings/', { token: other.lead.token })).body.data.timezone).toBe(
      'UTC',
    );
  });

  it('an invalid timezone, day, time or question list is a 400 naming the field; nothing changes', async () => {
    const { lead } = await standupTeam(h, []);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ timezone: 'Mars/Olympus_Mons' }, 'timezone'],
      [{ timezone: '+01:00' }, 'timezone'],
      [{ days: ['mon', 'funday'] }, 'days[1]'],
      [{ days: [] }, 'days'],
      [{ days: ['mon', 'mon'] }, 'days'],
      [{ reminder_time: '24:00' }, 'reminder_time'],
      [{ reminder_time: '9:30' }, 'reminder_time'],
      [{ questions: Array.from({ length: 11 }, (_, i) => `Q${i}`) }, 'questions'],
      [{ questions: ['  '] }, 'questions'],
      [{ reminder: '09:00' }, 'reminder'],
    ];
    for (const [body, field] of bad) {
      const res = await h.request('PATCH', '/api/v1/standups/settings/', { token: lead.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(res.body.error.details.fields), JSON.stringify(body)).toContain(field);
    }
    expect((await h.request('GET', '/api/v1/standups/settings/', { token: lead.token })).body.data.timezone).toBe(
      'UTC',
    );
  });

  it('only workspace owners and admins may PATCH (403 FORBIDDEN); scopes are standups:read / standups:write', async () => {
    const { lead, ann } = await standupTeam(h, ['ann']);
    const member = await h.request('PATCH', '/api/v1/standups/settings/', {
      token: ann.token,
      body: { timezone: 'UTC' },
    });
    expect(member.status).toBe(403);
    expect(member.body.error.code).toBe('FORBIDDEN');
    const readOnly = await h.tokenFor(lead.accountId, ['standups:read']);
    const scoped = await h.request('PATCH', '/api/v1/standups/settings/', {
      token: readOnly.token,
      body: { timezone: 'UTC' },
    });
    expect(scoped.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'standups:write' } });
    expect((await h.request('GET', '/api/v1/standups/settings/', { token: readOnly.token })).status).toBe(200);
    const writeOnly = await h.tokenFor(ann.accountId, ['standups:write']);
    expect((await h.request('PUT', '/api/v1/standups/me/', { token: writeOnly.token, body: {} })).status).toBe(200);
  });
});
