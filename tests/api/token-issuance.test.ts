import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import { migrateToLatest } from '../../src/db/migrate.ts';
import type { UsersTable } from '../../src/db/schema.ts';
import { freshDatabase } from '../helpers/database.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { type Browser, person } from '../helpers/people.ts';

/**
 * A token acts as exactly one account: a person creates tokens for themselves, owners and
 * admins also for service accounts, and a token acts only while its issuer could still issue it.
 */
describe('token issuance: a token acts as exactly one account', () => {
  let h: TestHarness;
  let owner: Browser & { org: string };
  let admin: Browser;
  let member: Browser;
  let botId: number;

  beforeAll(async () => {
    h = await createHarness();
    owner = await person(h, { role: 'owner' });
    admin = await person(h, { org: owner.org, role: 'admin' });
    member = await person(h, { org: owner.org, role: 'member' });
    botId = (await owner.request('POST', '/api/console/service-accounts/', { name: 'CI', role: 'member' })).body.data
      .id;
  });
  afterAll(() => h.close());

  const mint = (by: Browser, account: number, extra: Record<string, unknown> = {}) =>
    by.request('POST', '/api/console/tokens/', { name: 't', account, scopes: ['projects:write'], ...extra });
  const me = (token: string) => h.request('GET', '/api/v1/me/', { token });
  const tokenCount = async () =>
    Number(
      (
        await h.ctx.db
          .selectFrom('api_tokens')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("nobody mints a token acting as another person, not even an admin for the owner's account", async () => {
    const before = await tokenCount();
    for (const [by, target] of [
      [admin, owner],
      [admin, member],
      [owner, admin],
      [member, admin],
    ] as const) {
      const res = await mint(by, target.userId);
      expect(res.status, `${by.userId} for ${target.userId}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      expect(res.body.error.message).toMatch(/acts as the person who creates it/);
    }
    expect(await tokenCount()).toBe(before);
  });

  it('a person mints tokens for themselves; owners and admins for service accounts, members not', async () => {
    const own = await mint(member, member.userId);
    expect(own.status).toBe(201);
    expect((await me(own.body.data.token)).body.data.account.id).toBe(member.userId);
    const bot = await mint(admin, botId);
    expect(bot.status).toBe(201);
    expect((await me(bot.body.data.token)).body.data.account.id).toBe(botId);
    const refused = await mint(member, botId);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/Only workspace owners and admins/);
  });

  it("a service account's token acts only while its issuer could still issue it", async () => {
    const issuer = await person(h, { org: owner.org, role: 'admin' });
    const { token } = (await mint(issuer, botId)).body.data;
    expect((await me(token)).status).toBe(200);

    expect((await owner.request('PATCH', `/api/console/people/${issuer.userId}/`, { role: 'member' })).status).toBe(
      200,
    );
    const demoted = await me(token);
    expect(demoted.status).toBe(401);
    expect(demoted.body.error.message).toMatch(/can no longer create it/);

    expect((await owner.request('PATCH', `/api/console/people/${issuer.userId}/`, { role: 'admin' })).status).toBe(200);
    expect((await me(token)).status).toBe(200);
    expect((await owner.request('PATCH', `/api/console/people/${issuer.userId}/`, { active: false })).status).toBe(200);
    expect((await me(token)).status).toBe(401);
  });

  it("one's own token follows one's role: a demoted admin's token acts as a member", async () => {
    const self = await person(h, { org: owner.org, role: 'admin' });
    const { token } = (await mint(self, self.userId)).body.data;
    await owner.request('PATCH', `/api/console/people/${self.userId}/`, { role: 'member' });
    const res = await me(token);
    expect(res.status).toBe(200);
    expect(res.body.data.account).toMatchObject({ id: self.userId, role: 'member' });
  });

  it('a project key the issuer cannot see answers exactly as a key that does not exist', async () => {
    const key = `H${owner.userId}`;
    expect((await owner.request('POST', '/api/v1/projects/', { name: 'Hidden', key })).status).toBe(201);
    const hidden = await mint(admin, admin.userId, { projects: [key] });
    const missing = await mint(admin, admin.userId, { projects: ['NOPE9'] });
    expect(hidden.status).toBe(400);
    expect(missing.status).toBe(400);
    expect(hidden.body.error.details.fields.projects).toBe(`unknown project keys: ${key}`);
    expect(JSON.stringify(missing.body).replaceAll('NOPE9', key)).toBe(JSON.stringify(hidden.body));
    const seen = await mint(owner, owner.userId, { projects: [key] });
    expect(seen.status).toBe(201);
    expect(seen.body.data.projects).toEqual([key]);
  });

  it('a token answer replayed under its Idempotency-Key is stored encrypted', async () => {
    const headers = { 'idempotency-key': `mint-${owner.userId}` };
    const first = await owner.request(
      'POST',
      '/api/console/tokens/',
      { name: 'once', account: owner.userId, scopes: ['tasks:read'] },
      headers,
    );
    expect(first.status).toBe(201);
    const stored = await h.ctx.db
      .selectFrom('idempotency_keys')
      .select('response_body')
      .where('key', '=', headers['idempotency-key'])
      .executeTakeFirstOrThrow();
    expect(stored.response_body).not.toContain(first.body.data.token);
    const again = await owner.request(
      'POST',
      '/api/console/tokens/',
      { name: 'once', account: owner.userId, scopes: ['tasks:read'] },
      headers,
    );
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.token).toBe(first.body.data.token);
  });
});

describe('token issuance: the upgrade revokes the tokens of people', () => {
  it('tokens of people made before the upgrade stop working; service accounts keep theirs', async () => {
    const database = await freshDatabase({ migratedTo: '0017_search_prefixes' });
    const db = database.db;
    const at = '2026-11-20T09:00:00.000000Z';
    const org = await db
      .insertInto('organizations')
      .values({ name: 'Old', slug: 'old', created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const account = (kind: 'human' | 'service', name: string) =>
      db
        .insertInto('users')
        .values({
          organization_id: org.id,
          kind,
          name,
          email: kind === 'human' ? `${name}@example.test` : null,
          role: 'owner',
          created_at: at,
          // Migrated only to 0017 here: the handle column (migration 0021) does not exist yet.
        } as Omit<Insertable<UsersTable>, 'handle'> as Insertable<UsersTable>)
        .returning('id')
        .executeTakeFirstOrThrow();
    const ownerAccount = await account('human', 'owner');
    const botAccount = await account('service', 'bot');
    const { hashToken } = await import('../../src/identity/tokens.ts');
    for (const [userId, secret] of [
      [ownerAccount.id, 'tt_minted_for_the_owner'],
      [botAccount.id, 'tt_minted_for_the_bot'],
    ] as const) {
      await db
        .insertInto('api_tokens')
        .values({
          user_id: userId,
          token_hash: hashToken(secret),
          token_prefix: secret.slice(0, 9),
          scopes: '["projects:read"]',
          project_ids: null,
          expires_at: null,
          revoked_at: null,
          created_at: at,
          name: 'old',
        } as never)
        .execute();
    }
    expect(await migrateToLatest(database)).toContain('0018_token_issuers');
    const h = await createHarness({ database });
    try {
      const ownerToken = await h.request('GET', '/api/v1/me/', { token: 'tt_minted_for_the_owner' });
      expect(ownerToken.status).toBe(401);
      expect(ownerToken.body.error.message).toBe('The token has been revoked.');
      expect((await h.request('GET', '/api/v1/me/', { token: 'tt_minted_for_the_bot' })).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});
