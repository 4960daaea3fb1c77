import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { HOST, ORIGIN, PASSWORD, person, signIn } from '../helpers/people.ts';
import { purgeOldAuditRecords } from '../../src/worker/retention.ts';

/** The audit records of an organization, oldest first, with their JSON parsed. */
async function auditOf(h: TestHarness, org: string) {
  const rows = await h.ctx.db
    .selectFrom('audit_records as a')
    .innerJoin('organizations as o', 'o.id', 'a.organization_id')
    .selectAll('a')
    .where('o.slug', '=', org)
    .orderBy('a.id')
    .execute();
  return rows.map((row) => ({
    ...row,
    before: row.before === null ? null : (JSON.parse(row.before) as unknown),
    after: row.after === null ? null : (JSON.parse(row.after) as unknown),
  }));
}

describe('audit log: what is recorded', () => {
  let h: TestHarness;
  beforeAll(async () => {
    h = await createHarness({ config: { publicBaseUrl: ORIGIN } });
  });
  afterAll(() => h.close());

  it('records a sign-in and a failed sign-in with the address, the session and the request id', async () => {
    const owner = await person(h, { role: 'owner' });
    const [signedIn] = await auditOf(h, owner.org);
    expect(signedIn).toMatchObject({
      action: 'sign_in.succeeded',
      actor_id: owner.userId,
      session_id: owner.sessionId,
      token_id: null,
      source: 'app',
      target_type: 'person',
      target_id: owner.userId,
      address: '127.0.0.1',
      after: { method: 'password' },
      // The test clock moves a microsecond at each reading.
      occurred_at: expect.stringMatching(/^2026-11-21T09:00:00\.0000\d\dZ$/),
    });

    const failed = await signIn(h, owner.email, 'wrong password!!', { 'x-request-id': 'req-failed-1' });
    expect(failed.status).toBe(401);
    const records = await auditOf(h, owner.org);
    expect(records.at(-1)).toMatchObject({
      action: 'sign_in.failed',
      actor_id: null,
      actor_label: owner.email,
      target_id: owner.userId,
      address: '127.0.0.1',
      correlation_id: 'req-failed-1',
      after: { method: 'password', active: true },
    });
  });

  it('records role changes, deactivation and reactivation with before and after, by whom and through which session', async () => {
    const owner = await person(h, { role: 'owner' });
    const member = await person(h, { org: owner.org });
    const patch = (body: unknown, requestId: string) =>
      owner.request('PATCH', `/api/console/people/${member.userId}/`, body, { 'x-request-id': requestId });
    expect((await patch({ role: 'admin' }, 'req-role')).status).toBe(200);
    expect((await patch({ active: false }, 'req-off')).status).toBe(200);
    expect((await patch({ active: true }, 'req-on')).status).toBe(200);
    // Nothing changes, nothing is recorded.
    expect((await patch({ role: 'admin' }, 'req-same')).status).toBe(200);

    const records = (await auditOf(h, owner.org)).filter((r) => r.action.startsWith('person.'));
    expect(records.map((r) => [r.action, r.correlation_id, r.before, r.after])).toEqual([
      ['person.role_changed', 'req-role', { role: 'member' }, { role: 'admin' }],
      ['person.deactivated', 'req-off', null, null],
      ['person.reactivated', 'req-on', null, null],
    ]);
    for (const r of records) {
      expect(r).toMatchObject({
        actor_id: owner.userId,
        actor_label: expect.stringMatching(/^Person \d+$/),
        session_id: owner.sessionId,
        token_id: null,
        target_type: 'person',
        target_id: member.userId,
        address: '127.0.0.1',
      });
      expect(r.target_label).toContain(member.email);
    }
  });

  it('does not record a refused change', async () => {
    const owner = await person(h, { role: 'owner' });
    const admin = await person(h, { org: owner.org, role: 'admin' });
    const before = (await auditOf(h, owner.org)).length;
    expect((await admin.request('PATCH', `/api/console/people/${owner.userId}/`, { role: 'member' })).status).toBe(403);
    expect(await auditOf(h, owner.org)).toHaveLength(before);
  });

  it('records invitations issued, revoked and accepted, and service accounts, tokens and their revocation', async () => {
    const owner = await person(h, { role: 'owner' });
    const invited = await owner.request('POST', '/api/console/invitations/', {
      email: 'Newcomer@Example.test',
      role: 'member',
    });
    expect(invited.status).toBe(201);
    const other = await owner.request('POST', '/api/console/invitations/', {
      email: 'gone@example.test',
      role: 'guest',
    });
    expect((await owner.request('DELETE', `/api/console/invitations/${other.body.data.id}/`)).status).toBe(204);
    const token = new URL(invited.body.data.url).hash.replace('#token=', '');
    const accepted = await h.request('POST', '/api/console/invitations/accept/', {
      body: { token, name: 'Newcomer', password: PASSWORD },
      headers: { host: HOST, origin: ORIGIN, 'x-request-id': 'req-accept' },
    });
    expect(accepted.status).toBe(201);

    const bot = await owner.request('POST', '/api/console/service-accounts/', { name: 'CI bot', role: 'member' });
    expect(bot.status).toBe(201);
    const created = await owner.request('POST', '/api/console/tokens/', {
      name: 'deploys',
      account: bot.body.data.id,
      scopes: ['tasks:read'],
    });
    expect(created.status).toBe(201);
    expect((await owner.request('DELETE', `/api/console/tokens/${created.body.data.id}/`)).status).toBe(204);

    const records = (await auditOf(h, owner.org)).filter((r) => r.action !== 'sign_in.succeeded');
    expect(records.map((r) => [r.action, r.target_type, r.target_label, r.before, r.after])).toEqual([
      [
        'person.invited',
        'invitation',
        'newcomer@example.test',
        null,
        { email: 'newcomer@example.test', role: 'member', projects: [] },
      ],
      [
        'person.invited',
        'invitation',
        'gone@example.test',
        null,
        { email: 'gone@example.test', role: 'guest', projects: [] },
      ],
      ['person.invitation_revoked', 'invitation', 'gone@example.test', null, null],
      [
        'person.joined',
        'person',
        'Newcomer <newcomer@example.test>',
        null,
        { role: 'member', invitation: invited.body.data.id },
      ],
      ['service_account.created', 'person', 'CI bot', null, { name: 'CI bot', role: 'member' }],
      [
        'token.created',
        'token',
        'deploys',
        null,
        { account: { id: bot.body.data.id, name: 'CI bot' }, scopes: ['tasks:read'], projects: null, expires_at: null },
      ],
      ['token.revoked', 'token', 'deploys', { account: { id: bot.body.data.id, name: 'CI bot' } }, null],
    ]);
    const joined = records.find((r) => r.action === 'person.joined')!;
    expect(joined).toMatchObject({
      actor_id: accepted.body.data.user.id,
      session_id: accepted.body.data.session.id,
      correlation_id: 'req-accept',
      address: '127.0.0.1',
    });
  });

  it('records the operator at the command line as the actor of a token it creates', async () => {
    const actor = await h.actor();
    const [record] = await auditOf(h, actor.org);
    expect(record).toMatchObject({
      action: 'token.created',
      actor_id: null,
      actor_label: 'operator',
      source: 'operator',
      address: null,
      target_id: actor.tokenId,
      correlation_id: expect.stringMatching(/^audit_[0-9a-f]{32}$/),
    });
  });

  it('records a change of the organization settings, and nothing when nothing changes', async () => {
    const owner = await person(h, { role: 'owner' });
    expect((await owner.request('PATCH', '/api/console/organization/', { name: 'Renamed Org' })).status).toBe(200);
    expect((await owner.request('PATCH', '/api/console/organization/', { name: 'Renamed Org' })).status).toBe(200);
    const records = (await auditOf(h, owner.org)).filter((r) => r.action === 'organization.updated');
    expect(records.map((r) => [r.target_label, r.before, r.after, r.actor_id])).toEqual([
      ['Renamed Org', { name: `Org ${owner.org}` }, { name: 'Renamed Org' }, owner.userId],
    ]);
  });

  it('keeps records for AUDIT_RETENTION_DAYS, then the retention sweep removes them', async () => {
    const owner = await person(h, { role: 'owner' });
    h.clock.advance(200 * 86_400_000);
    expect((await signIn(h, owner.email, PASSWORD, { 'x-request-id': 'req-later' })).status).toBe(200);
    expect((await auditOf(h, owner.org)).map((r) => r.action)).toEqual(['sign_in.succeeded', 'sign_in.succeeded']);
    h.clock.advance(200 * 86_400_000);
    expect(h.ctx.config.retention.auditDays).toBe(365);
    expect(await purgeOldAuditRecords(h.ctx)).toBe(false);
    expect((await auditOf(h, owner.org)).map((r) => [r.action, r.correlation_id])).toEqual([
      ['sign_in.succeeded', 'req-later'],
    ]);
  });
});
