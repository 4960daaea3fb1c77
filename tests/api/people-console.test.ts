import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MailMessage } from '../../src/mail/mailer.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { browserFrom, HOST, ORIGIN, PASSWORD, person, signIn } from '../helpers/people.ts';

// A pass-through spy, to see which hashes a sign-in verifies.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...original, verify: vi.fn(original.verify) };
});
const { verify } = await import('@node-rs/argon2');

const tokenOfLink = (url: string) => new URL(url).hash.replace('#token=', '');

describe('people: the organization console', () => {
  let h: TestHarness;
  const mails: MailMessage[] = [];
  beforeAll(async () => {
    h = await createHarness({
      config: { publicBaseUrl: ORIGIN, signIn: { perAccount: 5, perAddress: 1000, windowSeconds: 900 } },
    });
    h.ctx.mailer = { send: async (message) => void mails.push(message) };
  });
  afterAll(() => h.close());

  const publicPost = (url: string, body: unknown) =>
    h.request('POST', url, { body, headers: { host: HOST, origin: ORIGIN } });

  it('throttles failed sign-ins per account, known or not, and a success clears the count', async () => {
    const p = await person(h);
    for (let i = 0; i < 5; i++) expect((await signIn(h, p.email, 'wrong password!!')).status).toBe(401);
    const locked = await signIn(h, p.email, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('RATE_LIMITED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);

    for (let i = 0; i < 5; i++) expect((await signIn(h, 'ghost@example.test', 'wrong password!!')).status).toBe(401);
    const ghost = await signIn(h, 'ghost@example.test', 'wrong password!!');
    expect(ghost.status).toBe(429);
    expect(ghost.body.error.message).toBe(
      locked.body.error.message.replace(/\d+ seconds/, ghost.body.error.message.match(/\d+ seconds/)![0]),
    );

    const q = await person(h);
    for (let i = 0; i < 4; i++) await signIn(h, q.email, 'wrong password!!');
    expect((await signIn(h, q.email)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await signIn(h, q.email, 'wrong password!!')).status).toBe(401);
    expect((await signIn(h, q.email)).status).toBe(200);
  });

  it('throttles per client address across accounts', async () => {
    const strict = await createHarness({ config: { signIn: { perAccount: 100, perAddress: 3, windowSeconds: 900 } } });
    try {
      const p = await person(strict);
      for (let i = 0; i < 3; i++)
        expect((await signIn(strict, `someone${i}@example.test`, 'wrong password!!')).status).toBe(401);
      expect((await signIn(strict, p.email)).status).toBe(429);
      // Without TRUST_PROXY a forged X-Forwarded-For does not make it another address.
      expect((await signIn(strict, p.email, PASSWORD, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(429);
    } finally {
      await strict.close();
    }
  });

  it('throttles guesses of the current password on the password-change form like sign-in', async () => {
    const p = await person(h);
    const change = (current: string) =>
      p.request('POST', '/api/console/profile/password/', {
        current_password: current,
        new_password: 'a new password here',
      });
    for (let i = 0; i < 5; i++) expect((await change('wrong password!!')).status).toBe(400);
    const locked = await change(PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('RATE_LIMITED');
    expect((await signIn(h, p.email)).status).toBe(429);
  });

  it('an unknown account costs the same password hashing as a wrong password', async () => {
    const p = await person(h);
    // The PHC string up to the salt: algorithm, version, memory, iterations and lanes, which set the cost.
    const costOf = (phc: string) => phc.split('$').slice(1, 4).join('$');
    const verifiedFor = async (email: string) => {
      vi.mocked(verify).mockClear();
      expect((await signIn(h, email, 'wrong password?')).status).toBe(401);
      return vi.mocked(verify).mock.calls.map(([hashed]) => costOf(hashed as string));
    };
    const wrong = await verifiedFor(p.email);
    const unknown = await verifiedFor('nobody@example.test');
    expect(wrong).toEqual(['argon2id$v=19$m=19456,t=2,p=1']);
    expect(unknown).toEqual(wrong);
  });

  it("lists one's sessions and revokes one from another session", async () => {
    const first = await person(h);
    const second = browserFrom(h, await signIn(h, first.email, PASSWORD, { 'user-agent': 'Phone/1.0' }));
    const list = await first.request('GET', '/api/console/sessions/');
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { id: number; current: boolean }) => [s.id, s.current])).toEqual([
      [second.sessionId, false],
      [first.sessionId, true],
    ]);
    expect(list.body.data[0]).toMatchObject({ user_agent: 'Phone/1.0', ip: '127.0.0.1' });

    expect((await first.request('DELETE', `/api/console/sessions/${second.sessionId}/`)).status).toBe(204);
    expect((await second.request('GET', '/api/console/session/')).status).toBe(401);
    expect((await first.request('GET', '/api/console/session/')).status).toBe(200);
    // Someone else's session is not found.
    const stranger = await person(h);
    expect((await stranger.request('DELETE', `/api/console/sessions/${first.sessionId}/`)).status).toBe(404);
    expect((await first.request('GET', '/api/console/session/')).status).toBe(200);
  });

  it('role changes; deactivation ends sessions and tokens at once; the last owner stays', async () => {
    const owner = await person(h, { role: 'owner' });
    const admin = await person(h, { org: owner.org, role: 'admin' });
    const member = await person(h, { org: owner.org, role: 'member' });
    const token = (await h.tokenFor(member.userId)).token;
    expect((await h.request('GET', '/api/v1/me/', { token })).status).toBe(200);

    const people = await admin.request('GET', '/api/console/people/');
    expect(people.body.data.map((x: { id: number }) => x.id)).toEqual([owner.userId, admin.userId, member.userId]);
    expect(people.body.data[2]).toMatchObject({ kind: 'human', role: 'member', active: true, email: member.email });

    const promoted = await admin.request('PATCH', `/api/console/people/${member.userId}/`, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data.role).toBe('admin');
    // Only an owner touches owners.
    const byAdmin = await admin.request('PATCH', `/api/console/people/${member.userId}/`, { role: 'owner' });
    expect(byAdmin.status).toBe(403);
    expect((await admin.request('PATCH', `/api/console/people/${owner.userId}/`, { active: false })).status).toBe(403);
    // A member cannot change anyone.
    const plain = await person(h, { org: owner.org, role: 'member' });
    expect((await plain.request('PATCH', `/api/console/people/${member.userId}/`, { role: 'guest' })).status).toBe(403);

    const lastOwner = await owner.request('PATCH', `/api/console/people/${owner.userId}/`, { role: 'admin' });
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body.error.code).toBe('LAST_OWNER');
    expect(
      (await owner.request('PATCH', `/api/console/people/${owner.userId}/`, { active: false })).body.error.code,
    ).toBe('LAST_OWNER');
    expect((await owner.request('PATCH', `/api/console/people/${admin.userId}/`, { role: 'owner' })).status).toBe(200);
    expect((await owner.request('PATCH', `/api/console/people/${owner.userId}/`, { role: 'admin' })).status).toBe(200);

    const off = await admin.request('PATCH', `/api/console/people/${member.userId}/`, { active: false });
    expect(off.status).toBe(200);
    expect(off.body.data.active).toBe(false);
    expect((await member.request('GET', '/api/console/session/')).status).toBe(401);
    expect((await member.request('GET', '/api/v1/me/')).status).toBe(401);
    expect((await h.request('GET', '/api/v1/me/', { token })).status).toBe(401);
    expect((await signIn(h, member.email)).status).toBe(401);
    // Reactivation does not bring the ended session back.
    expect((await admin.request('PATCH', `/api/console/people/${member.userId}/`, { active: true })).status).toBe(200);
    expect((await member.request('GET', '/api/console/session/')).status).toBe(401);
    expect((await signIn(h, member.email)).status).toBe(200);
  });

  it('invitations: shown once, e-mailed, accepted once, expired after their time, revocable', async () => {
    const owner = await person(h, { role: 'owner' });
    mails.length = 0;
    const res = await owner.request('POST', '/api/console/invitations/', {
      email: 'New.Person@Example.test',
      role: 'member',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      email: 'new.person@example.test',
      role: 'member',
      emailed: true,
      invited_by: { id: owner.userId },
    });
    expect(res.body.data.url).toMatch(new RegExp(`^${ORIGIN}/invite#token=[A-Za-z0-9_-]{43}$`));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(['new.person@example.test']);
    expect(mails[0]!.text).toContain(res.body.data.url);
    const token = tokenOfLink(res.body.data.url);
    const stored = await h.ctx.db
      .selectFrom('invitations')
      .select('token_hash')
      .where('id', '=', res.body.data.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(token);

    const listed = await owner.request('GET', '/api/console/invitations/');
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).not.toHaveProperty('url');

    const lookup = await h.request('GET', `/api/console/invitations/lookup/?token=${token}`);
    expect(lookup.body.data).toMatchObject({
      email: 'new.person@example.test',
      role: 'member',
      organization: { name: `Org ${owner.org}` },
    });

    const accepted = await publicPost('/api/console/invitations/accept/', {
      token,
      name: 'New Person',
      password: PASSWORD,
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.user).toMatchObject({
      email: 'new.person@example.test',
      name: 'New Person',
      role: 'member',
    });
    const newcomer = browserFrom(h, accepted);
    expect((await newcomer.request('GET', '/api/console/session/')).status).toBe(200);
    const twice = await publicPost('/api/console/invitations/accept/', { token, name: 'Again', password: PASSWORD });
    expect(twice.status).toBe(400);
    expect((await h.request('GET', `/api/console/invitations/lookup/?token=${token}`)).status).toBe(404);
    expect((await owner.request('GET', '/api/console/invitations/')).body.data).toEqual([]);
    expect(
      (await owner.request('POST', '/api/console/invitations/', { email: 'new.person@example.test', role: 'member' }))
        .body.error.code,
    ).toBe('ALREADY_EXISTS');

    const later = await owner.request('POST', '/api/console/invitations/', {
      email: 'late@example.test',
      role: 'guest',
    });
    h.clock.advance(h.ctx.config.links.invitationMs + 1000);
    expect(
      (await h.request('GET', `/api/console/invitations/lookup/?token=${tokenOfLink(later.body.data.url)}`)).status,
    ).toBe(404);
    expect(
      (
        await publicPost('/api/console/invitations/accept/', {
          token: tokenOfLink(later.body.data.url),
          name: 'Late',
          password: PASSWORD,
        })
      ).status,
    ).toBe(400);

    // A week idle ended the owner's session too.
    expect((await owner.request('GET', '/api/console/session/')).status).toBe(401);
    const back = browserFrom(h, await signIn(h, owner.email));
    const revoked = await back.request('POST', '/api/console/invitations/', {
      email: 'revoked@example.test',
      role: 'guest',
    });
    expect((await back.request('DELETE', `/api/console/invitations/${revoked.body.data.id}/`)).status).toBe(204);
    expect(
      (
        await publicPost('/api/console/invitations/accept/', {
          token: tokenOfLink(revoked.body.data.url),
          name: 'R',
          password: PASSWORD,
        })
      ).status,
    ).toBe(400);

    const member = await person(h, { org: owner.org, role: 'member' });
    expect(
      (await member.request('POST', '/api/console/invitations/', { email: 'x@example.test', role: 'member' })).status,
    ).toBe(403);
    const admin = await person(h, { org: owner.org, role: 'admin' });
    expect(
      (await admin.request('POST', '/api/console/invitations/', { email: 'y@example.test', role: 'owner' })).status,
    ).toBe(403);
  });

  it("password resets: an admin's link, self-service by e-mail, each used once; sessions end", async () => {
    const admin = await person(h, { role: 'admin' });
    const member = await person(h, { org: admin.org, role: 'member' });
    const issued = await admin.request('POST', `/api/console/people/${member.userId}/password-reset/`);
    expect(issued.status).toBe(201);
    expect(issued.body.data.url).toMatch(/\/reset-password#token=/);
    const done = await publicPost('/api/console/password-resets/complete/', {
      token: tokenOfLink(issued.body.data.url),
      password: 'a brand new password',
    });
    expect(done.status).toBe(200);
    expect(done.body.data.user.id).toBe(member.userId);
    expect((await member.request('GET', '/api/console/session/')).status).toBe(401);
    expect((await signIn(h, member.email, 'a brand new password')).status).toBe(200);
    expect(
      (
        await publicPost('/api/console/password-resets/complete/', {
          token: tokenOfLink(issued.body.data.url),
          password: 'another new password',
        })
      ).status,
    ).toBe(400);
    expect(
      (await browserFrom(h, done).request('POST', `/api/console/people/${admin.userId}/password-reset/`)).status,
    ).toBe(403);

    mails.length = 0;
    const asked = await publicPost('/api/console/password-resets/', { email: member.email.toUpperCase() });
    expect(asked.status).toBe(202);
    const nobody = await publicPost('/api/console/password-resets/', { email: 'nobody@example.test' });
    expect(nobody.status).toBe(202);
    expect(nobody.body).toEqual(asked.body);
    await new Promise((resolve) => setImmediate(resolve));
    expect(mails).toHaveLength(1);
    const link = /(http\S+reset-password#token=\S+)/.exec(mails[0]!.text)![1]!;
    h.clock.advance(h.ctx.config.links.passwordResetMs + 1000);
    expect(
      (
        await publicPost('/api/console/password-resets/complete/', {
          token: tokenOfLink(link),
          password: 'too late password',
        })
      ).status,
    ).toBe(400);
  });

  it('tokens: create (shown once), list with last use, revoke', async () => {
    const admin = await person(h, { role: 'admin' });
    const bot = await admin.request('POST', '/api/console/service-accounts/', { name: 'Sync bot', role: 'member' });
    expect(bot.status).toBe(201);
    expect(bot.body.data).toMatchObject({
      kind: 'service',
      name: 'Sync bot',
      role: 'member',
      active: true,
      email: null,
    });
    await admin.request('POST', '/api/v1/projects/', { name: 'Web', key: `W${admin.userId}` });

    const created = await admin.request('POST', '/api/console/tokens/', {
      name: 'CI',
      account: bot.body.data.id,
      scopes: ['tasks:read'],
      projects: [`W${admin.userId}`],
      expires_in_hours: 48,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'CI',
      account: { id: bot.body.data.id, name: 'Sync bot' },
      scopes: ['tasks:read'],
      projects: [`W${admin.userId}`],
      last_used_at: null,
    });
    expect(created.body.data.token).toMatch(/^tt_/);
    expect(Date.parse(created.body.data.expires_at) - h.clock.nowMs()).toBeGreaterThan(47 * 3600 * 1000);

    expect((await h.request('GET', '/api/v1/me/', { token: created.body.data.token })).status).toBe(200);
    const list = await admin.request('GET', '/api/console/tokens/');
    const row = list.body.data.find((t: { id: number }) => t.id === created.body.data.id);
    expect(row).not.toHaveProperty('token');
    expect(row.last_used_at).not.toBeNull();

    const member = await person(h, { org: admin.org, role: 'member' });
    expect((await member.request('GET', '/api/console/tokens/')).body.data).toEqual([]);
    expect(
      (
        await member.request('POST', '/api/console/tokens/', {
          name: 'x',
          account: bot.body.data.id,
          scopes: ['tasks:read'],
        })
      ).status,
    ).toBe(403);
    expect((await member.request('DELETE', `/api/console/tokens/${created.body.data.id}/`)).status).toBe(404);
    const own = await member.request('POST', '/api/console/tokens/', {
      name: 'mine',
      account: member.userId,
      scopes: ['tasks:read'],
    });
    expect(own.status).toBe(201);
    expect((await member.request('GET', '/api/console/tokens/')).body.data.map((t: { id: number }) => t.id)).toEqual([
      own.body.data.id,
    ]);

    expect((await admin.request('DELETE', `/api/console/tokens/${created.body.data.id}/`)).status).toBe(204);
    expect((await h.request('GET', '/api/v1/me/', { token: created.body.data.token })).status).toBe(401);
    expect(
      (await admin.request('GET', '/api/console/tokens/')).body.data.some(
        (t: { id: number }) => t.id === created.body.data.id,
      ),
    ).toBe(false);
  });

  it('organization, profile and password', async () => {
    const owner = await person(h, { role: 'owner' });
    const other = browserFrom(h, await signIn(h, owner.email));
    expect((await owner.request('PATCH', '/api/console/organization/', { name: 'Renamed' })).body.data.name).toBe(
      'Renamed',
    );
    const member = await person(h, { org: owner.org });
    expect((await member.request('GET', '/api/console/organization/')).body.data.name).toBe('Renamed');
    expect((await member.request('PATCH', '/api/console/organization/', { name: 'Mine' })).status).toBe(403);

    expect((await owner.request('PATCH', '/api/console/profile/', { name: 'Ann Owner' })).body.data.name).toBe(
      'Ann Owner',
    );
    const wrong = await owner.request('POST', '/api/console/profile/password/', {
      current_password: 'not it at all',
      new_password: 'a new password here',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.fields).toHaveProperty('current_password');
    expect(
      (
        await owner.request('POST', '/api/console/profile/password/', {
          current_password: PASSWORD,
          new_password: 'short',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await owner.request('POST', '/api/console/profile/password/', {
          current_password: PASSWORD,
          new_password: 'a new password here',
        })
      ).status,
    ).toBe(204);
    // The session that changed it stays; the others end.
    expect((await owner.request('GET', '/api/console/session/')).status).toBe(200);
    expect((await other.request('GET', '/api/console/session/')).status).toBe(401);
    expect((await signIn(h, owner.email, 'a new password here')).status).toBe(200);
  });
});
