import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { type Browser, HOST, ORIGIN, person } from '../helpers/people.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * Every signed-in console route (the contract's list) against the callers who must be refused:
 * nobody, a bearer token, a person of another organization, and a member trying what only
 * owners and admins may do. A refusal changes nothing (checked on the rows each route writes).
 */
describe('security matrix: console routes', () => {
  let h: TestHarness;
  let owner: Browser & { org: string };
  let member: Browser;
  let stranger: Browser;
  let bearer: string;
  const ids = { person: 0, invitation: 0, token: 0, session: 0 };

  beforeAll(async () => {
    h = await createHarness();
    owner = await person(h, { role: 'owner' });
    member = await person(h, { org: owner.org, role: 'member' });
    stranger = await person(h, { role: 'owner' });
    bearer = (await h.tokenFor(member.userId)).token;
    const bot = await owner.request('POST', '/api/console/service-accounts/', { name: 'Bot', role: 'member' });
    ids.person = bot.body.data.id;
    ids.invitation = (
      await owner.request('POST', '/api/console/invitations/', { email: 'invitee@example.test', role: 'member' })
    ).body.data.id;
    ids.token = (
      await owner.request('POST', '/api/console/tokens/', { name: 't', account: ids.person, scopes: ['tasks:read'] })
    ).body.data.id;
    ids.session = owner.sessionId;
  });
  afterAll(() => h.close());

  const routes = (): Array<{ method: Method; url: string; body?: unknown }> => [
    { method: 'GET', url: '/api/console/session/' },
    { method: 'POST', url: '/api/console/sign-out/' },
    { method: 'GET', url: '/api/console/sessions/' },
    { method: 'DELETE', url: `/api/console/sessions/${ids.session}/` },
    { method: 'GET', url: '/api/console/profile/' },
    { method: 'PATCH', url: '/api/console/profile/', body: { name: 'Hacked' } },
    {
      method: 'POST',
      url: '/api/console/profile/password/',
      body: { current_password: 'x'.repeat(10), new_password: 'y'.repeat(10) },
    },
    { method: 'GET', url: '/api/console/organization/' },
    { method: 'PATCH', url: '/api/console/organization/', body: { name: 'Hacked' } },
    { method: 'GET', url: '/api/console/people/' },
    { method: 'PATCH', url: `/api/console/people/${ids.person}/`, body: { active: false } },
    { method: 'POST', url: `/api/console/people/${ids.person}/password-reset/` },
    { method: 'GET', url: '/api/console/invitations/' },
    { method: 'POST', url: '/api/console/invitations/', body: { email: 'evil@example.test', role: 'owner' } },
    { method: 'DELETE', url: `/api/console/invitations/${ids.invitation}/` },
    { method: 'POST', url: '/api/console/service-accounts/', body: { name: 'Evil', role: 'admin' } },
    { method: 'GET', url: '/api/console/tokens/' },
    {
      method: 'POST',
      url: '/api/console/tokens/',
      body: { name: 'evil', account: ids.person, scopes: ['tasks:write'] },
    },
    { method: 'DELETE', url: `/api/console/tokens/${ids.token}/` },
    { method: 'GET', url: '/api/console/audit/' },
    { method: 'GET', url: '/api/console/audit/export/?format=csv' },
  ];

  /** Everything a refused request could have changed. */
  const state = async () => {
    const db = h.ctx.db;
    return JSON.stringify([
      await db.selectFrom('users').selectAll().orderBy('id').execute(),
      await db.selectFrom('organizations').selectAll().orderBy('id').execute(),
      await db.selectFrom('invitations').selectAll().orderBy('id').execute(),
      await db.selectFrom('api_tokens').select(['id', 'revoked_at']).orderBy('id').execute(),
      await db.selectFrom('sessions').select(['id', 'revoked_at']).orderBy('id').execute(),
      await db.selectFrom('password_resets').select('id').execute(),
      await db.selectFrom('audit_records').select('id').orderBy('id').execute(),
    ]);
  };

  it('every route exists', () => {
    for (const route of routes())
      expect(
        h.app.hasRoute({ method: route.method, url: route.url.replace(/\/\d+\//, '/:id/').replace(/\?.*/, '') }),
        route.url,
      ).toBe(true);
  });

  it('without a session: 401 UNAUTHENTICATED, nothing changes', async () => {
    const before = await state();
    for (const route of routes()) {
      const res = await h.request(route.method, route.url, {
        body: route.body,
        headers: { host: HOST, origin: ORIGIN },
      });
      expect(res.status, `${route.method} ${route.url}`).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
    }
    expect(await state()).toBe(before);
  });

  it('with a bearer token instead of a session: 401 saying the console needs a signed-in person', async () => {
    const before = await state();
    for (const route of routes()) {
      const res = await h.request(route.method, route.url, {
        token: bearer,
        body: route.body,
        headers: { host: HOST, origin: ORIGIN },
      });
      expect(res.status, `${route.method} ${route.url}`).toBe(401);
      expect(res.body.error.message).toMatch(/console needs a signed-in person/);
    }
    expect(await state()).toBe(before);
  });

  it("another organization's person: the rows of this organization are not found, lists show their own", async () => {
    const before = await state();
    for (const route of routes().filter((r) => /\/\d+\//.test(r.url))) {
      const res = await stranger.request(route.method, route.url, route.body);
      expect(res.status, `${route.method} ${route.url}`).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const tokenForOurBot = await stranger.request('POST', '/api/console/tokens/', {
      name: 'evil',
      account: ids.person,
      scopes: ['tasks:write'],
    });
    expect(tokenForOurBot.status).toBe(404);
    expect(await state()).toBe(before);
    const people = await stranger.request('GET', '/api/console/people/');
    expect(people.body.data.map((p: { id: number }) => p.id)).toEqual([stranger.userId]);
    expect((await stranger.request('GET', '/api/console/invitations/')).body.data).toEqual([]);
    expect((await stranger.request('GET', '/api/console/tokens/')).body.data).toEqual([]);
    const audit = await stranger.request('GET', '/api/console/audit/');
    expect(audit.body.data.map((r: { actor: { id: number } }) => r.actor.id)).toEqual([stranger.userId]);
  });

  it('a member trying what owners and admins do: 403 FORBIDDEN (404 for rows that are not theirs), nothing changes', async () => {
    const before = await state();
    const managerOnly = routes().filter((r) =>
      [
        'PATCH /api/console/organization/',
        `PATCH /api/console/people/${ids.person}/`,
        `POST /api/console/people/${ids.person}/password-reset/`,
        'GET /api/console/invitations/',
        'POST /api/console/invitations/',
        `DELETE /api/console/invitations/${ids.invitation}/`,
        'POST /api/console/service-accounts/',
        'POST /api/console/tokens/',
        'GET /api/console/audit/',
        'GET /api/console/audit/export/?format=csv',
      ].includes(`${r.method} ${r.url}`),
    );
    expect(managerOnly).toHaveLength(10);
    for (const route of managerOnly) {
      const res = await member.request(route.method, route.url, route.body);
      expect(res.status, `${route.method} ${route.url}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    for (const url of [`/api/console/tokens/${ids.token}/`, `/api/console/sessions/${ids.session}/`]) {
      expect((await member.request('DELETE', url)).status, url).toBe(404);
    }
    expect(await state()).toBe(before);
  });
});
