import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { createTask, events, outboxRows, principalOf, projectTeam } from '../helpers/factory.ts';

describe('comments: author edits, author or admin deletes, comment.created', () => {
  let h: TestHarness;
  let owner: Actor;
  let alice: Actor;
  let bob: Actor;
  let projectAdmin: Actor;
  let viewer: Actor;
  let outsider: Actor;

  beforeAll(async () => {
    h = await createHarness();
    ({ owner, alice, bob, projectAdmin, viewer, outsider } = await projectTeam(h, 'CMT'));
  });
  afterAll(() => h.close());

  const post = (key: string, body: unknown, token = alice.token, headers: Record<string, string> = {}) =>
    h.request('POST', `/api/v1/tasks/${key}/comments/`, { token, body, headers });

  it('posting returns 201 with the comment; markdown is stored and returned exactly as sent', async () => {
    const task = await createTask(h, owner, 'CMT');
    const body = '  # Heading  \n\n* item with trailing spaces  \n\t`code`\r\n<script>alert(1)</script> 🚀 émoji\n\n';
    const res = await post(task.key, { body });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      task: task.key,
      author: { id: alice.accountId, name: (await principalOf(h, alice)).userName },
      body,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      updated_at: res.body.data.created_at,
      edited: false,
    });
    const read = await h.request('GET', `/api/v1/comments/${res.body.data.id}/`, { token: viewer.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(res.body.data);
  });

  it('posting writes a comment.created outbox event {comment, task: {key, title}} and a "commented" activity, in the same transaction', async () => {
    const task = await createTask(h, owner, 'CMT', { title: 'Discuss me' });
    const res = await post(task.key, { body: 'First!' }, alice.token, { 'x-request-id': 'req-comment-1' });
    const rows = await outboxRows(h, 'comment.created');
    const mine = rows.map((r) => JSON.parse(r.envelope)).filter((e) => e.data.task.key === task.key);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: 'comment.created',
      api_version: 'v1',
      source: 'api',
      correlation_id: 'req-comment-1',
      actor: { id: alice.accountId },
      data: { comment: res.body.data, task: { key: task.key, title: 'Discuss me' } },
    });
    expect(rows.find((r) => JSON.parse(r.envelope).id === mine[0].id)).toMatchObject({
      actor_id: alice.accountId,
      fanned_out_at: null,
    });

    const activity = await h.request('GET', `/api/v1/tasks/${task.key}/activities/`, { token: alice.token });
    expect(activity.body.data[0]).toMatchObject({
      action: 'commented',
      field: null,
      from: null,
      to: res.body.data.id,
      actor: { id: alice.accountId },
    });
  });

  it('a refused comment writes nothing: no row, no event, no activity', async () => {
    const task = await createTask(h, owner, 'CMT');
    const commentEvents = async () => (await events(h, 'comment.created')).length;
    const before = await commentEvents();
    expect((await post(task.key, { body: '' })).status).toBe(400);
    expect((await post(task.key, { body: 'x' }, viewer.token)).status).toBe(403);
    expect(await commentEvents()).toBe(before);
    expect((await h.request('GET', `/api/v1/tasks/${task.key}/comments/`, { token: alice.token })).body.data).toEqual(
      [],
    );
  });

  it('validates the body: 1-65,536 characters, not blank, no U+0000, a string, nothing else', async () => {
    const task = await createTask(h, owner, 'CMT');
    const refused: unknown[] = [
      {},
      { body: '' },
      { body: ' \n\t ' },
      { body: 'x'.repeat(65537) },
      { body: 'nul\u0000byte' },
      { body: 42 },
      { body: null },
      { body: 'ok', extra: true },
    ];
    for (const body of refused) {
      const res = await post(task.key, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const longest = await post(task.key, { body: '😀'.repeat(65536) });
    expect(longest.status).toBe(201);
    expect(longest.body.data.body).toBe('😀'.repeat(65536));
  });

  it("lists a task's comments oldest first by default, newest first with ordering=-created_at, paginated", async () => {
    const task = await createTask(h, owner, 'CMT');
    const ids: number[] = [];
    for (const [i, actor] of [alice, bob, alice].entries()) {
      h.clock.advance(1000);
      ids.push((await post(task.key, { body: `comment ${i}` }, actor.token)).body.data.id);
    }
    const list = await h.request('GET', `/api/v1/tasks/${task.key}/comments/`, { token: viewer.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { id: number }) => c.id)).toEqual(ids);
    expect(list.body.pagination).toEqual({ count: 3, limit: 50, offset: 0 });
    const newest = await h.request('GET', `/api/v1/tasks/${task.key}/comments/?ordering=-created_at&limit=2`, {
      token: viewer.token,
    });
    expect(newest.body.data.map((c: { id: number }) => c.id)).toEqual([ids[2], ids[1]]);
    const cursor = await h.request('GET', `/api/v1/tasks/${task.key}/comments/?cursor=&limit=2`, {
      token: viewer.token,
    });
    expect(cursor.body.pagination).toMatchObject({ limit: 2, has_more: true });
    expect(
      (await h.request('GET', `/api/v1/tasks/${task.key}/comments/?ordering=body`, { token: viewer.token })).status,
    ).toBe(400);
  });

  it('only the author edits: 200 with edited=true and a new updated_at; the same text again is not an edit', async () => {
    const task = await createTask(h, owner, 'CMT');
    const created = (await post(task.key, { body: 'draft' })).body.data;
    const same = await h.request('PUT', `/api/v1/comments/${created.id}/`, {
      token: alice.token,
      body: { body: 'draft' },
    });
    expect(same.status).toBe(200);
    expect(same.body.data).toEqual(created);

    h.clock.advance(5000);
    const edited = await h.request('PUT', `/api/v1/comments/${created.id}/`, {
      token: alice.token,
      body: { body: 'final **text**' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toEqual({
      ...created,
      body: 'final **text**',
      edited: true,
      updated_at: expect.any(String),
    });
    expect(edited.body.data.updated_at > created.updated_at).toBe(true);
    expect((await h.request('GET', `/api/v1/comments/${created.id}/`, { token: bob.token })).body.data).toEqual(
      edited.body.data,
    );
  });

  it('nobody else edits a comment, project and workspace admins included (403 FORBIDDEN); the body is unchanged', async () => {
    const task = await createTask(h, owner, 'CMT');
    const created = (await post(task.key, { body: 'mine' })).body.data;
    for (const actor of [bob, projectAdmin, owner, viewer]) {
      const res = await h.request('PUT', `/api/v1/comments/${created.id}/`, {
        token: actor.token,
        body: { body: 'hijacked' },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect((await h.request('GET', `/api/v1/comments/${created.id}/`, { token: alice.token })).body.data.body).toBe(
      'mine',
    );
  });

  it("delete: another member 403; the author 204; a project admin or workspace admin may remove anyone's (moderation)", async () => {
    const task = await createTask(h, owner, 'CMT');
    const first = (await post(task.key, { body: 'one' })).body.data;
    const second = (await post(task.key, { body: 'two' })).body.data;
    const third = (await post(task.key, { body: 'three' })).body.data;

    for (const actor of [bob, viewer]) {
      const res = await h.request('DELETE', `/api/v1/comments/${first.id}/`, { token: actor.token });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect((await h.request('DELETE', `/api/v1/comments/${first.id}/`, { token: alice.token })).status).toBe(204);
    expect((await h.request('DELETE', `/api/v1/comments/${second.id}/`, { token: projectAdmin.token })).status).toBe(
      204,
    );
    expect((await h.request('DELETE', `/api/v1/comments/${third.id}/`, { token: owner.token })).status).toBe(204);
    expect((await h.request('GET', `/api/v1/comments/${first.id}/`, { token: alice.token })).status).toBe(404);
    expect((await h.request('DELETE', `/api/v1/comments/${first.id}/`, { token: alice.token })).status).toBe(404);
    expect((await h.request('GET', `/api/v1/tasks/${task.key}/comments/`, { token: alice.token })).body.data).toEqual(
      [],
    );
  });

  it('project viewers read comments but cannot post, edit or delete them (403)', async () => {
    const task = await createTask(h, owner, 'CMT');
    const created = (await post(task.key, { body: 'visible to viewers' })).body.data;
    expect((await h.request('GET', `/api/v1/tasks/${task.key}/comments/`, { token: viewer.token })).status).toBe(200);
    const res = await post(task.key, { body: 'can I?' }, viewer.token);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await h.request('DELETE', `/api/v1/comments/${created.id}/`, { token: viewer.token })).status).toBe(403);
  });

  it('a comment whose author was demoted to viewer can no longer be edited by them', async () => {
    const demoted = await h.actor({ org: owner.org, role: 'member' });
    await h.addMember('CMT', demoted.accountId, 'member');
    const task = await createTask(h, owner, 'CMT');
    const created = (await post(task.key, { body: 'before demotion' }, demoted.token)).body.data;
    await h.addMember('CMT', demoted.accountId, 'viewer');
    const res = await h.request('PUT', `/api/v1/comments/${created.id}/`, {
      token: demoted.token,
      body: { body: 'after' },
    });
    expect(res.status).toBe(403);
  });

  it('an invisible task or comment is 404 on every route (not a member, or a token restricted to another project)', async () => {
    const task = await createTask(h, owner, 'CMT');
    const created = (await post(task.key, { body: 'secret' })).body.data;
    await h.project(owner, 'ELSE');
    const { token: elsewhere } = await h.tokenFor(owner.accountId, undefined, ['ELSE']);
    for (const token of [outsider.token, elsewhere]) {
      expect((await h.request('GET', `/api/v1/tasks/${task.key}/comments/`, { token })).status).toBe(404);
      expect((await post(task.key, { body: 'x' }, token)).status).toBe(404);
      expect((await h.request('GET', `/api/v1/comments/${created.id}/`, { token })).status).toBe(404);
      expect((await h.request('PUT', `/api/v1/comments/${created.id}/`, { token, body: { body: 'x' } })).status).toBe(
        404,
      );
      expect((await h.request('DELETE', `/api/v1/comments/${created.id}/`, { token })).status).toBe(404);
    }
    expect((await post('CMT-99999', { body: 'x' })).status).toBe(404);
    expect((await h.request('GET', '/api/v1/comments/99999999/', { token: alice.token })).status).toBe(404);
  });

  it('deleting the task deletes its comments', async () => {
    const task = await createTask(h, owner, 'CMT');
    const created = (await post(task.key, { body: 'goes with the task' })).body.data;
    expect((await h.request('DELETE', `/api/v1/tasks/${task.key}/`, { token: owner.token })).status).toBe(204);
    expect((await h.request('GET', `/api/v1/comments/${created.id}/`, { token: alice.token })).status).toBe(404);
  });

  it('Idempotency-Key: a retried post creates one comment and one event', async () => {
    const task = await createTask(h, owner, 'CMT');
    const headers = { 'idempotency-key': `comment-${task.key}` };
    const first = await post(task.key, { body: 'once' }, alice.token, headers);
    const again = await post(task.key, { body: 'once' }, alice.token, headers);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(
      (await h.request('GET', `/api/v1/tasks/${task.key}/comments/`, { token: alice.token })).body.data,
    ).toHaveLength(1);
  });
});
