import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { setTimezone, submit, TIMESTAMP, update } from '../helpers/standups.ts';
import { createTaskAlong, standupTeam } from '../helpers/factory.ts';

const DAY1 = '2026-11-21';
const DAY2 = '2026-11-22';

describe('standup entries: me, submit, redraft, skip, team list, history', () => {
  let h: TestHarness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it('GET me is 404 NOT_FOUND naming the day until something is written, and reading creates nothing', async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const { ann } = await standupTeam(h, ['ann']);
    const res = await h.request('GET', '/api/v1/standups/me/', { token: ann.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', details: { date: DAY1 } });
    expect(res.body.error.message).toContain('PUT /api/v1/standups/me/');
    const listed = await h.request('GET', '/api/v1/standups/', { token: ann.token });
    expect(listed.body.data).toEqual([]);
  });

  it("PUT me submits today's entry for the token's account, freezing its worklist as tasks", async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const { lead, ann } = await standupTeam(h, ['ann']);
    const doing = await createTaskAlong(h, lead, 'WEB', 'Build login', {
      assignee: ann.accountId,
      path: ['In Progress'],
    });
    await createTaskAlong(h, lead, 'WEB', 'Not started', { assignee: ann.accountId });
    await createTaskAlong(h, lead, 'WEB', "Someone else's", { assignee: lead.accountId, path: ['In Progress'] });

    const entry = await submit(h, ann, {
      done: 'Set up CI',
      doing: 'Login page',
      blockers: [{ text: 'Waiting on design', task: doing }],
    });
    expect(entry).toEqual({
      id: expect.any(Number),
      user: ann.accountId,
      date: DAY1,
      state: 'submitted',
      done: 'Set up CI',
      doing: 'Login page',
      blockers: [{ text: 'Waiting on design', task: doing }],
      tasks: [{ key: doing, title: 'Build login', status: 'In Progress', status_category: 'in_progress' }],
      submitted_at: TIMESTAMP,
      created_at: TIMESTAMP,
      updated_at: entry.submitted_at,
    });
    const me = await h.request('GET', '/api/v1/standups/me/', { token: ann.token });
    expect(me.body.data).toEqual(entry);
  });

  it('no write names another person: a `user` field is refused everywhere and queries cannot redirect the write', async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const { ann, bob } = await standupTeam(h, ['ann', 'bob']);
    for (const [method, url] of [
      ['PUT', '/api/v1/standups/me/'],
      ['POST', '/api/v1/standups/me/redraft/'],
      ['POST', '/api/v1/standups/me/skip/'],
    ] as const) {
      const res = await h.request(method, url, { token: ann.token, body: { user: bob.accountId } });
      expect(res.status, `${method} ${url}`).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { fields: { user: 'is not a known field' } },
      });
    }
    const res = await h.request('PUT', `/api/v1/standups/me/?user=${bob.accountId}`, {
      token: ann.token,
      body: { done: 'mine' },
    });
    expect(res.body.data.user).toBe(ann.accountId);
    expect((await h.request('GET', '/api/v1/standups/me/', { token: bob.token })).status).toBe(404);
  });

  it('PUT me validates blockers: a task must be one the writer can see; blank text is refused', async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const { lead, ann } = await standupTeam(h, ['ann']);
    const hidden = await createTaskAlong(h, lead, 'OPS', 'Ops only');
    const res = await h.request('PUT', '/api/v1/standups/me/', {
      token: ann.token,
      body: {
        blockers: [
          { text: '  ', task: null },
          { text: 'x', task: hidden },
          { text: 'y', task: 'WEB-999' },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.details.fields).sort()).toEqual([
      'blockers[0].text',
      'blockers[1].task',
      'blockers[2].task',
    ]);
    expect(
      (
        await h.request('PUT', '/api/v1/standups/me/', {
          token: ann.token,
          body: { blockers: [{ text: 'x', task: 'web-1' }] },
        })
      ).status,
    ).toBe(400);
  });

  it('an entry written yesterday keeps its task titles and statuses after the tasks are renamed, moved and deleted today', async () => {
    h.clock.set(`${DAY1}T16:00:00Z`);
    const { lead, ann, bob } = await standupTeam(h, ['ann', 'bob']);
    const renamed = await createTaskAlong(h, lead, 'WEB', 'Old title', {
      assignee: ann.accountId,
      path: ['In Progress'],
    });
    const moved = await createTaskAlong(h, lead, 'WEB', 'Review me', {
      assignee: ann.accountId,
      path: ['In Progress', 'In Review'],
    });
    const deleted = await createTaskAlong(h, lead, 'WEB', 'Doomed', { assignee: ann.accountId, path: ['In Progress'] });
    const written = await submit(h, ann, {
      done: 'yesterday',
      blockers: [{ text: 'Needs a decision', task: deleted }],
    });
    const frozen = [
      { key: deleted, title: 'Doomed', status: 'In Progress', status_category: 'in_progress' },
      { key: moved, title: 'Review me', status: 'In Review', status_category: 'in_progress' },
      { key: renamed, title: 'Old title', status: 'In Progress', status_category: 'in_progress' },
    ];
    expect(written.tasks).toEqual(frozen);

    h.clock.set(`${DAY2}T10:00:00Z`);
    await update(h, lead, renamed, { title: 'New title', status: 'To Do' });
    await update(h, lead, moved, { status: 'Done' });
    expect((await h.request('DELETE', `/api/v1/tasks/${deleted}/`, { token: lead.token })).status).toBe(204);

    const history = await h.request('GET', `/api/v1/standups/history/${ann.accountId}/`, { token: bob.token });
    expect(history.status).toBe(200);
    expect(history.body.data).toEqual([{ ...written, tasks: frozen }]);
    expect(history.body.data[0].blockers).toEqual([{ text: 'Needs a decision', task: deleted }]);
    const thatDay = await h.request('GET', `/api/v1/standups/?date=${DAY1}`, { token: bob.token });
    expect(thatDay.body.data).toEqual([written]);
    // The live worklist, by contrast, already reflects today.
    const live = await h.request('GET', `/api/v1/standups/worklist/${ann.accountId}/`, { token: bob.token });
    expect(live.body.data).toEqual([]);
  });

  it('submitting again the same day edits the entry; omitted fields keep their values and the snapshot is retaken', async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const { lead, ann } = await standupTeam(h, ['ann']);
    const first = await submit(h, ann, { done: 'a', doing: 'b', blockers: [{ text: 'c' }] });
    const key = await createTaskAlong(h, lead, 'WEB', 'Picked up', { assignee: ann.accountId, path: ['In Progress'] });
    h.clock.advance(60_000);
    const second = await submit(h, ann, { doing: 'b2' });
    expect(second).toMatchObject({
      id: first.id,
      done: 'a',
      doing: 'b2',
      blockers: [{ text: 'c', task: null }],
      created_at: first.created_at,
    });
    expect(second.tasks.map((t: { key: string }) => t.key)).toEqual([key]);
    expect(second.submitted_at > first.submitted_at).toBe(true);
  });

  it("redraft rebuilds today's draft from activity since the last entry and the live worklist, without submitting", async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const { lead, ann, bob } = await standupTeam(h, ['ann', 'bob']);
    const earlier = await createTaskAlong(h, ann, 'WEB', 'Before last entry', { assignee: ann.accountId });
    await submit(h, ann, { done: 'day one', blockers: [{ text: 'Waiting for API keys' }] });

    h.clock.set(`${DAY2}T08:00:00Z`);
    const finished = await createTaskAlong(h, ann, 'WEB', 'Ship it', {
      assignee: ann.accountId,
      path: ['In Progress', 'Done'],
    });
    const touched = await createTaskAlong(h, lead, 'WEB', 'Refactor', {
      assignee: ann.accountId,
      path: ['In Progress'],
    });
    await update(h, ann, touched, { description: 'half done' });
    const untouched = await createTaskAlong(h, lead, 'WEB', 'Docs', { assignee: ann.accountId, path: ['In Progress'] });
    await createTaskAlong(h, lead, 'WEB', "Lead's own work", { assignee: lead.accountId, path: ['In Progress'] });

    const res = await h.request('POST', '/api/v1/standups/me/redraft/', { token: ann.token });
    expect(res.status).toBe(200);
    const draft = res.body.data;
    expect(draft).toMatchObject({ user: ann.accountId, date: DAY2, state: 'draft', tasks: [], submitted_at: null });
    expect(draft.done.split('\n')).toEqual([`- ${finished} Ship it: moved to Done`, `- ${touched} Refactor: updated`]);
    expect(draft.done).not.toContain(earlier);
    expect(draft.doing.split('\n').sort()).toEqual(
      [`- ${touched} Refactor (In Progress)`, `- ${untouched} Docs (In Progress)`].sort(),
    );
    expect(draft.blockers).toEqual([{ text: 'Waiting for API keys', task: null }]);

    // A draft is its author's: others do not see it in the team list.
    const asBob = await h.request('GET', '/api/v1/standups/', { token: bob.token });
    expect(asBob.body.data).toEqual([]);
    const asAnn = await h.request('GET', '/api/v1/standups/', { token: ann.token });
    expect(asAnn.body.data).toEqual([draft]);

    // PUT {} submits the draft as it is.
    const submitted = await submit(h, ann);
    expect(submitted).toMatchObject({
      id: draft.id,
      state: 'submitted',
      done: draft.done,
      doing: draft.doing,
      blockers: draft.blockers,
    });
    expect(submitted.tasks.map((t: { key: string }) => t.key).sort()).toEqual([finished, touched, untouched].sort());

    // Once submitted, redraft and skip are refused and change nothing.
    for (const url of ['/api/v1/standups/me/redraft/', '/api/v1/standups/me/skip/']) {
      const refused = await h.request('POST', url, { token: ann.token, body: {} });
      expect(refused.status, url).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'STANDUP_ALREADY_SUBMITTED', details: { date: DAY2 } });
    }
    expect((await h.request('GET', '/api/v1/standups/me/', { token: ann.token })).body.data).toEqual(submitted);
  });

  it('redraft without any earlier entry looks back to the start of yesterday', async () => {
    h.clock.set(`${DAY1}T23:00:00Z`);
    const { ann } = await standupTeam(h, ['ann']);
    const yesterday = await createTaskAlong(h, ann, 'WEB', 'Late night', { assignee: ann.accountId });
    h.clock.set('2026-11-23T09:00:00Z');
    const twoDaysAgo = await h.request('POST', '/api/v1/standups/me/redraft/', { token: ann.token });
    expect(twoDaysAgo.body.data.done).toBe('');
    h.clock.set(`${DAY2}T09:00:00Z`);
    const res = await h.request('POST', '/api/v1/standups/me/redraft/', { token: ann.token });
    expect(res.body.data.done).toBe(`- ${yesterday} Late night: created`);
  });

  it('skip marks today skipped (idempotent, drops a draft); redraft reopens it; PUT submits over it', async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const { lead, ann, bob } = await standupTeam(h, ['ann', 'bob']);
    await createTaskAlong(h, lead, 'WEB', 'Work', { assignee: ann.accountId, path: ['In Progress'] });
    const draft = (await h.request('POST', '/api/v1/standups/me/redraft/', { token: ann.token })).body.data;
    expect(draft.doing).not.toBe('');

    h.clock.advance(1000);
    const skipped = await h.request('POST', '/api/v1/standups/me/skip/', { token: ann.token });
    expect(skipped.status).toBe(200);
    expect(skipped.body.data).toMatchObject({
      id: draft.id,
      state: 'skipped',
      done: '',
      doing: '',
      blockers: [],
      tasks: [],
      submitted_at: null,
    });
    h.clock.advance(1000);
    const again = await h.request('POST', '/api/v1/standups/me/skip/', { token: ann.token, body: {} });
    expect(again.body.data).toEqual(skipped.body.data);
    // Skipped days are shown to the team.
    const listed = await h.request('GET', '/api/v1/standups/?state=skipped', { token: bob.token });
    expect(listed.body.data).toEqual([skipped.body.data]);

    const redrafted = await h.request('POST', '/api/v1/standups/me/redraft/', { token: ann.token });
    expect(redrafted.body.data).toMatchObject({ id: draft.id, state: 'draft', doing: draft.doing });
    await h.request('POST', '/api/v1/standups/me/skip/', { token: ann.token });
    const submitted = await submit(h, ann, { done: 'changed my mind' });
    expect(submitted).toMatchObject({ id: draft.id, state: 'submitted', done: 'changed my mind', doing: '' });

    // Skipped days appear in history once they are past.
    h.clock.set(`${DAY2}T09:00:00Z`);
    await h.request('POST', '/api/v1/standups/me/skip/', { token: bob.token });
    h.clock.set('2026-11-23T09:00:00Z');
    const history = await h.request('GET', `/api/v1/standups/history/${bob.accountId}/`, { token: ann.token });
    expect(history.body.data.map((e: { date: string; state: string }) => [e.date, e.state])).toEqual([
      [DAY2, 'skipped'],
    ]);
  });

  it("concurrent writes of one person's day queue up: one entry, every answer a 200 or a 409, never a 500", async () => {
    h.clock.set(`${DAY1}T09:00:00Z`);
    const { ann } = await standupTeam(h, ['ann']);
    const writes = [
      ...Array.from({ length: 4 }, (_, i) =>
        h.request('PUT', '/api/v1/standups/me/', {
          token: ann.token,
          body: { done: `v${i}`, blockers: [{ text: `b${i}` }] },
        }),
      ),
      h.request('POST', '/api/v1/standups/me/skip/', { token: ann.token }),
      h.request('POST', '/api/v1/standups/me/redraft/', { token: ann.token }),
    ];
    const statuses = (await Promise.all(writes)).map((r) => r.status);
    expect(
      statuses.every((s) => s === 200 || s === 409),
      statuses.join(),
    ).toBe(true);
    const rows = await h.ctx.db
      .selectFrom('standup_entries')
      .select(['id', 'state'])
      .where('user_id', '=', ann.accountId)
      .execute();
    expect(rows).toEqual([{ id: expect.any(Number), state: 'submitted' }]);
    const blockers = await h.ctx.db
      .selectFrom('standup_blockers')
      .select('text')
      .where('entry_id', '=', rows[0]!.id)
      .execute();
    expect(blockers).toHaveLength(1);
  });

  it("lists the team's entries for a day with user and state filters, paginated; history is newest first", async () => {
    const { ann, bob, cat } = await standupTeam(h, ['ann', 'bob', 'cat']);
    for (const [day, person] of [
      [DAY1, ann],
      [DAY1, bob],
      [DAY2, ann],
      [DAY2, cat],
      ['2026-11-23', ann],
    ] as const) {
      h.clock.set(`${day}T12:00:00Z`);
      await submit(h, person!, { done: `${day}` });
    }
    const day1 = await h.request('GET', `/api/v1/standups/?date=${DAY1}&limit=1`, { token: cat.token });
    expect(day1.body.data.map((e: { user: number }) => e.user)).toEqual([ann.accountId]);
    expect(day1.body.pagination).toEqual({ count: 2, limit: 1, offset: 0 });
    const today = await h.request('GET', '/api/v1/standups/', { token: cat.token });
    expect(today.body.data.map((e: { date: string }) => e.date)).toEqual(['2026-11-23']);
    const bobs = await h.request('GET', `/api/v1/standups/?date=${DAY1}&user=${bob.accountId}`, { token: cat.token });
    expect(bobs.body.data.map((e: { user: number }) => e.user)).toEqual([bob.accountId]);
    expect((await h.request('GET', '/api/v1/standups/?date=21-11-2026', { token: cat.token })).status).toBe(400);

    // History: before today only, newest first, and walkable with a cursor.
    const history = await h.request('GET', `/api/v1/standups/history/${ann.accountId}/`, { token: cat.token });
    expect(history.body.data.map((e: { date: string }) => e.date)).toEqual([DAY2, DAY1]);
    const walked = await h.request('GET', `/api/v1/standups/history/${ann.accountId}/?cursor=&limit=1`, {
      token: cat.token,
    });
    expect(walked.body.pagination.has_more).toBe(true);
  });
});

