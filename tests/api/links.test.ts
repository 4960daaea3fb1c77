import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { changesFor, createTask, eventsFor } from '../helpers/factory.ts';
import { linkRows } from '../helpers/storage.ts';

describe('dependency links: one row per relationship, seen from either task, no loops of blocks', () => {
  let h: TestHarness;
  let admin: Actor;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    await h.project(admin, 'LNK');
    await h.project(admin, 'OTHER');
  });
  afterAll(() => h.close());

  const link = (key: string, task: string, type: string, token = admin.token) =>
    h.request('POST', `/api/v1/tasks/${key}/link/`, { token, body: { task, type } });
  const links = async (key: string, token = admin.token) => {
    const res = await h.request('GET', `/api/v1/tasks/${key}/links/`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data as Array<{ id: number; type: string; task: { key: string; title: string; status: string } }>;
  };
  const unlink = (key: string, id: number, token = admin.token) =>
    h.request('DELETE', `/api/v1/tasks/${key}/links/${id}/`, { token });
  const tasks = async (n: number, project = 'LNK') => {
    const keys: string[] = [];
    for (let i = 0; i < n; i++) keys.push((await createTask(h, admin, project, { title: `T${i + 1}` })).key);
    return keys;
  };

  it("POST link answers 201 with the link from the requesting task's side", async () => {
    const [a, b] = await tasks(2);
    const res = await link(a!, b!, 'blocks');
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      type: 'blocks',
      task: { key: b, title: 'T2', status: 'To Do' },
      created_by: admin.accountId,
      created_at: expect.stringMatching(/^2026-11-21T09:00:00\.\d{6}Z$/),
    });
  });

  it("reading either task shows the same link (same id) from that task's side", async () => {
    const [a, b, c, d] = await tasks(4);
    const blocks = (await link(a!, b!, 'blocked_by')).body.data;
    const dup = (await link(a!, c!, 'duplicated_by')).body.data;
    const rel = (await link(d!, a!, 'relates_to')).body.data;
    expect((await links(a!)).map((l) => [l.id, l.type, l.task.key])).toEqual([
      [blocks.id, 'blocked_by', b],
      [dup.id, 'duplicated_by', c],
      [rel.id, 'relates_to', d],
    ]);
    expect((await links(b!)).map((l) => [l.id, l.type, l.task.key])).toEqual([[blocks.id, 'blocks', a]]);
    expect((await links(c!)).map((l) => [l.id, l.type, l.task.key])).toEqual([[dup.id, 'duplicates', a]]);
    expect((await links(d!)).map((l) => [l.id, l.type, l.task.key])).toEqual([[rel.id, 'relates_to', a]]);
    // Stored once per relationship.
    expect((await linkRows(h)).filter((row) => [blocks.id, dup.id, rel.id].includes(row.id))).toHaveLength(3);
  });

  it('the list is paginated like every list (offset and cursor modes)', async () => {
    const [hub, ...others] = await tasks(4);
    for (const other of others) expect((await link(hub!, other, 'relates_to')).status).toBe(201);
    const page = await h.request('GET', `/api/v1/tasks/${hub}/links/?limit=2`, { token: admin.token });
    expect(page.body.pagination).toEqual({ count: 3, limit: 2, offset: 0 });
    expect(page.body.data.map((l: { task: { key: string } }) => l.task.key)).toEqual(others.slice(0, 2));
    const cursor = await h.request('GET', `/api/v1/tasks/${hub}/links/?cursor=&limit=2`, { token: admin.token });
    expect(cursor.body.pagination).toMatchObject({ limit: 2, has_more: true });
  });

  it('a blocks loop of 3 tasks is 422 DEPENDENCY_CYCLE; details.path is the loop from the requesting task, first key repeated at the end', async () => {
    const [a, b, c] = await tasks(3);
    expect((await link(a!, b!, 'blocks')).status).toBe(201);
    expect((await link(b!, c!, 'blocks')).status).toBe(201);
    // C blocks A: C → A → B → C, each key blocking the next.
    const res = await link(c!, a!, 'blocks');
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'DEPENDENCY_CYCLE', details: { path: [c, a, b, c] } });
    // The same edge asked for from A ("A blocked_by C"): the loop starts at A.
    const fromA = await link(a!, c!, 'blocked_by');
    expect(fromA.status).toBe(422);
    expect(fromA.body.error.details).toEqual({ path: [a, b, c, a] });
    expect(await links(c!)).toHaveLength(1);
  });

  it('the reverse of a blocks link is a loop of two (422), and the reported loop is a shortest one', async () => {
    const [a, b, c, d] = await tasks(4);
    await link(a!, b!, 'blocks');
    expect((await link(b!, a!, 'blocks')).body.error.details).toEqual({ path: [b, a, b] });
    // A → B → C → D and a shortcut A → D: D blocks A reports D → A → D.
    await link(b!, c!, 'blocks');
    await link(c!, d!, 'blocks');
    await link(a!, d!, 'blocks');
    expect((await link(d!, a!, 'blocks')).body.error.details).toEqual({ path: [d, a, d] });
    expect((await link(d!, b!, 'blocks')).body.error.details).toEqual({ path: [d, b, c, d] });
  });

  it('relates_to and duplicates never form loops: only blocks is checked', async () => {
    const [a, b, c] = await tasks(3);
    expect((await link(a!, b!, 'relates_to')).status).toBe(201);
    expect((await link(b!, c!, 'relates_to')).status).toBe(201);
    expect((await link(c!, a!, 'relates_to')).status).toBe(201);
    expect((await link(a!, b!, 'duplicates')).status).toBe(201);
    expect((await link(b!, c!, 'duplicates')).status).toBe(201);
    expect((await link(c!, a!, 'duplicates')).status).toBe(201);
  });

  it('the mirror of an existing link is 409 DUPLICATE_LINK naming the existing link', async () => {
    const [a, b, c, d] = await tasks(4);
    const blocks = (await link(a!, b!, 'blocks')).body.data;
    const mirror = await link(b!, a!, 'blocked_by');
    expect(mirror.status).toBe(409);
    expect(mirror.body.error).toMatchObject({
      code: 'DUPLICATE_LINK',
      details: { link_id: blocks.id, type: 'blocked_by' },
    });

    const dup = (await link(a!, c!, 'duplicates')).body.data;
    for (const [from, to, type] of [
      [c, a, 'duplicated_by'],
      [c, a, 'duplicates'],
      [a, c, 'duplicates'],
    ]) {
      const res = await link(from!, to!, type!);
      expect(res.status, `${from} ${type} ${to}`).toBe(409);
      expect(res.body.error.details.link_id).toBe(dup.id);
    }

    const rel = (await link(a!, d!, 'relates_to')).body.data;
    const back = await link(d!, a!, 'relates_to');
    expect(back.status).toBe(409);
    expect(back.body.error.details).toEqual({ link_id: rel.id, type: 'relates_to' });
  });

  it('creating the same link twice is 409 DUPLICATE_LINK; different types between the same tasks coexist', async () => {
    const [a, b] = await tasks(2);
    expect((await link(a!, b!, 'blocks')).status).toBe(201);
    const again = await link(a!, b!, 'blocks');
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('DUPLICATE_LINK');
    expect((await link(a!, b!, 'relates_to')).status).toBe(201);
    expect((await links(a!)).map((l) => l.type)).toEqual(['blocks', 'relates_to']);
  });

  it('a self-link is a 400 naming task; bad bodies are 400; an unknown other task is 404', async () => {
    const [a] = await tasks(1);
    const self = await link(a!, a!, 'relates_to');
    expect(self.status).toBe(400);
    expect(self.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: { task: expect.any(String) } },
    });
    expect((await link(a!, 'LNK-1', 'causes')).status).toBe(400);
    expect(
      (await h.request('POST', `/api/v1/tasks/${a}/link/`, { token: admin.token, body: { task: 'LNK-1' } })).status,
    ).toBe(400);
    expect((await link(a!, 'LNK-99999', 'blocks')).status).toBe(404);
    expect((await link('LNK-99999', a!, 'blocks')).status).toBe(404);
  });

  it('DELETE works from either task; both tasks record linked and unlinked activity', async () => {
    const [a, b, c] = await tasks(3);
    const first = (await link(a!, b!, 'blocks')).body.data;
    const second = (await link(a!, c!, 'relates_to')).body.data;
    expect((await unlink(b!, first.id)).status).toBe(204);
    expect(await links(a!)).toHaveLength(1);
    expect(await links(b!)).toEqual([]);
    expect((await unlink(a!, second.id)).status).toBe(204);
    expect(await links(c!)).toEqual([]);
    // Gone, or not a link of this task: 404.
    expect((await unlink(a!, first.id)).status).toBe(404);
    const [d] = await tasks(1);
    const third = (await link(a!, b!, 'relates_to')).body.data;
    expect((await unlink(d!, third.id)).status).toBe(404);

    const activity = async (key: string) =>
      (await h.request('GET', `/api/v1/tasks/${key}/activities/?ordering=created_at`, { token: admin.token })).body.data
        .filter((row: { field: string | null }) => row.field === 'links')
        .map((row: { action: string; from: unknown; to: unknown }) => [row.action, row.from, row.to]);
    expect(await activity(b!)).toEqual([
      ['linked', null, { id: first.id, type: 'blocked_by', task: a }],
      ['unlinked', { id: first.id, type: 'blocked_by', task: a }, null],
      ['linked', null, { id: third.id, type: 'relates_to', task: a }],
    ]);
    expect((await activity(a!))[0]).toEqual(['linked', null, { id: first.id, type: 'blocks', task: b }]);
  });

  it('links are not task fields: no version bump, no change record, no event', async () => {
    const [a, b] = await tasks(2);
    const before = await h.request('GET', `/api/v1/tasks/${a}/`, { token: admin.token });
    const created = (await link(a!, b!, 'blocks')).body.data;
    await unlink(a!, created.id);
    const after = await h.request('GET', `/api/v1/tasks/${a}/`, { token: admin.token });
    expect(after.headers.etag).toBe(before.headers.etag);
    expect(after.body.data).toEqual(before.body.data);
    expect((await changesFor(h, a!)).map((c) => c.action)).toEqual(['created']);
    expect((await eventsFor(h, a!)).map((e) => e.type)).toEqual(['task.created']);
  });

  it('deleting a task removes its links (both sides)', async () => {
    const [a, b] = await tasks(2);
    await link(a!, b!, 'blocks');
    expect((await h.request('DELETE', `/api/v1/tasks/${a}/`, { token: admin.token })).status).toBe(204);
    expect(await links(b!)).toEqual([]);
  });

  it('cross-project links need both tasks visible; callers see only links whose other end they can see', async () => {
    const [mine] = await tasks(1, 'LNK');
    const [theirs] = await tasks(1, 'OTHER');
    const created = await link(mine!, theirs!, 'blocks');
    expect(created.status).toBe(201);
    expect((await links(theirs!)).map((l) => [l.type, l.task.key])).toEqual([['blocked_by', mine]]);

    // A teammate in LNK only, and a token of the admin restricted to LNK.
    const teammate = await h.actor({ org: admin.org, role: 'member' });
    await h.addMember('LNK', teammate.accountId, 'member');
    const restricted = (await h.tokenFor(admin.accountId, undefined, ['LNK'])).token;
    for (const token of [teammate.token, restricted]) {
      expect(await links(mine!, token)).toEqual([]);
      expect((await link(mine!, theirs!, 'relates_to', token)).status).toBe(404);
      expect((await unlink(mine!, created.body.data.id, token)).status).toBe(404);
      expect((await h.request('GET', `/api/v1/tasks/${theirs}/links/`, { token })).status).toBe(404);
    }

    // Another workspace's task is never linkable, even with the same key shape.
    const stranger = await h.actor();
    await h.project(stranger, 'LNK');
    const foreign = await createTask(h, stranger, 'LNK');
    expect((await link(foreign.key, mine!, 'blocks', stranger.token)).status).toBe(404);
  });

  it('project viewers read links but cannot create or delete them (403)', async () => {
    const [a, b] = await tasks(2);
    const created = (await link(a!, b!, 'relates_to')).body.data;
    const viewer = await h.actor({ org: admin.org, role: 'member' });
    await h.addMember('LNK', viewer.accountId, 'viewer');
    expect(await links(a!, viewer.token)).toHaveLength(1);
    const res = await link(a!, b!, 'blocks', viewer.token);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await unlink(a!, created.id, viewer.token)).status).toBe(403);
    // Read scope alone cannot write.
    const reader = (await h.tokenFor(admin.accountId, ['tasks:read'])).token;
    expect((await link(a!, b!, 'blocks', reader)).body.error).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { required: 'tasks:write' },
    });
    expect(await links(a!, reader)).toHaveLength(1);
  });

  it('Idempotency-Key: a retried link creation replays the first response instead of answering 409', async () => {
    const [a, b] = await tasks(2);
    const send = () =>
      h.request('POST', `/api/v1/tasks/${a}/link/`, {
        token: admin.token,
        body: { task: b, type: 'blocks' },
        headers: { 'idempotency-key': `link-${a}-${b}` },
      });
    const first = await send();
    const second = await send();
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
  });
});
