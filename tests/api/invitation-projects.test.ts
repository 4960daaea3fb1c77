import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage } from '../../src/mail/mailer.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { events } from '../helpers/factory.ts';
import { browserFrom, HOST, ORIGIN, PASSWORD, person, type Browser } from '../helpers/people.ts';

const tokenOfLink = (url: string) => new URL(url).hash.replace('#token=', '');

describe('invitations that name projects and roles', () => {
  let h: TestHarness;
  let owner: Browser & { org: string };
  const mails: MailMessage[] = [];
  const accept = (token: string, name: string) =>
    h.request('POST', '/api/console/invitations/accept/', {
      body: { token, name, password: PASSWORD },
      headers: { host: HOST, origin: ORIGIN },
    });

  beforeAll(async () => {
    // Links are e-mailed only under PUBLIC_BASE_URL.
    h = await createHarness({ config: { publicBaseUrl: ORIGIN } });
    h.ctx.mailer = { send: async (message) => void mails.push(message) };
    owner = await person(h, { role: 'owner' });
    for (const [key, name] of [
      ['WEB', 'Website'],
      ['OPS', 'Operations'],
      ['OLD', 'Old site'],
    ])
      expect((await owner.request('POST', '/api/v1/projects/', { name, key })).status).toBe(201);
  });
  afterAll(() => h.close());

  it('adds the person to the named projects with their roles when they accept, and says so before', async () => {
    mails.length = 0;
    const res = await owner.request('POST', '/api/console/invitations/', {
      email: 'dev@example.test',
      role: 'member',
      projects: [
        { project: 'WEB', role: 'member' },
        { project: 'OPS', role: 'viewer' },
        { project: 'OLD', role: 'admin' },
      ],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.projects).toEqual([
      { key: 'WEB', name: 'Website', role: 'member' },
      { key: 'OPS', name: 'Operations', role: 'viewer' },
      { key: 'OLD', name: 'Old site', role: 'admin' },
    ]);
    expect(mails[0]!.text).toContain('You will join Website (WEB) as member, Operations (OPS) as viewer');
    const token = tokenOfLink(res.body.data.url);

    // A project deleted before the invitation is accepted drops out of it.
    const old = (await owner.request('GET', '/api/v1/projects/')).body.data.find(
      (p: { key: string }) => p.key === 'OLD',
    );
    expect((await owner.request('DELETE', `/api/v1/projects/${old.id}/`)).status).toBe(204);

    const listed = (await owner.request('GET', '/api/console/invitations/')).body.data;
    expect(listed.find((i: { id: number }) => i.id === res.body.data.id).projects).toEqual([
      { key: 'OPS', name: 'Operations', role: 'viewer' },
      { key: 'WEB', name: 'Website', role: 'member' },
    ]);
    const lookup = await h.request('GET', `/api/console/invitations/lookup/?token=${token}`);
    expect(lookup.body.data.projects).toEqual([
      { key: 'OPS', name: 'Operations', role: 'viewer' },
      { key: 'WEB', name: 'Website', role: 'member' },
    ]);

    const accepted = await accept(token, 'New Developer');
    expect(accepted.status, accepted.text).toBe(201);
    const dev = browserFrom(h, accepted);
    const projects = (await dev.request('GET', '/api/v1/projects/?ordering=key')).body.data;
    expect(projects.map((p: { key: string; role: string }) => [p.key, p.role])).toEqual([
      ['OPS', 'viewer'],
      ['WEB', 'member'],
    ]);
    // Each membership it made is announced like any other, by the person who accepted.
    const joined = (await events(h, 'membership.changed')).filter(
      (e) => (e.data.membership as { user: { name: string } }).user.name === 'New Developer',
    );
    expect(
      joined.map((e) => [
        (e.data.membership as { project: { key: string } }).project.key,
        e.data.change,
        e.data.to_role,
        (e as unknown as { actor: { name: string }; source: string }).actor.name,
        (e as unknown as { source: string }).source,
      ]),
    ).toEqual([
      ['OPS', 'added', 'viewer', 'New Developer', 'app'],
      ['WEB', 'added', 'member', 'New Developer', 'app'],
    ]);
    const web = projects.find((p: { key: string }) => p.key === 'WEB');
    const members = (await owner.request('GET', `/api/v1/memberships/?project=${web.id}`)).body.data;
    expect(members.map((m: { user_name: string; role: string }) => [m.user_name, m.role])).toContainEqual([
      'New Developer',
      'member',
    ]);
  });

  it('adds only the named projects its inviter still administers when accepted', async () => {
    const admin = await person(h, { org: owner.org, role: 'admin' });
    const adminId = (await admin.request('GET', '/api/v1/me/')).body.data.account.id;
    const projectId = async (key: string) =>
      (await owner.request('GET', '/api/v1/projects/')).body.data.find((p: { key: string }) => p.key === key).id;
    for (const key of ['WEB', 'OPS'])
      expect(
        (
          await owner.request('POST', '/api/v1/memberships/', {
            project: await projectId(key),
            user: adminId,
            role: 'admin',
          })
        ).status,
      ).toBe(201);
    const res = await admin.request('POST', '/api/console/invitations/', {
      email: 'later@example.test',
      role: 'member',
      projects: [
        { project: 'WEB', role: 'member' },
        { project: 'OPS', role: 'member' },
      ],
    });
    expect(res.status, res.text).toBe(201);
    const token = tokenOfLink(res.body.data.url);

    // The inviter leaves OPS before the invitation is accepted: it no longer adds anyone there.
    const opsMembers = (await owner.request('GET', `/api/v1/memberships/?project=${await projectId('OPS')}`)).body.data;
    const adminInOps = opsMembers.find((m: { user: number }) => m.user === adminId);
    expect((await owner.request('DELETE', `/api/v1/memberships/${adminInOps.id}/`)).status).toBe(204);

    const lookup = await h.request('GET', `/api/console/invitations/lookup/?token=${token}`);
    expect(lookup.body.data.projects).toEqual([{ key: 'WEB', name: 'Website', role: 'member' }]);
    const accepted = await accept(token, 'Later Person');
    expect(accepted.status, accepted.text).toBe(201);
    const projects = (await browserFrom(h, accepted).request('GET', '/api/v1/projects/')).body.data;
    expect(projects.map((p: { key: string; role: string }) => [p.key, p.role])).toEqual([['WEB', 'member']]);
  });

  it('an invitation without projects still works, and lists none', async () => {
    const res = await owner.request('POST', '/api/console/invitations/', {
      email: 'plain@example.test',
      role: 'member',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.projects).toEqual([]);
    const accepted = await accept(tokenOfLink(res.body.data.url), 'Plain Person');
    expect(accepted.status).toBe(201);
    expect((await browserFrom(h, accepted).request('GET', '/api/v1/projects/')).body.data).toEqual([]);
  });

  it('refuses a project named twice, one the inviter cannot see, or a bad role, and records nothing', async () => {
    const count = async () =>
      Number(
        (
          await h.ctx.db
            .selectFrom('invitations')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const twice = await owner.request('POST', '/api/console/invitations/', {
      email: 'twice@example.test',
      role: 'member',
      projects: [
        { project: 'WEB', role: 'member' },
        { project: 'WEB', role: 'admin' },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error.details.fields).toEqual({ projects: 'WEB is named twice' });

    const elsewhere = await person(h, { role: 'owner' });
    expect((await elsewhere.request('POST', '/api/v1/projects/', { name: 'Theirs', key: 'THEIRS' })).status).toBe(201);
    const foreign = await owner.request('POST', '/api/console/invitations/', {
      email: 'foreign@example.test',
      role: 'member',
      projects: [{ project: 'THEIRS', role: 'member' }],
    });
    expect(foreign.status).toBe(404);
    const unknown = await owner.request('POST', '/api/console/invitations/', {
      email: 'unknown@example.test',
      role: 'member',
      projects: [{ project: 'NOPE', role: 'member' }],
    });
    expect(unknown.status).toBe(404);
    const badRole = await owner.request('POST', '/api/console/invitations/', {
      email: 'badrole@example.test',
      role: 'member',
      projects: [{ project: 'WEB', role: 'owner' }],
    });
    expect(badRole.status).toBe(400);
    expect(await count()).toBe(before);
  });
});
