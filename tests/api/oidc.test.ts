import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createOrganization, createUser } from '../../src/modules/accounts/accounts.service.ts';
import { createHarness, type Response, type TestHarness } from '../helpers/harness.ts';
import { signInAtProvider, startTestProvider, type TestProvider } from '../helpers/oidc.ts';
import { type Browser, HOST, ORIGIN, PASSWORD, person, signIn } from '../helpers/people.ts';

/**
 * OpenID Connect sign-in against a real provider (oidc-provider on loopback): the whole
 * authorization code flow with PKCE, state and nonce through the app's own routes, and what
 * each refusal looks like. The app's clock drives the ID token checks, so tests move it.
 */
describe('OpenID Connect sign-in', () => {
  let h: TestHarness;
  let idp: TestProvider;
  let owner: Browser & { org: string };
  let subjects = 0;

  beforeAll(async () => {
    idp = await startTestProvider(ORIGIN, { idTokenTtlSeconds: 120 });
    h = await createHarness({ config: { publicBaseUrl: ORIGIN } });
    owner = await person(h, { role: 'owner' });
    await createProject('WEB');
    await createProject('OPS');
  });
  afterAll(async () => {
    await h.close();
    await idp.close();
  });
  beforeEach(() => {
    h.clock.set(new Date());
    h.ctx.config.oidc = idp.config({ organization: owner.org, allowedDomains: ['example.com'] });
  });

  async function createProject(key: string) {
    const res = await owner.request('POST', '/api/v1/projects/', { name: `Project ${key}`, key });
    if (res.status !== 201) throw new Error(res.text);
  }

  const cookieOf = (res: Response, name: RegExp) => {
    const header = res.headers['set-cookie'];
    const all = Array.isArray(header) ? header : header ? [String(header)] : [];
    return all.find((c) => name.test(c) && !/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c))?.split(';')[0];
  };

  /** Starts a flow as a browser would: the redirect to the provider and the state cookie. */
  async function start(next?: string) {
    const res = await h.request('GET', `/api/console/oidc/start/${next ? `?next=${encodeURIComponent(next)}` : ''}`, {
      headers: { host: HOST },
    });
    expect(res.status).toBe(302);
    return { location: String(res.headers.location), cookie: cookieOf(res, /^tt_oidc=/)! };
  }

  async function callback(url: URL, cookie: string | undefined) {
    return h.request('GET', `${url.pathname}${url.search}`, { headers: { host: HOST, ...(cookie ? { cookie } : {}) } });
  }

  /** A new subject at the provider. */
  function account(email: string, extra: { groups?: string[]; email_verified?: boolean; name?: string } = {}) {
    const sub = `sub-${++subjects}`;
    idp.accounts.set(sub, { email, ...extra });
    return sub;
  }

  /** The whole flow; answers the callback's response. */
  async function signInAs(sub: string, next?: string) {
    const flow = await start(next);
    const back = await signInAtProvider(flow.location, sub);
    return callback(back, flow.cookie);
  }

  async function whoIs(res: Response) {
    const cookie = cookieOf(res, /^tt_session=/);
    if (!cookie) return null;
    const session = await h.request('GET', '/api/console/session/', { headers: { host: HOST, cookie } });
    return session.body.data.user as { id: number; email: string; name: string; role: string };
  }

  const problem = (reason: string) => `/sign-in/problem?reason=${reason}`;

  /** The audit records about a person (target), oldest first: action, actor, before, after. */
  async function auditOf(userId: number) {
    const rows = await h.ctx.db
      .selectFrom('audit_records')
      .select(['action', 'actor_label', 'target_type', 'before', 'after'])
      .where((eb) =>
        eb.or([eb.and([eb('target_type', '=', 'person'), eb('target_id', '=', userId)]), eb('actor_id', '=', userId)]),
      )
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      ...row,
      before: row.before === null ? null : JSON.parse(row.before),
      after: row.after === null ? null : JSON.parse(row.after),
    }));
  }

  async function roleOf(userId: number) {
    return (await h.ctx.db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirstOrThrow()).role;
  }

  async function projectRoles(userId: number) {
    const rows = await h.ctx.db
      .selectFrom('project_memberships as m')
      .innerJoin('projects as p', 'p.id', 'm.project_id')
      .select(['p.key', 'm.role'])
      .where('m.user_id', '=', userId)
      .orderBy('p.key')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.key, row.role]));
  }

  it('tells the sign-in screen about the provider', async () => {
    const res = await h.request('GET', '/api/console/oidc/', { headers: { host: HOST } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ enabled: true, name: 'Test IdP', password_sign_in: true, provider_sign_out: true });
  });

  it('happy path: a new person of an allowed domain is created, signed in, and sent where they were going', async () => {
    const sub = account('new.person@example.com', { name: 'New Person' });
    const flow = await start('/p/WEB');
    const auth = new URL(flow.location);
    expect(auth.origin).toBe(idp.issuer);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(auth.searchParams.get('nonce')).toMatch(/^[\w-]{43}$/);
    expect(auth.searchParams.get('state')).toBe(flow.cookie.slice('tt_oidc='.length));
    expect(auth.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/api/console/oidc/callback/`);
    const res = await callback(await signInAtProvider(flow.location, sub), flow.cookie);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/p/WEB');
    const user = await whoIs(res);
    expect(user).toMatchObject({ email: 'new.person@example.com', name: 'New Person', role: 'member' });
    const link = await h.ctx.db.selectFrom('oidc_identities').selectAll().where('subject', '=', sub).execute();
    expect(link.map((row) => [row.user_id, row.issuer])).toEqual([[user!.id, idp.issuer]]);
    // The account has no password: only the provider signs it in.
    const pw = await h.ctx.db.selectFrom('users').select('password_hash').where('id', '=', user!.id).executeTakeFirst();
    expect(pw?.password_hash).toBeNull();
    expect(await auditOf(user!.id)).toEqual([
      {
        action: 'person.joined',
        actor_label: 'New Person (OIDC group mapping)',
        target_type: 'person',
        before: null,
        after: { role: 'member', via: 'oidc' },
      },
      {
        action: 'sign_in.succeeded',
        actor_label: 'New Person',
        target_type: 'person',
        before: null,
        after: { method: 'oidc' },
      },
    ]);
  });

  it('never sends the browser off-site after sign-in', async () => {
    const res = await signInAs(account('offsite@example.com'), '//evil.test/steal');
    expect(res.headers.location).toBe('/');
  });

  it('links an existing person by verified e-mail, then finds them by subject when their e-mail changes', async () => {
    const existing = await person(h, { org: owner.org, role: 'member', email: 'Linked.Person@Elsewhere.org' });
    const sub = account('linked.person@elsewhere.org');
    const first = await whoIs(await signInAs(sub));
    expect(first?.id).toBe(existing.userId);
    idp.accounts.set(sub, { email: 'renamed@elsewhere.org' });
    const second = await whoIs(await signInAs(sub));
    expect(second?.id).toBe(existing.userId);
    const people = await h.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'renamed@elsewhere.org')
      .execute();
    expect(people).toEqual([]);
  });

  it('refuses to link or create from an unverified e-mail', async () => {
    await person(h, { org: owner.org, role: 'admin', email: 'victim@example.com' });
    const res = await signInAs(account('victim@example.com', { email_verified: false }));
    expect(res.headers.location).toBe(problem('email_unverified'));
    expect(cookieOf(res, /^tt_session=/)).toBeUndefined();
  });

  it('refuses a new person of another domain: the "ask your admin" page, and nobody is created', async () => {
    const count = async () => (await h.ctx.db.selectFrom('users').select('id').execute()).length;
    const before = await count();
    const res = await signInAs(account('someone@other.org'));
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(problem('not_allowed'));
    expect(cookieOf(res, /^tt_session=/)).toBeUndefined();
    expect(await count()).toBe(before);
  });

  it('creates nobody when neither domains nor groups are configured, and requires a group when groups are', async () => {
    h.ctx.config.oidc = idp.config({ organization: owner.org });
    expect((await signInAs(account('x1@example.com'))).headers.location).toBe(problem('not_allowed'));
    h.ctx.config.oidc = idp.config({ organization: owner.org, requiredGroups: ['tracker-users'] });
    expect((await signInAs(account('x2@example.com', { groups: ['other'] }))).headers.location).toBe(
      problem('not_allowed'),
    );
    const created = await whoIs(await signInAs(account('x3@example.com', { groups: ['tracker-users'] })));
    expect(created?.email).toBe('x3@example.com');
  });

  it('deactivation in tasktracker wins over the provider', async () => {
    const sub = account('leaver@example.com');
    const user = await whoIs(await signInAs(sub));
    const res = await owner.request('PATCH', `/api/console/people/${user!.id}/`, { active: false });
    expect(res.status).toBe(200);
    expect((await signInAs(sub)).headers.location).toBe(problem('deactivated'));
    const failed = (await auditOf(user!.id)).filter((row) => row.action === 'sign_in.failed');
    expect(failed).toEqual([
      {
        action: 'sign_in.failed',
        actor_label: 'leaver@example.com',
        target_type: 'person',
        before: null,
        after: { method: 'oidc', active: false },
      },
    ]);
  });

  it('maps groups to workspace and project roles and reconciles them at every sign-in', async () => {
    h.ctx.config.oidc = idp.config({
      organization: owner.org,
      allowedDomains: ['example.com'],
      roleMap: [
        { group: 'tt-admins', role: 'admin' },
        { group: 'staff', role: 'member' },
      ],
      projectMap: [
        { group: 'web', project: 'WEB', role: 'member' },
        { group: 'web-leads', project: 'WEB', role: 'admin' },
        { group: 'nowhere', project: 'NOPE', role: 'viewer' },
      ],
    });
    const sub = account('mapped@example.com', { groups: ['tt-admins', 'staff', 'web'] });
    const user = (await whoIs(await signInAs(sub)))!;
    expect(await roleOf(user.id)).toBe('admin');
    expect(await projectRoles(user.id)).toEqual({ WEB: 'member' });

    // Groups change at the provider: the next sign-in follows.
    idp.accounts.set(sub, { email: 'mapped@example.com', groups: ['staff', 'web-leads'] });
    await signInAs(sub);
    expect(await roleOf(user.id)).toBe('member');
    expect(await projectRoles(user.id)).toEqual({ WEB: 'admin' });

    // A membership the mapping does not own (OPS) is kept; a mapped one the groups no longer give goes.
    await owner.request('POST', '/api/v1/memberships/', {
      project: (await h.ctx.db.selectFrom('projects').select('id').where('key', '=', 'OPS').executeTakeFirstOrThrow())
        .id,
      user: user.id,
      role: 'viewer',
    });
    await h.addMember('WEB', owner.userId, 'admin');
    idp.accounts.set(sub, { email: 'mapped@example.com', groups: ['staff'] });
    await signInAs(sub);
    expect(await projectRoles(user.id)).toEqual({ OPS: 'viewer' });

    // A role given by hand that the mapping owns (admin) is taken back; one it does not own (guest) is kept.
    await owner.request('PATCH', `/api/console/people/${user.id}/`, { role: 'admin' });
    await signInAs(sub);
    expect(await roleOf(user.id)).toBe('member');
    await owner.request('PATCH', `/api/console/people/${user.id}/`, { role: 'guest' });
    idp.accounts.set(sub, { email: 'mapped@example.com', groups: [] });
    await signInAs(sub);
    expect(await roleOf(user.id)).toBe('guest');
    const audited = (await auditOf(user.id)).filter((row) => row.action !== 'sign_in.succeeded');
    expect(
      audited
        .filter((row) => row.actor_label.endsWith('(OIDC group mapping)'))
        .map((row) => [row.action, row.before, row.after]),
    ).toEqual([
      ['person.joined', null, { role: 'admin', via: 'oidc' }],
      ['membership.added', null, { role: 'member', via: 'oidc_mapping' }],
      ['person.role_changed', { role: 'admin' }, { role: 'member', via: 'oidc_mapping' }],
      ['membership.changed', { role: 'member' }, { role: 'admin', via: 'oidc_mapping' }],
      ['membership.removed', { role: 'admin' }, { via: 'oidc_mapping' }],
      ['person.role_changed', { role: 'admin' }, { role: 'member', via: 'oidc_mapping' }],
    ]);
    // Each membership change is an event like any other.
    const events = await h.ctx.db
      .selectFrom('event_outbox')
      .select('type')
      .where('type', '=', 'membership.changed')
      .execute();
    expect(events.length).toBeGreaterThanOrEqual(4);
  });

  it('never demotes the last owner, and demotes an owner when another remains', async () => {
    const org = `oidc-owners-${process.pid}`;
    await createOrganization(h.ctx, { name: 'Owners', slug: org });
    h.ctx.config.oidc = idp.config({
      organization: org,
      roleMap: [
        { group: 'owners', role: 'owner' },
        { group: 'staff', role: 'member' },
      ],
    });
    const only = await createUser(h.ctx, { org, kind: 'human', name: 'Only', email: 'only@corp.test', role: 'owner' });
    const sub = account('only@corp.test', { groups: ['staff'] });
    await signInAs(sub);
    expect(await roleOf(only.id)).toBe('owner');
    const second = await createUser(h.ctx, { org, kind: 'human', name: 'Two', email: 'two@corp.test', role: 'owner' });
    await signInAs(sub);
    expect(await roleOf(only.id)).toBe('member');
    expect(await roleOf(second.id)).toBe('owner');
  });

  it('refuses a tampered state, a missing state cookie, and a state from another browser', async () => {
    const flow = await start();
    const back = await signInAtProvider(flow.location, account('tamper@example.com'));
    const tampered = new URL(back);
    tampered.searchParams.set('state', `${back.searchParams.get('state')}x`);
    expect((await callback(tampered, flow.cookie)).headers.location).toBe(problem('state'));
    expect((await callback(back, undefined)).headers.location).toBe(problem('state'));
    const other = await start();
    expect((await callback(back, other.cookie)).headers.location).toBe(problem('state'));
    // None of these used the flow up: the browser that started it still can finish it.
    const res = await callback(back, flow.cookie);
    expect((await whoIs(res))?.email).toBe('tamper@example.com');
  });

  it('refuses a replayed code: the same callback again, and the code with a new flow', async () => {
    const flow = await start();
    const back = await signInAtProvider(flow.location, account('replay@example.com'));
    expect(await whoIs(await callback(back, flow.cookie))).not.toBeNull();
    const again = await callback(back, flow.cookie);
    expect(again.headers.location).toBe(problem('state'));
    expect(cookieOf(again, /^tt_session=/)).toBeUndefined();
    // A fresh flow's state with the spent code: the provider refuses it (PKCE and single use).
    const fresh = await start();
    const forged = new URL(back);
    forged.searchParams.set('state', fresh.cookie.slice('tt_oidc='.length));
    const res = await callback(forged, fresh.cookie);
    expect(res.headers.location).toBe(problem('provider'));
    expect(cookieOf(res, /^tt_session=/)).toBeUndefined();
  });

  it('refuses an expired ID token', async () => {
    const flow = await start();
    const back = await signInAtProvider(flow.location, account('late@example.com'));
    // The provider's ID tokens live 120 s; 30 s of tolerance do not cover 5 minutes.
    h.clock.advance(5 * 60 * 1000);
    const res = await callback(back, flow.cookie);
    expect(res.headers.location).toBe(problem('provider'));
    expect(cookieOf(res, /^tt_session=/)).toBeUndefined();
  });

  it('tolerates clock skew within OIDC_CLOCK_TOLERANCE_SECONDS, and no more', async () => {
    // Behind the provider: its token's times are still ahead of us, which is fine (no nbf is sent).
    h.clock.set(new Date(Date.now() - 5 * 60_000));
    expect(await whoIs(await signInAs(account('skew1@example.com')))).not.toBeNull();
    h.clock.set(new Date(Date.now() + 20_000));
    expect(await whoIs(await signInAs(account('skew2@example.com')))).not.toBeNull();
    // 200 s ahead: the 120-second token has expired for us beyond the 30 s of tolerance...
    h.clock.set(new Date(Date.now() + 200_000));
    expect((await signInAs(account('skew3@example.com'))).headers.location).toBe(problem('provider'));
    // ...unless the tolerance covers the skew.
    h.ctx.config.oidc = idp.config({
      organization: owner.org,
      allowedDomains: ['example.com'],
      clockToleranceSeconds: 600,
    });
    expect(await whoIs(await signInAs(account('skew4@example.com')))).not.toBeNull();
  });

  it('a test sign-in shows an owner the claims and the mapping, and signs nobody in', async () => {
    h.ctx.config.oidc = idp.config({
      organization: owner.org,
      allowedDomains: ['example.com'],
      roleMap: [{ group: 'tt-admins', role: 'admin' }],
      projectMap: [{ group: 'web', project: 'WEB', role: 'viewer' }],
    });
    const start = await h.request('GET', '/api/console/oidc/test/start/', {
      headers: { host: HOST, cookie: owner.cookie },
    });
    expect(start.status).toBe(302);
    expect(new URL(String(start.headers.location)).searchParams.get('prompt')).toBe('login');
    const sub = account('tested@example.com', { groups: ['tt-admins', 'web'], name: 'Tested' });
    const back = await signInAtProvider(String(start.headers.location), sub);
    const res = await callback(back, cookieOf(start, /^tt_oidc=/));
    expect(res.status).toBe(302);
    const id = /^\/settings\/sign-in\?result=(\d+)$/.exec(String(res.headers.location))?.[1];
    expect(id).toBeDefined();
    expect(cookieOf(res, /^tt_session=/)).toBeUndefined();
    const users = await h.ctx.db.selectFrom('users').select('id').where('email', '=', 'tested@example.com').execute();
    expect(users).toEqual([]);

    const result = await owner.request('GET', `/api/console/oidc/test/${id}/`);
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      ok: true,
      error: null,
      claims: { sub, email: 'tested@example.com', email_verified: true, groups: ['tt-admins', 'web'], iss: idp.issuer },
      plan: {
        outcome: 'created',
        refusal: null,
        message: `Would create Tested (tested@example.com) in Org ${owner.org}.`,
        groups: ['tt-admins', 'web'],
        role: { from: null, to: 'admin', keptLastOwner: false },
        projects: [{ project: 'WEB', from: null, to: 'viewer' }],
        missing_projects: [],
      },
    });
  });

  it('a test sign-in of a refused person says why', async () => {
    const start = await h.request('GET', '/api/console/oidc/test/start/', {
      headers: { host: HOST, cookie: owner.cookie },
    });
    const back = await signInAtProvider(String(start.headers.location), account('nobody@other.org'));
    const res = await callback(back, cookieOf(start, /^tt_oidc=/));
    const id = /result=(\d+)/.exec(String(res.headers.location))![1];
    const result = await owner.request('GET', `/api/console/oidc/test/${id}/`);
    expect(result.body.data.plan).toEqual({
      outcome: 'refused',
      refusal: 'not_allowed',
      message: 'No account for nobody@other.org: the e-mail domain other.org is not one of OIDC_ALLOWED_DOMAINS.',
    });
  });

  it('only owners run test sign-ins, and only the owner who ran one reads it', async () => {
    const admin = await person(h, { org: owner.org, role: 'admin' });
    const refused = await h.request('GET', '/api/console/oidc/test/start/', {
      headers: { host: HOST, cookie: admin.cookie },
    });
    expect(refused.status).toBe(403);
    const anonymous = await h.request('GET', '/api/console/oidc/test/start/', { headers: { host: HOST } });
    expect(anonymous.status).toBe(401);
    const start = await h.request('GET', '/api/console/oidc/test/start/', {
      headers: { host: HOST, cookie: owner.cookie },
    });
    const back = await signInAtProvider(String(start.headers.location), account('peek@example.com'));
    const id = /result=(\d+)/.exec(String((await callback(back, cookieOf(start, /^tt_oidc=/))).headers.location))![1];
    const otherOwner = await person(h, { org: owner.org, role: 'owner' });
    expect((await otherOwner.request('GET', `/api/console/oidc/test/${id}/`)).status).toBe(404);
    expect((await admin.request('GET', `/api/console/oidc/test/${id}/`)).status).toBe(403);
  });

  it('with OIDC_PASSWORD_SIGNIN=off only owners sign in with a password', async () => {
    const member = await person(h, { org: owner.org, role: 'member' });
    h.ctx.config.oidc = idp.config({ organization: owner.org, passwordSignIn: false });
    const refused = await signIn(h, member.email);
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe(
      'Wrong e-mail or password. Password sign-in is for owners only here: everyone else signs in with Test IdP.',
    );
    const ownerEmail = (
      await h.ctx.db.selectFrom('users').select('email').where('id', '=', owner.userId).executeTakeFirstOrThrow()
    ).email!;
    expect((await signIn(h, ownerEmail, PASSWORD)).status).toBe(200);
  });

  it('offers RP-initiated sign-out at the provider', async () => {
    const res = await h.request('GET', '/api/console/oidc/sign-out/', { headers: { host: HOST } });
    expect(res.status).toBe(302);
    const url = new URL(String(res.headers.location));
    expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/session/end`);
    expect(url.searchParams.get('client_id')).toBe(idp.clientId);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${ORIGIN}/sign-in`);
  });

  it("an owner saves a group mapping that replaces the environment's, audited; removing it goes back", async () => {
    h.ctx.config.oidc = idp.config({
      organization: owner.org,
      allowedDomains: ['example.com'],
      roleMap: [{ group: 'staff', role: 'guest' }],
    });
    const environment = await owner.request('GET', '/api/console/oidc/mapping/');
    expect(environment.status).toBe(200);
    expect(environment.body.data).toEqual({
      source: 'environment',
      groups_claim: 'groups',
      roles: [{ group: 'staff', role: 'guest' }],
      projects: [],
      updated_at: null,
      updated_by: null,
    });
    const mappingRecords = async () =>
      (
        await h.ctx.db
          .selectFrom('audit_records')
          .select(['correlation_id', 'actor_id', 'session_id', 'target_type', 'before', 'after'])
          .where('action', '=', 'oidc.mapping_changed')
          .orderBy('id')
          .execute()
      ).map((r) => ({ ...r, before: JSON.parse(r.before!), after: JSON.parse(r.after!) }));
    const earlier = (await mappingRecords()).length;

    const mapping = {
      groups_claim: 'groups',
      roles: [{ group: 'staff', role: 'admin' }],
      projects: [{ group: 'web', project: 'WEB', role: 'viewer' }],
    };
    const saved = await owner.request('PUT', '/api/console/oidc/mapping/', mapping, { 'x-request-id': 'req-map' });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data).toEqual({
      source: 'settings',
      ...mapping,
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_by: { id: owner.userId, name: expect.any(String) },
    });
    // The same again changes nothing and records nothing.
    expect((await owner.request('PUT', '/api/console/oidc/mapping/', mapping)).status).toBe(200);

    // Sign-ins follow the saved mapping, not OIDC_ROLE_MAP.
    const sub = account('settings-mapped@example.com', { groups: ['staff', 'web'] });
    const user = (await whoIs(await signInAs(sub)))!;
    expect(await roleOf(user.id)).toBe('admin');
    expect(await projectRoles(user.id)).toEqual({ WEB: 'viewer' });

    const removed = await owner.request('DELETE', '/api/console/oidc/mapping/', undefined, {
      'x-request-id': 'req-unmap',
    });
    expect(removed.status).toBe(200);
    expect(removed.body.data.source).toBe('environment');
    await signInAs(sub);
    expect(await roleOf(user.id)).toBe('guest');

    const settings = { source: 'settings', roles: mapping.roles, projects: mapping.projects };
    const env = { source: 'environment', roles: [{ group: 'staff', role: 'guest' }], projects: [] };
    const common = { actor_id: owner.userId, session_id: owner.sessionId, target_type: 'oidc_mapping' };
    expect((await mappingRecords()).slice(earlier)).toEqual([
      { ...common, correlation_id: 'req-map', before: env, after: settings },
      { ...common, correlation_id: 'req-unmap', before: settings, after: env },
    ]);
  });

  it('only owners read and change the group mapping; project keys must exist; there is none without a provider', async () => {
    const admin = await person(h, { org: owner.org, role: 'admin' });
    const body = { groups_claim: 'groups', roles: [], projects: [] };
    expect((await admin.request('GET', '/api/console/oidc/mapping/')).status).toBe(403);
    expect((await admin.request('PUT', '/api/console/oidc/mapping/', body)).status).toBe(403);
    expect((await admin.request('DELETE', '/api/console/oidc/mapping/')).status).toBe(403);
    const unknown = await owner.request('PUT', '/api/console/oidc/mapping/', {
      ...body,
      projects: [
        { group: 'web', project: 'WEB', role: 'member' },
        { group: 'x', project: 'NOPE', role: 'member' },
      ],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.fields).toEqual({ 'projects[1].project': 'no project NOPE' });
    const badRole = await owner.request('PUT', '/api/console/oidc/mapping/', {
      ...body,
      roles: [{ group: 'x', role: 'superuser' }],
    });
    expect(badRole.status).toBe(400);
    expect((await owner.request('GET', '/api/console/oidc/mapping/')).body.data.source).toBe('environment');
    h.ctx.config.oidc = null;
    expect((await owner.request('GET', '/api/console/oidc/mapping/')).status).toBe(404);
    expect((await owner.request('PUT', '/api/console/oidc/mapping/', body)).status).toBe(404);
  });
});

describe('OpenID Connect configuration', () => {
  const base = { PUBLIC_BASE_URL: 'https://tracker.example.com', OIDC_ISSUER: 'https://sso.example.com/realms/acme' };

  it('is off without OIDC_ISSUER, and reads every variable with it', () => {
    expect(loadConfig({}).oidc).toBeNull();
    expect(
      loadConfig({
        ...base,
        OIDC_CLIENT_ID: 'tasktracker',
        OIDC_CLIENT_SECRET: 's3cret',
        OIDC_NAME: 'Acme SSO',
        OIDC_ORGANIZATION: 'acme',
        OIDC_ALLOWED_DOMAINS: 'acme.com, @Acme.Co.UK',
        OIDC_REQUIRED_GROUPS: 'tracker',
        OIDC_GROUPS_CLAIM: 'roles',
        OIDC_ROLE_MAP: 'tt-admins=admin, staff=member',
        OIDC_PROJECT_MAP: 'web=WEB:member,web-leads=WEB:admin',
        OIDC_DEFAULT_ROLE: 'guest',
        OIDC_PASSWORD_SIGNIN: 'off',
        OIDC_SCOPES: 'openid email profile groups',
        OIDC_CLOCK_TOLERANCE_SECONDS: '60',
      }).oidc,
    ).toEqual({
      issuer: 'https://sso.example.com/realms/acme',
      clientId: 'tasktracker',
      clientSecret: 's3cret',
      name: 'Acme SSO',
      organization: 'acme',
      scopes: ['openid', 'email', 'profile', 'groups'],
      allowedDomains: ['acme.com', 'acme.co.uk'],
      requiredGroups: ['tracker'],
      groupsClaim: 'roles',
      roleMap: [
        { group: 'tt-admins', role: 'admin' },
        { group: 'staff', role: 'member' },
      ],
      projectMap: [
        { group: 'web', project: 'WEB', role: 'member' },
        { group: 'web-leads', project: 'WEB', role: 'admin' },
      ],
      defaultRole: 'guest',
      passwordSignIn: false,
      clockToleranceSeconds: 60,
    });
  });

  it.each([
    [{ OIDC_CLIENT_ID: 'x' }, 'OIDC_CLIENT_ID is set but OIDC_ISSUER is not'],
    [{ ...base }, 'OIDC_ISSUER is set: OIDC_CLIENT_ID must be set too'],
    [{ OIDC_ISSUER: base.OIDC_ISSUER, OIDC_CLIENT_ID: 'x' }, 'PUBLIC_BASE_URL must be set too'],
    [{ ...base, OIDC_ISSUER: 'http://sso.example.com', OIDC_CLIENT_ID: 'x' }, 'OIDC_ISSUER must be an https URL'],
    [{ ...base, OIDC_CLIENT_ID: 'x', OIDC_ROLE_MAP: 'admins=boss' }, 'OIDC_ROLE_MAP: "boss" is not a workspace role'],
    [{ ...base, OIDC_CLIENT_ID: 'x', OIDC_ROLE_MAP: 'admins' }, 'OIDC_ROLE_MAP must list group=value pairs'],
    [{ ...base, OIDC_CLIENT_ID: 'x', OIDC_PROJECT_MAP: 'web=web:member' }, 'OIDC_PROJECT_MAP: "web:member" must be'],
    [{ ...base, OIDC_CLIENT_ID: 'x', OIDC_PASSWORD_SIGNIN: 'maybe' }, 'OIDC_PASSWORD_SIGNIN must be on or off'],
    [{ ...base, OIDC_CLIENT_ID: 'x', OIDC_DEFAULT_ROLE: 'owner' }, 'OIDC_DEFAULT_ROLE must be admin, member or guest'],
    [{ ...base, OIDC_CLIENT_ID: 'x', OIDC_SCOPES: 'email' }, 'OIDC_SCOPES must include openid'],
  ])('refuses %j at start', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('accepts plain http from a provider on loopback only', () => {
    const env = { ...base, OIDC_ISSUER: 'http://127.0.0.1:8081/realms/dev', OIDC_CLIENT_ID: 'x' };
    expect(loadConfig(env).oidc?.issuer).toBe('http://127.0.0.1:8081/realms/dev');
  });
});
