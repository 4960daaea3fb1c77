import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/unit-of-work.ts';
import { freshDatabase } from '../helpers/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createOrganization, createUser } from '../../src/modules/accounts/accounts.service.ts';
import { issueSetupToken } from '../../src/modules/people/setup.service.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { browserFrom, HOST, ORIGIN, PASSWORD, person } from '../helpers/people.ts';

const tokenOfLink = (url: string) => new URL(url).hash.replace('#token=', '');

describe('account handles', () => {
  let h: TestHarness;
  beforeAll(async () => {
    h = await createHarness();
    h.ctx.mailer = { send: async () => undefined };
  });
  afterAll(() => h.close());

  const handleOf = async (id: number) =>
    (await h.ctx.db.selectFrom('users').select('handle').where('id', '=', id).executeTakeFirstOrThrow()).handle;

  it("people created by the CLI get their e-mail's local part, numbered on a clash within the organization only", async () => {
    await createOrganization(h.ctx, { name: 'H1', slug: 'h1' });
    await createOrganization(h.ctx, { name: 'H2', slug: 'h2' });
    const human = (email: string, org = 'h1') =>
      createUser(h.ctx, { org, kind: 'human', name: 'X', email, role: 'member' });
    expect(await handleOf((await human('alice@x.example')).id)).toBe('alice');
    expect(await handleOf((await human('Alice@y.example')).id)).toBe('alice2');
    expect(await handleOf((await human('alice@z.example')).id)).toBe('alice3');
    expect(await handleOf((await human('alice@x.example', 'h2')).id)).toBe('alice');
    expect(await handleOf((await human('mary.o.brien+tt@x.example')).id)).toBe('mary-o-brien-tt');
    const bot = await createUser(h.ctx, { org: 'h1', kind: 'service', name: 'Deploy Bot', role: 'member' });
    expect(await handleOf(bot.id)).toBe('deploy-bot');
  });

  it('service accounts, invited people and the first owner get one too', async () => {
    const owner = await person(h, { role: 'owner', email: 'olga@example.test' });
    expect(await handleOf(owner.userId)).toBe('olga');

    const bot = await owner.request('POST', '/api/console/service-accounts/', { name: 'Sync Job', role: 'member' });
    expect(bot.status).toBe(201);
    expect(bot.body.data.handle).toBe('sync-job');

    const invited = await owner.request('POST', '/api/console/invitations/', {
      email: 'Olga@Elsewhere.test',
      role: 'member',
    });
    const accepted = await h.request('POST', '/api/console/invitations/accept/', {
      body: { token: tokenOfLink(invited.body.data.url), name: 'Other Olga', password: PASSWORD },
      headers: { host: HOST, origin: ORIGIN },
    });
    expect(accepted.status).toBe(201);
    expect(await handleOf(accepted.body.data.user.id)).toBe('olga2');

    const people = await owner.request('GET', '/api/console/people/');
    expect(people.body.data.map((p: { handle: string }) => p.handle).sort()).toEqual(['olga', 'olga2', 'sync-job']);
  });

  it('the owner created at setup gets one', async () => {
    const fresh = await createHarness();
    try {
      const issued = await inTransaction(fresh.ctx, (tx) => issueSetupToken(tx));
      const res = await fresh.request('POST', '/api/console/setup/', {
        body: {
          token: issued!.token,
          organization: { name: 'First', slug: 'first' },
          name: 'Fay',
          email: 'Fay.Dunaway@first.test',
          password: PASSWORD,
        },
        headers: { host: HOST, origin: ORIGIN },
      });
      expect(res.status).toBe(201);
      const me = await browserFrom(fresh, res).request('GET', '/api/v1/me/');
      expect(me.body.data.account.handle).toBe('fay-dunaway');
    } finally {
      await fresh.close();
    }
  });

  it('GET /me shows the handle; PATCH /me changes it, for a token without scopes and for a signed-in person', async () => {
    const a = await h.actor({ org: 'h3', scopes: ['tasks:read'] });
    const b = await h.actor({ org: 'h3' });
    const before = await h.request('GET', '/api/v1/me/', { token: a.token });
    expect(before.body.data.account.handle).toMatch(/^bot-\d+$/);

    const changed = await h.request('PATCH', '/api/v1/me/', { token: a.token, body: { handle: 'release_bot-2' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.account.handle).toBe('release_bot-2');
    expect((await h.request('GET', '/api/v1/me/', { token: a.token })).body.data.account.handle).toBe('release_bot-2');
    // Setting the handle one already has is no clash.
    expect(
      (await h.request('PATCH', '/api/v1/me/', { token: a.token, body: { handle: 'release_bot-2' } })).status,
    ).toBe(200);

    const clash = await h.request('PATCH', '/api/v1/me/', { token: b.token, body: { handle: 'release_bot-2' } });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'handle' } });
    expect(await handleOf(b.accountId)).toMatch(/^bot-\d+$/);

    // Another organization may hold the same handle.
    const c = await h.actor({ org: 'h4' });
    expect(
      (await h.request('PATCH', '/api/v1/me/', { token: c.token, body: { handle: 'release_bot-2' } })).status,
    ).toBe(200);

    const p = await person(h, { org: 'h3' });
    const own = await p.request('PATCH', '/api/v1/me/', { handle: 'pat' });
    expect(own.status).toBe(200);
    expect(own.body.data.account.handle).toBe('pat');
  });

  it('refuses a bad handle with 400 and changes nothing', async () => {
    const a = await h.actor({ org: 'h5' });
    const was = await handleOf(a.accountId);
    for (const handle of ['', 'Alice', '-alice', '_alice', 'a'.repeat(31), 'al ice', 'al.ice', 'ällo', '@alice']) {
      const res = await h.request('PATCH', '/api/v1/me/', { token: a.token, body: { handle } });
      expect(res.status, handle).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await h.request('PATCH', '/api/v1/me/', { token: a.token, body: {} })).status).toBe(400);
    expect(
      (await h.request('PATCH', '/api/v1/me/', { token: a.token, body: { handle: 'ok', name: 'x' } })).status,
    ).toBe(400);
    expect((await h.request('PATCH', '/api/v1/me/', { body: { handle: 'anon' } })).status).toBe(401);
    expect(await handleOf(a.accountId)).toBe(was);
  });

  it('the migration gives existing accounts handles, the oldest keeping the plain one', async () => {
    const database = await freshDatabase({ migratedTo: '0020_invitation_projects' });
    try {
      const db = database.db;
      const at = '2026-01-01T00:00:00.000000Z';
      const organization = async (slug: string) =>
        (
          await sql<{
            id: number;
          }>`INSERT INTO organizations (name, slug, created_at) VALUES (${slug}, ${slug}, ${at}) RETURNING id`.execute(
            db,
          )
        ).rows[0]!.id;
      const [first, second] = [await organization('old'), await organization('other')];
      // The users table as it was before the migration: no handle column.
      const insert = async (org: number, kind: 'human' | 'service', name: string, email: string | null) =>
        (
          await sql<{ id: number }>`INSERT INTO users (organization_id, kind, email, name, role, created_at)
          VALUES (${org}, ${kind}, ${email}, ${name}, 'member', ${at}) RETURNING id`.execute(db)
        ).rows[0]!.id;
      const ids = [
        await insert(first, 'human', 'Bo', 'bo@a.test'),
        await insert(first, 'human', 'Bo B', 'BO@b.test'),
        await insert(first, 'service', 'Bo', null),
        await insert(first, 'human', '?', '+++@c.test'),
        await insert(second, 'human', 'Bo', 'bo@a.test'),
      ];

      expect(await migrateToLatest(database)).toContain('0021_account_handles');
      const handles = await db.selectFrom('users').select(['id', 'handle']).orderBy('id').execute();
      expect(handles.map((r) => r.handle)).toEqual(['bo', 'bo2', 'bo3', 'user', 'bo']);
      expect(handles.map((r) => r.id)).toEqual(ids);
      await expect(sql`UPDATE users SET handle = 'bo' WHERE id = ${ids[1]}`.execute(db)).rejects.toThrow();
    } finally {
      await database.close();
    }
  });
});
