import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createAppContext } from '../../src/context.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { revokeToken } from '../../src/identity/tokens.service.ts';
import { secondConnection } from '../helpers/database.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

/**
 * The API remembers tokens and visible projects per process (src/identity/auth-cache.ts).
 * Every change of access must still take effect on the very next request, on the process that
 * made it and on any other process sharing the database, however the change was written.
 * Each test first reads twice, so the answer it then checks would come from the cache if the
 * cache were not invalidated.
 */
describe('cached authentication and visibility never outlive a change of access', () => {
  let h: TestHarness;
  let owner: Actor;
  let n = 0;

  beforeAll(async () => {
    h = await createHarness();
    owner = await h.actor();
  });
  afterAll(() => h.close());

  /** A fresh project with one task and a member (workspace role `member`) holding a project role. */
  async function team(projectRole: 'member' | 'viewer' = 'member') {
    const key = `AC${++n}`;
    const project = await h.project(owner, key);
    const task = await h.request('POST', `/api/v1/projects/${key}/tasks/`, {
      token: owner.token,
      body: { title: 'Cached?' },
    });
    expect(task.status).toBe(201);
    const member = await h.actor({ org: owner.org, role: 'member' });
    const membership = await h.request('POST', '/api/v1/memberships/', {
      token: owner.token,
      body: { project: project.id, user: member.accountId, role: projectRole },
    });
    expect(membership.status).toBe(201);
    return {
      key,
      projectId: project.id as number,
      taskKey: task.body.data.key as string,
      member,
      membershipId: membership.body.data.id as number,
    };
  }

  const read = async (token: string, taskKey: string, app?: FastifyInstance) => {
    const projectKey = taskKey.slice(0, taskKey.lastIndexOf('-'));
    const inject = (url: string) =>
      (app ?? h.app).inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const [task, list] = [
      await inject(`/api/v1/tasks/${taskKey}/`),
      await inject(`/api/v1/projects/${projectKey}/tasks/`),
    ];
    return {
      task: task.statusCode,
      list: list.statusCode,
      listed: list.statusCode === 200 ? (JSON.parse(list.body).data as Array<{ key: string }>).map((t) => t.key) : null,
      error: task.statusCode === 200 ? null : (JSON.parse(task.body).error as { code: string; message: string }),
    };
  };

  async function warm(token: string, taskKey: string, app?: FastifyInstance) {
    for (let i = 0; i < 2; i++)
      expect(await read(token, taskKey, app)).toMatchObject({ task: 200, list: 200, listed: [taskKey] });
  }

  it('a revoked token is refused on the next request (401)', async () => {
    const { taskKey, member } = await team();
    await warm(member.token, taskKey);
    await revokeToken(h.ctx, member.tokenId);
    const after = await read(member.token, taskKey);
    expect(after).toMatchObject({ task: 401, list: 401 });
    expect(after.error).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.stringMatching(/revoked/) });
  });

  it('a revoked token that was cached is refused before anything else: a missing task or a malformed key answers 401 too', async () => {
    // The task read takes the epoch in its own statement; its 404 and a validation error must
    // not answer before the cached token is found out of date.
    const { taskKey, member } = await team();
    await warm(member.token, taskKey);
    await revokeToken(h.ctx, member.tokenId);
    for (const url of ['/api/v1/tasks/NOPE-999/', '/api/v1/tasks/not-a-key/', `/api/v1/tasks/${taskKey}/`]) {
      const res = await h.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${member.token}` } });
      expect([url, res.statusCode]).toEqual([url, 401]);
    }
  });

  it('a token revoked by a direct database write (another tool) is refused too', async () => {
    const { taskKey, member } = await team();
    await warm(member.token, taskKey);
    await h.ctx.db
      .updateTable('api_tokens')
      .set({ revoked_at: h.ctx.clock.nowIso() })
      .where('id', '=', member.tokenId)
      .execute();
    expect(await read(member.token, taskKey)).toMatchObject({ task: 401, list: 401 });
  });

  it('a token is refused once its expiry passes on the (injected) clock, with no database change at all', async () => {
    const { taskKey, member } = await team();
    const t = await h.tokenFor(member.accountId, ['tasks:read'], undefined, 1);
    await warm(t.token, taskKey);
    h.clock.advance(86_400_000 - 60_000);
    expect(await read(t.token, taskKey)).toMatchObject({ task: 200, list: 200 });
    h.clock.advance(60_000);
    const after = await read(t.token, taskKey);
    expect(after).toMatchObject({ task: 401, list: 401 });
    expect(after.error?.message).toMatch(/expired/);
  });

  it('a removed membership hides the project on the next request (404, like a project that does not exist)', async () => {
    const { taskKey, member, membershipId } = await team();
    await warm(member.token, taskKey);
    expect((await h.request('DELETE', `/api/v1/memberships/${membershipId}/`, { token: owner.token })).status).toBe(
      204,
    );
    expect(await read(member.token, taskKey)).toMatchObject({ task: 404, list: 404 });
  });

  it('a new membership shows the project on the next request', async () => {
    const { projectId, taskKey } = await team();
    const outsider = await h.actor({ org: owner.org, role: 'member' });
    for (let i = 0; i < 2; i++) expect(await read(outsider.token, taskKey)).toMatchObject({ task: 404, list: 404 });
    const added = await h.request('POST', '/api/v1/memberships/', {
      token: owner.token,
      body: { project: projectId, user: outsider.accountId, role: 'viewer' },
    });
    expect(added.status).toBe(201);
    expect(await read(outsider.token, taskKey)).toMatchObject({ task: 200, list: 200, listed: [taskKey] });
  });

  it('a project role lowered to viewer stops writes at once; raised again, they resume', async () => {
    const { taskKey, member, membershipId } = await team();
    await warm(member.token, taskKey);
    const put = () =>
      h.request('PUT', `/api/v1/tasks/${taskKey}/`, { token: member.token, body: { title: 'Renamed' } });
    expect((await put()).status).toBe(200);
    expect(
      (
        await h.request('PATCH', `/api/v1/memberships/${membershipId}/`, {
          token: owner.token,
          body: { role: 'viewer' },
        })
      ).status,
    ).toBe(200);
    expect(await read(member.token, taskKey)).toMatchObject({ task: 200, list: 200 });
    expect((await put()).status).toBe(403);
    expect(
      (
        await h.request('PATCH', `/api/v1/memberships/${membershipId}/`, {
          token: owner.token,
          body: { role: 'member' },
        })
      ).status,
    ).toBe(200);
    expect((await put()).status).toBe(200);
  });

  it('a workspace role changed in the database applies to the next request (guest: no project creation)', async () => {
    const account = await h.actor({ org: owner.org, role: 'member' });
    const create = (key: string) =>
      h.request('POST', '/api/v1/projects/', { token: account.token, body: { name: key, key } });
    expect((await create(`RL${++n}`)).status).toBe(201);
    await h.ctx.db.updateTable('users').set({ role: 'guest' }).where('id', '=', account.accountId).execute();
    const refused = await create(`RL${++n}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
  });

  it("a token's project restriction narrowed in the database applies to the next request", async () => {
    const { taskKey, member } = await team();
    await warm(member.token, taskKey);
    await h.ctx.db
      .updateTable('api_tokens')
      .set({ project_ids: JSON.stringify([]) })
      .where('id', '=', member.tokenId)
      .execute();
    expect(await read(member.token, taskKey)).toMatchObject({ task: 404, list: 404 });
  });

  it('a deleted project is gone on the next request, and a new project under the same key is the one listed', async () => {
    const { key, projectId, taskKey } = await team();
    await warm(owner.token, taskKey);
    expect((await h.request('DELETE', `/api/v1/projects/${projectId}/`, { token: owner.token })).status).toBe(204);
    expect(await read(owner.token, taskKey)).toMatchObject({ task: 404, list: 404 });
    await h.project(owner, key);
    const again = await h.request('POST', `/api/v1/projects/${key}/tasks/`, {
      token: owner.token,
      body: { title: 'Second life' },
    });
    expect(again.body.data.key).toBe(`${key}-1`);
    const list = await h.request('GET', `/api/v1/projects/${key}/tasks/`, { token: owner.token });
    expect(list.body.data.map((t: { title: string }) => t.title)).toEqual(['Second life']);
  });

  it('task writes do not invalidate the cache (the epoch moves only with access changes)', async () => {
    const { key, taskKey } = await team();
    const epoch = async () =>
      Number((await h.ctx.db.selectFrom('auth_epoch').select('value').executeTakeFirstOrThrow()).value);
    const before = await epoch();
    expect(
      (await h.request('PUT', `/api/v1/tasks/${taskKey}/`, { token: owner.token, body: { title: 'Edited' } })).status,
    ).toBe(200);
    expect(
      (await h.request('POST', `/api/v1/projects/${key}/tasks/`, { token: owner.token, body: { title: 'More' } }))
        .status,
    ).toBe(201);
    expect(await epoch()).toBe(before);
  });

  describe('two server processes on one database', () => {
    let other: FastifyInstance;
    let otherDb: DatabaseHandle;

    beforeAll(async () => {
      otherDb = secondConnection(h.ctx.database);
      const ctx = createAppContext({ config: h.ctx.config, clock: h.ctx.clock, database: otherDb });
      other = await buildApp(ctx, { logger: false });
      await other.ready();
    });
    afterAll(async () => {
      await other?.close();
      await otherDb?.close();
    });

    it('a token revoked through one process is refused by the other, which had it cached', async () => {
      const { taskKey, member } = await team();
      await warm(member.token, taskKey, other);
      await revokeToken(h.ctx, member.tokenId);
      expect(await read(member.token, taskKey, other)).toMatchObject({ task: 401, list: 401 });
    });

    it('a membership removed through one process hides the project in the other', async () => {
      const { taskKey, member, membershipId } = await team();
      await warm(member.token, taskKey, other);
      expect((await h.request('DELETE', `/api/v1/memberships/${membershipId}/`, { token: owner.token })).status).toBe(
        204,
      );
      expect(await read(member.token, taskKey, other)).toMatchObject({ task: 404, list: 404 });
    });

    it('a project deleted through one process is gone in the other', async () => {
      const { projectId, taskKey } = await team();
      await warm(owner.token, taskKey, other);
      expect((await h.request('DELETE', `/api/v1/projects/${projectId}/`, { token: owner.token })).status).toBe(204);
      expect(await read(owner.token, taskKey, other)).toMatchObject({ task: 404, list: 404 });
    });

    it('a membership added through one process shows the project in the other', async () => {
      const { key, taskKey } = await team();
      const outsider = await h.actor({ org: owner.org, role: 'member' });
      for (let i = 0; i < 2; i++)
        expect(await read(outsider.token, taskKey, other)).toMatchObject({ task: 404, list: 404 });
      await h.addMember(key, outsider.accountId, 'viewer');
      expect(await read(outsider.token, taskKey, other)).toMatchObject({ task: 200, list: 200, listed: [taskKey] });
    });
  });
});

describe('a route that reads the auth epoch itself must confirm the cached principal', () => {
  let h: TestHarness;
  let owner: Actor;

  beforeAll(async () => {
    h = await createHarness({
      // A route flagged as reading the epoch with its data, whose handler forgets to confirm it.
      beforeReady: (app) => {
        app.get('/api/v1/test-unconfirmed/', { config: { scope: 'tasks:read', authEpochInRead: true } }, async () => ({
          success: true,
          data: 'secret',
        }));
      },
    });
    owner = await h.actor();
  });
  afterAll(() => h.close());

  it('answers 500 rather than data once the principal comes from the cache unconfirmed', async () => {
    const get = () => h.request('GET', '/api/v1/test-unconfirmed/', { token: owner.token });
    // The first request authenticates from the database (nothing cached yet): nothing to confirm.
    expect((await get()).status).toBe(200);
    const cached = await get();
    expect(cached.status).toBe(500);
    expect(cached.body.error.code).toBe('INTERNAL_ERROR');
    expect(cached.text).not.toContain('secret');
  });
});
