import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage } from '../../src/mail/mailer.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { HOST, ORIGIN, PASSWORD, person, signIn } from '../helpers/people.ts';

/**
 * An invitation or reset link acts only while whoever issued it could still issue it, for the
 * role its target has now (docs/operating/security.md, "Links"): a deactivated or demoted
 * issuer's links are dead, and a reset link dies when its target's role or password changes.
 */
describe('links act only while their issuer could still issue them', () => {
  let h: TestHarness;
  const mails: MailMessage[] = [];
  beforeAll(async () => {
    h = await createHarness({ config: { publicBaseUrl: ORIGIN } });
    h.ctx.mailer = { send: async (message) => void mails.push(message) };
  });
  afterAll(() => h.close());

  const tokenOfLink = (url: string) => new URL(url).hash.replace('#token=', '');
  const publicPost = (url: string, body: unknown) =>
    h.request('POST', url, { body, headers: { host: HOST, origin: ORIGIN } });
  const accept = (token: string) =>
    publicPost('/api/console/invitations/accept/', { token, name: 'Newcomer', password: PASSWORD });
  const lookup = (token: string) => h.request('GET', `/api/console/invitations/lookup/?token=${token}`);
  const complete = (token: string) =>
    publicPost('/api/console/password-resets/complete/', { token, password: 'a brand new password' });

  async function organization() {
    const owner = await person(h, { role: 'owner' });
    const admin = await person(h, { org: owner.org, role: 'admin' });
    return { owner, admin };
  }

  it("an admin invitation dies with its issuer's deactivation, and another with their demotion", async () => {
    const { owner, admin } = await organization();
    const first = await admin.request('POST', '/api/console/invitations/', { email: 'a1@example.test', role: 'admin' });
    const second = await admin.request('POST', '/api/console/invitations/', {
      email: 'a2@example.test',
      role: 'member',
    });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((await lookup(tokenOfLink(first.body.data.url))).status).toBe(200);

    expect((await owner.request('PATCH', `/api/console/people/${admin.userId}/`, { active: false })).status).toBe(200);
    expect((await lookup(tokenOfLink(first.body.data.url))).status).toBe(404);
    const refused = await accept(tokenOfLink(first.body.data.url));
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields).toHaveProperty('token');

    expect(
      (await owner.request('PATCH', `/api/console/people/${admin.userId}/`, { active: true, role: 'member' })).status,
    ).toBe(200);
    expect((await accept(tokenOfLink(second.body.data.url))).status).toBe(400);
    const people = await owner.request('GET', '/api/console/people/');
    expect(people.body.data.map((p: { email: string }) => p.email)).not.toContain('a1@example.test');
    expect(people.body.data.map((p: { email: string }) => p.email)).not.toContain('a2@example.test');

    // Made admin again, they could issue it again: the link acts again (until it expires).
    expect((await owner.request('PATCH', `/api/console/people/${admin.userId}/`, { role: 'admin' })).status).toBe(200);
    const accepted = await accept(tokenOfLink(second.body.data.url));
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.user.role).toBe('member');
  });

  it("an owner invitation dies when its issuer is no longer an owner; the operator's and a live issuer's act", async () => {
    const { owner } = await organization();
    const other = await person(h, { org: owner.org, role: 'owner' });
    const invited = await owner.request('POST', '/api/console/invitations/', {
      email: 'o1@example.test',
      role: 'owner',
    });
    const kept = await other.request('POST', '/api/console/invitations/', { email: 'o2@example.test', role: 'owner' });
    expect(invited.status).toBe(201);
    expect((await other.request('PATCH', `/api/console/people/${owner.userId}/`, { role: 'admin' })).status).toBe(200);
    expect((await lookup(tokenOfLink(invited.body.data.url))).status).toBe(404);
    expect((await accept(tokenOfLink(invited.body.data.url))).status).toBe(400);
    const accepted = await accept(tokenOfLink(kept.body.data.url));
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.user.role).toBe('owner');
  });

  it("an admin's reset link dies with the admin's deactivation or demotion", async () => {
    const { owner, admin } = await organization();
    const member = await person(h, { org: owner.org, role: 'member' });
    const issue = async () =>
      tokenOfLink((await admin.request('POST', `/api/console/people/${member.userId}/password-reset/`)).body.data.url);
    const first = await issue();
    const second = await issue();
    expect((await owner.request('PATCH', `/api/console/people/${admin.userId}/`, { role: 'member' })).status).toBe(200);
    const refused = await complete(first);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields).toHaveProperty('token');
    expect((await owner.request('PATCH', `/api/console/people/${admin.userId}/`, { active: false })).status).toBe(200);
    expect((await complete(second)).status).toBe(400);
    expect((await signIn(h, member.email)).status).toBe(200);
  });

  it('a reset link dies when its target is made owner, or has any other role, than when it was issued', async () => {
    const { owner, admin } = await organization();
    const member = await person(h, { org: owner.org, role: 'member' });
    const byAdmin = tokenOfLink(
      (await admin.request('POST', `/api/console/people/${member.userId}/password-reset/`)).body.data.url,
    );
    const byOwner = tokenOfLink(
      (await owner.request('POST', `/api/console/people/${member.userId}/password-reset/`)).body.data.url,
    );
    expect((await owner.request('PATCH', `/api/console/people/${member.userId}/`, { role: 'owner' })).status).toBe(200);
    expect((await complete(byAdmin)).status).toBe(400);
    expect((await complete(byOwner)).status).toBe(400);
    expect((await signIn(h, member.email)).status).toBe(200);
  });

  it('a reset link, issued or e-mailed, dies when its target changes their own password', async () => {
    const { owner } = await organization();
    const member = await person(h, { org: owner.org, role: 'member' });
    const issued = tokenOfLink(
      (await owner.request('POST', `/api/console/people/${member.userId}/password-reset/`)).body.data.url,
    );
    mails.length = 0;
    expect((await publicPost('/api/console/password-resets/', { email: member.email })).status).toBe(202);
    await new Promise((resolve) => setImmediate(resolve));
    const emailed = tokenOfLink(/(http\S+reset-password#token=\S+)/.exec(mails[0]!.text)![1]!);

    const changed = await member.request('POST', '/api/console/profile/password/', {
      current_password: PASSWORD,
      new_password: 'my own new password',
    });
    expect(changed.status).toBe(204);
    expect((await complete(issued)).status).toBe(400);
    expect((await complete(emailed)).status).toBe(400);
    expect((await signIn(h, member.email, 'my own new password')).status).toBe(200);
  });

  it('using one reset link ends the other open ones of the same person', async () => {
    const { owner } = await organization();
    const member = await person(h, { org: owner.org, role: 'member' });
    const issue = async () =>
      tokenOfLink((await owner.request('POST', `/api/console/people/${member.userId}/password-reset/`)).body.data.url);
    const first = await issue();
    const second = await issue();
    expect((await complete(first)).status).toBe(200);
    expect((await complete(second)).status).toBe(400);
  });
});
