import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Response, type TestHarness } from '../helpers/harness.ts';
import { type Browser, HOST, ORIGIN, PASSWORD, person } from '../helpers/people.ts';
import { registeredRoutes } from '../helpers/routes.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const CALLERS = ['nobody', 'bearer', 'guest', 'member', 'admin', 'owner'] as const;
type Caller = (typeof CALLERS)[number];
type Statuses = Record<Caller, number>;

/** Signed-in people of any role get `ok`; nobody and a bearer token are refused at the door. */
const everyone = (ok: number): Statuses => ({ nobody: 401, bearer: 401, guest: ok, member: ok, admin: ok, owner: ok });
/** Owners and admins get `ok`, members and guests 403 FORBIDDEN. */
const managers = (ok: number): Statuses => ({ ...everyone(ok), guest: 403, member: 403 });
/** A public form: the same answer whoever asks. */
const anyone = (status: number): Statuses => Object.fromEntries(CALLERS.map((c) => [c, status])) as Statuses;

interface Case {
  /** Built for each call: some need a row of their own (a fresh invitation to revoke). */
  request: () => Promise<{ url: string; body?: unknown; headers?: Record<string, string> }>;
  expected: Statuses;
}

/**
 * Generated from the routes the app serves: every console route × every kind of caller
 * (nobody, a bearer token, a guest, a member, an admin, an owner of the organization) with the
 * exact status each must get, and a refusal changes nothing. A new console route fails the first
 * test until it has its line here. The requests aim at rows that are not the caller's (another
 * person's session) where a route acts on one.
 */
