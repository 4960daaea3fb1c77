import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeToken } from '../../src/identity/tokens.service.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

describe('authentication, scopes and visibility', () => {
  let h: TestHarness;
  let owner: Actor;

  beforeAll(async () => {
    h = await createHarness();
    owner = await h.actor();
    await h.project(owner, 'ALPHA');
    await h.project(owner, 'BETA');
  });
  afterAll(() => h.close());

  it('a request without a token is 401 UNAUTHENTICATED', async () => {
    const res = await h.request('GET', '/api/v1/projects/');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('a malformed or unknown token is 401', async () => {
    for (const authorization of ['Basic abc', 'Bearer', 'Bearer tt_unknown', 'bearer  ']) {
      const res = await h.request('GET', '/api/v1/projects/', { headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('a revoked token is 401', async () => {
    const t = await h.tokenFor(owner.accountId);
    expect((await h.request('GET', '/api/v1/projects/', { token: t.token })).status).toBe(200);
    await revokeToken(h.ctx, t.tokenId);
    const res = await h.request('GET', '/api/v1/projects/', { token: t.token });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/revoked/);
  });

  it('an expired token is 401', async () => {
    const t = await h.tokenFor(owner.accountId, ['projects:read'], undefined, 1);
    expect((await h.request('GET', '/api/v1/projects/', { token: t.token })).status).toBe(200);
    h.clock.advance(86_400_000 + 1000);
    const res = await h.request('GET', '/api/v1/projects/', { token: t.token });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/expired/);
  });

  it('a missing scope is 403 INSUFFICIENT_SCOPE naming the required scope', async () => {
    const t = await h.tokenFor(owner.accountId, ['tasks:read']);
    const res = await h.request('GET', '/api/v1/projects/', { token: t.token });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect(res.body.error.details.required).toBe('projects:read');
  });

  it('a write scope implies the read scope of its area', async () => {
    const t = await h.tokenFor(owner.accountId, ['projects:write']);
    expect((await h.request('GET', '/api/v1/projects/', { token: t.token })).status).toBe(200);
  });

  it('a read scope does not allow writes', async () => {
    const t = await h.tokenFor(owner.accountId, ['projects:read']);
    const res = await h.request('POST', '/api/v1/projects/', { token: t.token, body: { name: 'x', key: 'NOPE' } });
    expect(res.status).toBe(403);
    expect(res.body.error.details.required).toBe('projects:write');
  });

  it('a token restricted to ALPHA sees only ALPHA, and BETA is 404 like a project that does not exist', async () => {
    const t = await h.tokenFor(owner.accountId, ['projects:write'], ['ALPHA']);
    const list = await h.request('GET', '/api/v1/projects/', { token: t.token });
    expect(list.body.data.map((p: { key: string }) => p.key)).toEqual(['ALPHA']);

    const all = await h.request('GET', '/api/v1/projects/', { token: owner.token });
    const beta = all.body.data.find((p: { key: string }) => p.key === 'BETA');
    const hidden = await h.request('GET', `/api/v1/projects/${beta.id}/`, { token: t.token });
    const missing = await h.request('GET', '/api/v1/projects/999999/', { token: t.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(missing.body);
  });

  it('a restricted token cannot create projects (it could never see them)', async () => {
    const t = await h.tokenFor(owner.accountId, ['projects:write'], ['ALPHA']);
    const res = await h.request('POST', '/api/v1/projects/', { token: t.token, body: { name: 'x', key: 'RESTR' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it('a project of another organization is 404', async () => {
    const stranger = await h.actor();
    const mine = await h.request('GET', '/api/v1/projects/', { token: owner.token });
    const res = await h.request('GET', `/api/v1/projects/${mine.body.data[0].id}/`, { token: stranger.token });
    expect(res.status).toBe(404);
    expect((await h.request('GET', '/api/v1/projects/', { token: stranger.token })).body.data).toEqual([]);
  });

  it('a guest cannot create projects', async () => {
    const guest = await h.actor({ role: 'guest' });
    const res = await h.request('POST', '/api/v1/projects/', { token: guest.token, body: { name: 'x', key: 'GUEST' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it('GET /me/ explains the token: account, organization, effective scopes, restriction, projects', async () => {
    const t = await h.tokenFor(owner.accountId, ['projects:write', 'tasks:read'], ['ALPHA']);
    const res = await h.request('GET', '/api/v1/me/', { token: t.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      account: { id: owner.accountId, kind: 'service', role: 'admin' },
      organization: { slug: owner.org },
      token: {
        id: t.tokenId,
        scopes: ['tasks:read', 'projects:read', 'projects:write'],
        projects: ['ALPHA'],
        expires_at: null,
      },
      projects: [{ key: 'ALPHA', role: 'admin' }],
    });
  });

  it('GET /me/ needs no scope but does need a valid token', async () => {
    const t = await h.tokenFor(owner.accountId, ['webhooks:read']);
    expect((await h.request('GET', '/api/v1/me/', { token: t.token })).status).toBe(200);
    expect((await h.request('GET', '/api/v1/me/')).status).toBe(401);
  });
});