describe('standups: "today" is the team timezone\'s day (settings)', () => {
  let h: TestHarness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it('04:30Z and 05:30Z are different days in America/New_York: a new entry starts at local midnight', async () => {
    const { lead, ann } = await standupTeam(h, ['ann']);
    await setTimezone(h, lead, 'America/New_York');
    h.clock.set('2026-11-22T04:30:00Z');
    const late = await submit(h, ann, { done: 'late evening' });
    expect(late.date).toBe('2026-11-21');

    h.clock.set('2026-11-22T05:30:00Z');
    const me = await h.request('GET', '/api/v1/standups/me/', { token: ann.token });
    expect(me.status).toBe(404);
    expect(me.body.error.details.date).toBe('2026-11-22');
    const early = await submit(h, ann, { done: 'early morning' });
    expect(early).toMatchObject({ date: '2026-11-22' });
    expect(early.id).not.toBe(late.id);
    const history = await h.request('GET', `/api/v1/standups/history/${ann.accountId}/`, { token: ann.token });
    expect(history.body.data.map((e: { id: number }) => e.id)).toEqual([late.id]);
  });

  it('changing the settings timezone moves the day boundary at once; stored entries keep their dates', async () => {
    const { lead, ann } = await standupTeam(h, ['ann']);
    h.clock.set('2026-11-23T03:00:00Z');
    const utcDay = await submit(h, ann, { done: 'UTC day' });
    expect(utcDay.date).toBe('2026-11-23');

    await setTimezone(h, lead, 'America/New_York');
    const me = await h.request('GET', '/api/v1/standups/me/', { token: ann.token });
    expect(me.status).toBe(404);
    expect(me.body.error.details.date).toBe('2026-11-22');
    const nyDay = await submit(h, ann, { done: 'New York day' });
    expect(nyDay.date).toBe('2026-11-22');

    await setTimezone(h, lead, 'UTC');
    expect((await h.request('GET', '/api/v1/standups/me/', { token: ann.token })).body.data).toMatchObject({
      id: utcDay.id,
      date: '2026-11-23',
    });
  });

  it('the worklist\'s "changed today" follows the team day', async () => {
    const { lead, ann } = await standupTeam(h, ['ann']);
    await setTimezone(h, lead, 'America/New_York');
    h.clock.set('2026-11-22T04:30:00Z'); // 23:30 on the 21st in New York
    const key = await createTaskAlong(h, lead, 'WEB', 'Touched late', { assignee: ann.accountId });
    await update(h, ann, key, { description: 'late edit' });
    const url = `/api/v1/standups/worklist/${ann.accountId}/`;
    expect((await h.request('GET', url, { token: lead.token })).body.data).toMatchObject([
      { key, changed_today: true },
    ]);
    h.clock.set('2026-11-22T05:30:00Z'); // 00:30 on the 22nd
    expect((await h.request('GET', url, { token: lead.token })).body.data).toEqual([]);
  });
});