describe('security matrix (generated): every console route × every role', () => {
  let h: TestHarness;
  const callers = {} as Record<Exclude<Caller, 'nobody' | 'bearer'>, Browser>;
  let owner: Browser & { org: string };
  let bearer: string;
  let victim: Browser;
  let bot = 0;
  let counter = 0;

  beforeAll(async () => {
    h = await createHarness({ config: { signIn: { perAccount: 1000, perAddress: 1000, windowSeconds: 900 } } });
    owner = await person(h, { role: 'owner' });
    for (const role of ['guest', 'member', 'admin'] as const) callers[role] = await person(h, { org: owner.org, role });
    callers.owner = owner;
    victim = await person(h, { org: owner.org, role: 'member' });
    bearer = (await h.tokenFor(callers.member.userId)).token;
    bot = (await owner.request('POST', '/api/console/service-accounts/', { name: 'Bot', role: 'member' })).body.data.id;
  });
  afterAll(() => h.close());

  const fixed = (url: string, body?: unknown, headers?: Record<string, string>) => async () => ({ url, body, headers });
  const unique = () => `${++counter}-${process.pid}`;
  const token43 = 'x'.repeat(43);

  const CASES: Record<string, Case> = {
    'GET /api/console/setup/': { request: fixed('/api/console/setup/'), expected: anyone(200) },
    'POST /api/console/setup/': {
      request: fixed('/api/console/setup/', {
        token: token43,
        organization: { name: 'X', slug: 'x' },
        name: 'X',
        email: 'x@x.test',
        password: PASSWORD,
      }),
      expected: anyone(400),
    },
    'POST /api/console/sign-in/': {
      request: fixed('/api/console/sign-in/', { email: 'nobody@example.test', password: 'wrong password!!' }),
      expected: anyone(401),
    },
    'GET /api/console/invitations/lookup/': {
      request: fixed(`/api/console/invitations/lookup/?token=${token43}`),
      expected: anyone(404),
    },
    'POST /api/console/invitations/accept/': {
      request: fixed('/api/console/invitations/accept/', { token: token43, name: 'X', password: PASSWORD }),
      expected: anyone(400),
    },
    'POST /api/console/password-resets/': {
      request: fixed('/api/console/password-resets/', { email: 'nobody@example.test' }),
      expected: anyone(202),
    },
    'POST /api/console/password-resets/complete/': {
      request: fixed('/api/console/password-resets/complete/', { token: token43, password: PASSWORD }),
      expected: anyone(400),
    },
    'GET /api/console/session/': { request: fixed('/api/console/session/'), expected: everyone(200) },
    'POST /api/console/sign-out/': { request: fixed('/api/console/sign-out/'), expected: everyone(204) },
    'GET /api/console/sessions/': { request: fixed('/api/console/sessions/'), expected: everyone(200) },
    'DELETE /api/console/sessions/:id/': {
      request: async () => ({ url: `/api/console/sessions/${victim.sessionId}/` }),
      expected: everyone(404),
    },
    'GET /api/console/profile/': { request: fixed('/api/console/profile/'), expected: everyone(200) },
    'PATCH /api/console/profile/': {
      request: fixed('/api/console/profile/', { name: 'Renamed' }),
      expected: everyone(200),
    },
    'POST /api/console/profile/password/': {
      request: fixed('/api/console/profile/password/', {
        current_password: 'not my password',
        new_password: 'a new password!',
      }),
      expected: everyone(400),
    },
    'GET /api/console/live/': {
      // An unknown Last-Event-ID is answered at once, so the stream's own checks show without holding it open.
      request: fixed('/api/console/live/', undefined, { 'last-event-id': 'not-an-event' }),
      expected: everyone(400),
    },
    'GET /api/console/organization/': { request: fixed('/api/console/organization/'), expected: everyone(200) },
    'PATCH /api/console/organization/': {
      request: fixed('/api/console/organization/', { name: 'Renamed org' }),
      expected: managers(200),
    },
    'GET /api/console/people/': { request: fixed('/api/console/people/'), expected: everyone(200) },
    'PATCH /api/console/people/:id/': {
      request: async () => ({ url: `/api/console/people/${bot}/`, body: { active: true } }),
      expected: managers(200),
    },
    'POST /api/console/people/:id/password-reset/': {
      request: async () => ({ url: `/api/console/people/${victim.userId}/password-reset/` }),
      expected: managers(201),
    },
    'GET /api/console/invitations/': { request: fixed('/api/console/invitations/'), expected: managers(200) },
    'POST /api/console/invitations/': {
      request: async () => ({
        url: '/api/console/invitations/',
        body: { email: `invitee-${unique()}@example.test`, role: 'member' },
      }),
      expected: managers(201),
    },
    'DELETE /api/console/invitations/:id/': {
      request: async () => {
        const invited = await owner.request('POST', '/api/console/invitations/', {
          email: `revoked-${unique()}@example.test`,
          role: 'member',
        });
        return { url: `/api/console/invitations/${invited.body.data.id}/` };
      },
      expected: managers(204),
    },
    'POST /api/console/service-accounts/': {
      request: async () => ({
        url: '/api/console/service-accounts/',
        body: { name: `Bot ${unique()}`, role: 'member' },
      }),
      expected: managers(201),
    },
    'GET /api/console/tokens/': { request: fixed('/api/console/tokens/'), expected: everyone(200) },
    'POST /api/console/tokens/': {
      request: async () => ({ url: '/api/console/tokens/', body: { name: 't', account: bot, scopes: ['tasks:read'] } }),
      expected: managers(201),
    },
    'DELETE /api/console/tokens/:id/': {
      request: async () => {
        const minted = await owner.request('POST', '/api/console/tokens/', {
          name: 'revoked',
          account: bot,
          scopes: ['tasks:read'],
        });
        return { url: `/api/console/tokens/${minted.body.data.id}/` };
      },
      // Members and guests see only their own tokens: another account's is not found.
      expected: { ...managers(204), guest: 404, member: 404 },
    },
    // OpenID Connect sign-in is not configured here: its flows are not found, the screen is told so.
    'GET /api/console/oidc/': { request: fixed('/api/console/oidc/'), expected: anyone(200) },
    'GET /api/console/oidc/start/': { request: fixed('/api/console/oidc/start/'), expected: anyone(404) },
    'GET /api/console/oidc/callback/': {
      request: fixed('/api/console/oidc/callback/?code=x&state=y'),
      expected: anyone(302),
    },
    'GET /api/console/oidc/sign-out/': { request: fixed('/api/console/oidc/sign-out/'), expected: anyone(404) },
    'GET /api/console/oidc/test/start/': {
      request: fixed('/api/console/oidc/test/start/'),
      expected: { ...managers(404), admin: 403 },
    },
    'GET /api/console/oidc/test/:id/': {
      request: fixed('/api/console/oidc/test/1/'),
      expected: { ...managers(404), admin: 403 },
    },
    'GET /api/console/oidc/mapping/': {
      request: fixed('/api/console/oidc/mapping/'),
      expected: { ...managers(404), admin: 403 },
    },
    'PUT /api/console/oidc/mapping/': {
      request: fixed('/api/console/oidc/mapping/', { groups_claim: 'groups', roles: [], projects: [] }),
      expected: { ...managers(404), admin: 403 },
    },
    'DELETE /api/console/oidc/mapping/': {
      request: fixed('/api/console/oidc/mapping/'),
      expected: { ...managers(404), admin: 403 },
    },
    'GET /api/console/audit/': { request: fixed('/api/console/audit/'), expected: managers(200) },
    'GET /api/console/audit/export/': {
      request: fixed('/api/console/audit/export/?format=jsonl'),
      expected: managers(200),
    },
  };

  /** Everything a refused request could have changed. */
  const state = async () => {
    const db = h.ctx.db;
    return JSON.stringify([
      await db.selectFrom('users').selectAll().orderBy('id').execute(),
      await db.selectFrom('organizations').selectAll().orderBy('id').execute(),
      await db.selectFrom('invitations').selectAll().orderBy('id').execute(),
      await db.selectFrom('api_tokens').select(['id', 'revoked_at']).orderBy('id').execute(),
      await db.selectFrom('sessions').select(['id', 'revoked_at']).orderBy('id').execute(),
      await db.selectFrom('password_resets').select(['id', 'used_at']).orderBy('id').execute(),
      await db.selectFrom('audit_records').select('id').orderBy('id').execute(),
    ]);
  };

  it('the table lists exactly the console routes the app serves', () => {
    const served = registeredRoutes(h.app).filter((route) => route.includes(' /api/console/'));
    expect(served.length).toBeGreaterThanOrEqual(31);
    expect(Object.keys(CASES).sort()).toEqual(served);
  });

  async function send(caller: Caller, method: Method, request: Awaited<ReturnType<Case['request']>>) {
    const headers = { host: HOST, origin: ORIGIN, ...request.headers };
    if (caller === 'nobody') return h.request(method, request.url, { body: request.body, headers });
    if (caller === 'bearer') return h.request(method, request.url, { token: bearer, body: request.body, headers });
    // Signing out ends the session: a person of that role of their own.
    const who =
      request.url === '/api/console/sign-out/' ? await person(h, { org: owner.org, role: caller }) : callers[caller];
    return who.request(method, request.url, request.body, request.headers);
  }

  it('every route answers each caller exactly, and a refusal changes nothing', async () => {
    const answers: string[] = [];
    const wanted: string[] = [];
    for (const [route, { request, expected }] of Object.entries(CASES)) {
      const method = route.split(' ')[0] as Method;
      for (const caller of CALLERS) {
        const built = await request();
        const before = expected[caller] >= 400 ? await state() : null;
        const res: Response = await send(caller, method, built);
        answers.push(`${route} as ${caller}: ${res.status}`);
        wanted.push(`${route} as ${caller}: ${expected[caller]}`);
        if (before !== null && res.status === expected[caller])
          expect(await state(), `${route} as ${caller} changed something`).toBe(before);
      }
    }
    expect(answers).toEqual(wanted);
  });
});
