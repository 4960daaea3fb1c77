import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/unit-of-work.ts';
import { issueSetupToken } from '../../src/modules/people/setup.service.ts';
import { purgeEndedSessionsAndLinks } from '../../src/identity/sessions.service.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { eventsFor } from '../helpers/factory.ts';
import { browserFrom, HOST, ORIGIN, PASSWORD, person, sessionCookieOf, signIn } from '../helpers/people.ts';
import { idempotencyRecords, rowCount } from '../helpers/storage.ts';

describe('people: first run, sign-in, sessions, CSRF', () => {
  let h: TestHarness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  const publicPost = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    h.request('POST', url, { body, headers: { host: HOST, origin: ORIGIN, ...headers } });

  it('the setup link creates the organization and its owner once, and signs the owner in', async () => {
    expect((await h.request('GET', '/api/console/setup/')).body.data).toEqual({ needed: true });
    const first = (await inTransaction(h.ctx, issueSetupToken))!;
    const second = (await inTransaction(h.ctx, issueSetupToken))!;
    const body = {
      token: first.token,
      organization: { name: 'Acme', slug: 'acme' },
      name: 'Ann',
      email: 'Ann@Acme.test',
      password: PASSWORD,
    };

    const short = await publicPost('/api/console/setup/', { ...body, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.error.details.fields).toEqual({ password: 'must be at least 10 characters' });

    const res = await publicPost('/api/console/setup/', body);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      user: { kind: 'human', email: 'ann@acme.test', name: 'Ann', role: 'owner' },
      organization: { slug: 'acme', name: 'Acme' },
    });
    expect(res.body.data.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^tt_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Secure');

    // Used once: the same link, and the other link printed before, no longer work.
    for (const token of [first.token, second.token]) {
      const again = await publicPost('/api/console/setup/', {
        ...body,
        token,
        organization: { name: 'Evil', slug: 'evil' },
      });
      expect(again.status).toBe(400);
      expect(again.body.error.details.fields.token).toMatch(/not a valid setup link/);
    }
    expect(await inTransaction(h.ctx, issueSetupToken)).toBeNull();
    expect((await h.request('GET', '/api/console/setup/')).body.data).toEqual({ needed: false });
    expect(await h.ctx.db.selectFrom('organizations').select('slug').execute()).toEqual([{ slug: 'acme' }]);

    const owner = browserFrom(h, res);
    const session = await owner.request('GET', '/api/console/session/');
    expect(session.status).toBe(200);
    expect(session.body.data.user.email).toBe('ann@acme.test');
  });

  it('a wrong password and an unknown account get the same answer', async () => {
    const p = await person(h, { org: 'acme' });
    const wrong = await signIn(h, p.email, 'not the password at all');
    const unknown = await signIn(h, 'nobody@nowhere.test', 'not the password at all');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({
      success: false,
      error: { code: 'INVALID_CREDENTIALS', message: 'Wrong e-mail or password.', details: {} },
    });
    expect(unknown.body).toEqual(wrong.body);
    expect(sessionCookieOf(wrong)).toBeUndefined();
    // Case of the address does not matter; each sign-in is a new session.
    const ok = await signIn(h, p.email.toUpperCase());
    expect(ok.status).toBe(200);
    expect(ok.body.data.session.id).not.toBe(p.sessionId);
    expect(sessionCookieOf(ok)).not.toBe(p.cookie);
  });

  it('a session cookie authenticates /api/v1/ as the person, seeing exactly their projects', async () => {
    const bot = await h.actor({ org: 'acme', role: 'admin' });
    await h.project(bot, 'SEEN');
    await h.project(bot, 'HIDDEN');
    const p = await person(h, { org: 'acme', role: 'member' });
    await h.addMember('SEEN', p.userId, 'viewer');

    const me = await p.request('GET', '/api/v1/me/');
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ account: { id: p.userId, kind: 'human', role: 'member' }, token: null });
    expect(me.body.data.projects.map((x: { key: string }) => x.key)).toEqual(['SEEN']);
    const list = await p.request('GET', '/api/v1/projects/');
    expect(list.body.data.map((x: { key: string }) => x.key)).toEqual(['SEEN']);
    const hidden = await p.request('GET', '/api/v1/projects/HIDDEN/tasks/');
    expect(hidden.status).toBe(404);
    // A viewer may not write, whatever the scopes: roles decide for people.
    const write = await p.request('POST', '/api/v1/projects/SEEN/tasks/', { title: 'Nope' });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('FORBIDDEN');
  });

  it('CSRF: a cookie-authenticated write needs the header and the own Origin; bearer requests are exempt', async () => {
    const p = await person(h, { org: 'acme', role: 'admin' });
    const count = () => rowCount(h, 'projects');
    const before = await count();
    const noHeader = await h.request('POST', '/api/v1/projects/', {
      body: { name: 'X', key: 'CSRFA' },
      headers: { host: HOST, cookie: p.cookie, origin: ORIGIN },
    });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.error.code).toBe('CSRF_FAILED');
    expect(noHeader.body.error.message).toMatch(/X-CSRF-Token/);
    const wrongToken = await p.request(
      'POST',
      '/api/v1/projects/',
      { name: 'X', key: 'CSRFA' },
      { 'x-csrf-token': 'x'.repeat(43) },
    );
    expect(wrongToken.status).toBe(403);
    const foreign = await p.request(
      'POST',
      '/api/v1/projects/',
      { name: 'X', key: 'CSRFA' },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toMatchObject({ code: 'CSRF_FAILED' });
    expect(foreign.body.error.message).toMatch(/another origin/);
    const noOrigin = await h.request('POST', '/api/v1/projects/', {
      body: { name: 'X', key: 'CSRFA' },
      headers: { host: HOST, cookie: p.cookie, 'x-csrf-token': p.csrf },
    });
    expect(noOrigin.status).toBe(403);
    const console_ = await h.request('POST', '/api/console/sign-out/', {
      headers: { host: HOST, cookie: p.cookie, origin: ORIGIN },
    });
    expect(console_.status).toBe(403);
    expect(await count()).toBe(before);
    expect((await p.request('GET', '/api/console/session/')).status).toBe(200);

    const created = await p.request('POST', '/api/v1/projects/', { name: 'X', key: 'CSRFA' });
    expect(created.status).toBe(201);
    const bot = await h.actor({ org: 'acme' });
    const bearer = await h.request('POST', '/api/v1/projects/', {
      token: bot.token,
      body: { name: 'Y', key: 'CSRFB' },
      headers: { origin: 'https://evil.example' },
    });
    expect(bearer.status).toBe(201);
    // A foreign page cannot sign the browser in either.
    const forged = await signIn(h, p.email, PASSWORD, { origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe('CSRF_FAILED');
  });

  it('changes made through a session are events with source "app" and the person as actor; idempotency keys are per session', async () => {
    const p = await person(h, { org: 'acme', role: 'admin' });
    const created = await p.request('POST', '/api/v1/projects/', { name: 'App', key: 'APPEV' });
    expect(created.status).toBe(201);
    const first = await p.request(
      'POST',
      '/api/v1/projects/APPEV/tasks/',
      { title: 'From the browser' },
      { 'idempotency-key': 'k1' },
    );
    expect(first.status).toBe(201);
    const replay = await p.request(
      'POST',
      '/api/v1/projects/APPEV/tasks/',
      { title: 'From the browser' },
      { 'idempotency-key': 'k1' },
    );
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data.key).toBe(first.body.data.key);
    // Another session of the same person has its own keys.
    const other = browserFrom(h, await signIn(h, p.email));
    const fresh = await other.request(
      'POST',
      '/api/v1/projects/APPEV/tasks/',
      { title: 'From the browser' },
      { 'idempotency-key': 'k1' },
    );
    expect(fresh.status).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(fresh.body.data.key).not.toBe(first.body.data.key);

    const envelope = (await eventsFor(h, first.body.data.key)).find((e) => e.type === 'task.created');
    expect(envelope).toMatchObject({ source: 'app', actor: { id: p.userId, email: p.email } });
  });

  it('sessions end after the idle time and at the absolute limit', async () => {
    const { idleMs, absoluteMs } = h.ctx.config.sessions;
    expect(idleMs).toBe(7 * 24 * 3600 * 1000);
    expect(absoluteMs).toBe(30 * 24 * 3600 * 1000);
    const idle = await person(h, { org: 'acme' });
    h.clock.advance(idleMs - 60_000);
    expect((await idle.request('GET', '/api/console/session/')).status).toBe(200);
    // Using it moved the idle expiry; a full idle period without use ends it.
    h.clock.advance(idleMs - 1000);
    expect((await idle.request('GET', '/api/v1/me/')).status).toBe(200);
    h.clock.advance(idleMs + 1000);
    const expired = await idle.request('GET', '/api/v1/me/');
    expect(expired.status).toBe(401);
    expect(expired.body.error.message).toMatch(/expired/);

    const busy = await person(h, { org: 'acme' });
    const started = busy.sessionId;
    for (let elapsed = 0; elapsed < absoluteMs - 24 * 3600 * 1000; elapsed += 24 * 3600 * 1000) {
      h.clock.advance(24 * 3600 * 1000);
      expect((await busy.request('GET', '/api/console/session/')).status).toBe(200);
    }
    h.clock.advance(2 * 24 * 3600 * 1000);
    expect((await busy.request('GET', '/api/console/session/')).status).toBe(401);
    expect(started).toBeGreaterThan(0);
  });

  it('the worker deletes sessions 30 days after they ended, and their idempotency keys with them', async () => {
    const p = await person(h, { org: 'acme', role: 'admin' });
    await p.request('POST', '/api/v1/projects/', { name: 'Purge', key: 'PURGE' }, { 'idempotency-key': 'purge-me' });
    const live = await person(h, { org: 'acme' });
    await p.request('POST', '/api/console/sign-out/');
    h.clock.advance(29 * 24 * 3600 * 1000);
    await live.request('GET', '/api/console/session/');
    await purgeEndedSessionsAndLinks(h.ctx);
    const ids = async () => (await h.ctx.db.selectFrom('sessions').select('id').execute()).map((r) => r.id);
    expect(await ids()).toContain(p.sessionId);
    h.clock.advance(2 * 24 * 3600 * 1000);
    await live.request('GET', '/api/console/session/');
    await purgeEndedSessionsAndLinks(h.ctx);
    expect(await ids()).not.toContain(p.sessionId);
    expect(await ids()).toContain(live.sessionId);
    expect(await idempotencyRecords(h, 'purge-me')).toEqual([]);
  });

  it('sign-out ends the session and clears the cookie', async () => {
    const p = await person(h, { org: 'acme' });
    const out = await p.request('POST', '/api/console/sign-out/');
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^tt_session=;/);
    expect((await p.request('GET', '/api/console/session/')).status).toBe(401);
    expect((await p.request('GET', '/api/v1/me/')).status).toBe(401);
  });

  it('the console refuses bearer tokens and requests without a session', async () => {
    const bot = await h.actor({ org: 'acme' });
    const bearer = await h.request('GET', '/api/console/session/', { token: bot.token });
    expect(bearer.status).toBe(401);
    expect(bearer.body.error.message).toMatch(/console needs a signed-in person/);
    const none = await h.request('GET', '/api/console/people/');
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('over HTTPS behind a trusted proxy the cookie is __Host- prefixed and Secure', async () => {
    const proxied = await createHarness({ config: { trustProxy: 1 } });
    try {
      await proxied.actor({ org: 'tls' });
      const p = await person(proxied, { org: 'tls' });
      const headers = { 'x-forwarded-proto': 'https', origin: `https://${HOST}` };
      const res = await signIn(proxied, p.email, PASSWORD, headers);
      expect(res.status).toBe(200);
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/^__Host-tt_session=/);
      expect(cookie).toContain('Secure');
      const name = cookie.split(';')[0]!;
      const me = await proxied.request('GET', '/api/v1/me/', { headers: { ...headers, host: HOST, cookie: name } });
      expect(me.status).toBe(200);
      // Over https the unprefixed name is not accepted (a sibling host could have set it).
      const plain = await proxied.request('GET', '/api/v1/me/', {
        headers: { ...headers, host: HOST, cookie: name.replace('__Host-', '') },
      });
      expect(plain.status).toBe(401);
    } finally {
      await proxied.close();
    }
  });
});
