import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { SUBSCRIBABLE_EVENT_TYPES } from '../../src/events/catalog.ts';
import { computeSignature } from '@tasktracker/webhooks';
import type { Actor } from '../helpers/harness.ts';
import { installationSecrets, storedResponse } from '../helpers/storage.ts';
import { createWebhookHarness, endpointRow, type WebhookHarness } from '../helpers/webhooks.ts';
import { ACCEPTED_URLS, formUrl, REFUSED_URLS, resolverTable } from './ssrf-forms.ts';

const URL_OK = 'https://public.hooks.example:8443/hook?x=1';

describe('webhook catalog and endpoints', () => {
  let h: WebhookHarness;
  let admin: Actor;
  let project: { id: number; key: string };

  beforeAll(async () => {
    // URL_OK names port 8443, so it is allowed besides 443 (WEBHOOK_ALLOWED_PORTS).
    h = await createWebhookHarness({
      allowPrivate: false,
      config: { webhooks: { ...loadConfig({}).webhooks, allowedPorts: [8443] } },
    });
    Object.assign(h.resolver.table, resolverTable());
    admin = await h.actor();
    project = await h.project(admin, 'HOOK');
  });
  afterAll(() => h.close());

  const create = (actor: Actor, body: Record<string, unknown>) =>
    h.request('POST', '/api/v1/webhooks/endpoints/', { token: actor.token, body });

  it('the catalog lists every event type with its description and subscribable flag', async () => {
    const res = await h.request('GET', '/api/v1/webhooks/catalog/', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toContainEqual({
      type: 'task.status_changed',
      description: expect.any(String),
      subscribable: true,
    });
    expect(res.body.data).toContainEqual({
      type: 'webhook.test',
      description: expect.any(String),
      subscribable: false,
    });
    expect(
      res.body.data.filter((e: { subscribable: boolean }) => e.subscribable).map((e: { type: string }) => e.type),
    ).toEqual(SUBSCRIBABLE_EVENT_TYPES);
  });

  it('create returns the endpoint JSON plus a whsec_ secret, once; list and read never show it', async () => {
    const res = await create(admin, {
      url: URL_OK,
      description: 'CRM sync',
      events: ['task.created', 'task.updated'],
      project: project.id,
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data).sort()).toEqual(
      [
        'created_at',
        'created_by',
        'description',
        'disabled_reason',
        'enabled',
        'events',
        'filter',
        'format',
        'id',
        'project',
        'secret',
        'url',
      ].sort(),
    );
    expect(res.body.data).toMatchObject({
      url: URL_OK,
      description: 'CRM sync',
      events: ['task.created', 'task.updated'],
      project: project.id,
      filter: null,
      format: 'json',
      enabled: true,
      disabled_reason: null,
      created_by: admin.accountId,
    });
    expect(res.body.data.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(res.body.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    const read = await h.request('GET', `/api/v1/webhooks/endpoints/${res.body.data.id}/`, { token: admin.token });
    expect(read.status).toBe(200);
    expect(read.body.data).not.toHaveProperty('secret');
    const listed = await h.request('GET', '/api/v1/webhooks/endpoints/', { token: admin.token });
    expect(listed.body.pagination).toMatchObject({ limit: 50, offset: 0 });
    expect(JSON.stringify(listed.body)).not.toContain(res.body.data.secret);
  });

  it('the secret is stored encrypted (AES-256-GCM), never in plain text, and two endpoints get different secrets', async () => {
    const a = (await create(admin, { url: URL_OK })).body.data;
    const b = (await create(admin, { url: URL_OK })).body.data;
    expect(a.secret).not.toBe(b.secret);
    const row = await endpointRow(h, a.id);
    expect(row.secret_ciphertext).toMatch(/^v1\./);
    expect(row.secret_ciphertext).not.toContain(a.secret.slice(6));
    // Without WEBHOOK_SECRET_KEY the key is a per-installation one kept in the database.
    const installation = await installationSecrets(h);
    expect(installation.map((r) => r.name)).toEqual(['webhook_secret_key']);
  });

  it('an Idempotency-Key replay of create returns the same secret, which is stored encrypted with the replay', async () => {
    const headers = { 'idempotency-key': 'create-crm-hook' };
    const body = { url: URL_OK, events: ['task.created'] };
    const first = await h.request('POST', '/api/v1/webhooks/endpoints/', { token: admin.token, body, headers });
    const again = await h.request('POST', '/api/v1/webhooks/endpoints/', { token: admin.token, body, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const stored = await storedResponse(h, 'create-crm-hook');
    expect(stored.response_body).toMatch(/^sealed:v1\./);
    expect(stored.response_body).not.toContain(first.body.data.secret);
  });

  it('events default to every subscribable type', async () => {
    const res = await create(admin, { url: URL_OK });
    expect(res.body.data.events).toEqual(SUBSCRIBABLE_EVENT_TYPES);
  });

  it('subscribing to webhook.test or an unknown type is a 400 naming the field', async () => {
    for (const events of [['webhook.test'], ['task.created', 'task.exploded'], [], ['task.created', 'task.created']]) {
      const res = await create(admin, { url: URL_OK, events });
      expect(res.status, JSON.stringify(events)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.fields).toHaveProperty('events');
    }
    const unknown = await create(admin, { url: URL_OK, events: ['task.exploded'] });
    expect(unknown.body.error.details.fields.events).toMatch(/unknown event type "task.exploded"/);
    const test = await create(admin, { url: URL_OK, events: ['webhook.test'] });
    expect(test.body.error.details.fields.events).toMatch(/not subscribable/);
  });

  it('bodies are strict: unknown fields and a missing url are 400', async () => {
    expect((await create(admin, { url: URL_OK, secret: 'mine' })).status).toBe(400);
    const missing = await create(admin, { events: ['task.created'] });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.fields).toHaveProperty('url');
  });

  it('a project the caller cannot see is a 404; a project viewer may read but not create (403)', async () => {
    const stranger = await h.actor();
    const res = await create(stranger, { url: URL_OK, project: project.id });
    expect(res.status).toBe(404);
    expect((await create(admin, { url: URL_OK, project: 999999 })).status).toBe(404);

    const viewer = await h.actor({ org: admin.org, role: 'member' });
    await h.addMember('HOOK', viewer.accountId, 'viewer');
    expect((await create(viewer, { url: URL_OK, project: project.id })).status).toBe(403);
    const own = (await create(admin, { url: URL_OK, project: project.id })).body.data;
    expect((await h.request('GET', `/api/v1/webhooks/endpoints/${own.id}/`, { token: viewer.token })).status).toBe(200);
    expect(
      (
        await h.request('PATCH', `/api/v1/webhooks/endpoints/${own.id}/`, {
          token: viewer.token,
          body: { description: 'x' },
        })
      ).status,
    ).toBe(403);
    expect((await h.request('DELETE', `/api/v1/webhooks/endpoints/${own.id}/`, { token: viewer.token })).status).toBe(
      403,
    );
  });

  it('visibility: another organization never sees an endpoint; org-wide endpoints are for their creator and workspace owners/admins', async () => {
    const member = await h.actor({ org: admin.org, role: 'member' });
    const mine = (await create(member, { url: URL_OK })).body.data;
    expect(mine.project).toBeNull();

    const other = await h.actor({ org: admin.org, role: 'member' });
    const otherOrg = await h.actor();
    for (const actor of [other, otherOrg]) {
      expect((await h.request('GET', `/api/v1/webhooks/endpoints/${mine.id}/`, { token: actor.token })).status).toBe(
        404,
      );
      expect((await h.request('DELETE', `/api/v1/webhooks/endpoints/${mine.id}/`, { token: actor.token })).status).toBe(
        404,
      );
      const list = await h.request('GET', '/api/v1/webhooks/endpoints/', { token: actor.token });
      expect(list.body.data.map((e: { id: number }) => e.id)).not.toContain(mine.id);
    }
    expect((await h.request('GET', `/api/v1/webhooks/endpoints/${mine.id}/`, { token: admin.token })).status).toBe(200);

    // A project-restricted token sees only endpoints bound to its projects and cannot create org-wide ones.
    const { token: restricted } = await h.tokenFor(admin.accountId, ['webhooks:write'], ['HOOK']);
    expect((await h.request('GET', `/api/v1/webhooks/endpoints/${mine.id}/`, { token: restricted })).status).toBe(404);
    const refused = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: restricted,
      body: { url: URL_OK },
    });
    expect(refused.status).toBe(403);
    const bound = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: restricted,
      body: { url: URL_OK, project: project.id },
    });
    expect(bound.status).toBe(201);
  });

  it('PATCH changes url, description, events, project and enabled; url and events are checked again', async () => {
    const ep = (await create(admin, { url: URL_OK, events: ['task.created'] })).body.data;
    const res = await h.request('PATCH', `/api/v1/webhooks/endpoints/${ep.id}/`, {
      token: admin.token,
      body: {
        url: 'https://93.184.216.34/other',
        description: 'new',
        events: ['comment.created'],
        project: project.id,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      url: 'https://93.184.216.34/other',
      description: 'new',
      events: ['comment.created'],
      project: project.id,
    });

    const bad = await h.request('PATCH', `/api/v1/webhooks/endpoints/${ep.id}/`, {
      token: admin.token,
      body: { url: 'https://10.0.0.1/' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields.url).toMatch(/RFC 1918/);
    expect(
      (
        await h.request('PATCH', `/api/v1/webhooks/endpoints/${ep.id}/`, {
          token: admin.token,
          body: { events: ['webhook.test'] },
        })
      ).status,
    ).toBe(400);

    const disabled = await h.request('PATCH', `/api/v1/webhooks/endpoints/${ep.id}/`, {
      token: admin.token,
      body: { enabled: false },
    });
    expect(disabled.body.data).toMatchObject({ enabled: false, disabled_reason: 'Disabled through the API.' });
    const enabled = await h.request('PATCH', `/api/v1/webhooks/endpoints/${ep.id}/`, {
      token: admin.token,
      body: { enabled: true, project: null },
    });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabled_reason: null, project: null });
  });

  it('DELETE removes the endpoint (204, then 404)', async () => {
    const ep = (await create(admin, { url: URL_OK })).body.data;
    expect((await h.request('DELETE', `/api/v1/webhooks/endpoints/${ep.id}/`, { token: admin.token })).status).toBe(
      204,
    );
    expect((await h.request('GET', `/api/v1/webhooks/endpoints/${ep.id}/`, { token: admin.token })).status).toBe(404);
  });

  it('with WEBHOOK_ALLOW_PRIVATE_TARGETS off, every refused URL form is a 400 on save', async () => {
    for (const { url, why } of REFUSED_URLS) {
      const res = await create(admin, { url: formUrl(url) });
      expect(res.status, `${why}: ${url}`).toBe(400);
      expect(res.body.error.details.fields, why).toHaveProperty('url');
    }
    for (const { url } of ACCEPTED_URLS) expect((await create(admin, { url })).status, url).toBe(201);
  });

  it('the attempt timeout defaults to 5 s and private targets are refused by default', () => {
    expect(loadConfig({}).webhooks).toMatchObject({ attemptTimeoutMs: 5000, allowPrivateTargets: false });
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhooks.allowPrivateTargets).toBe(true);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe' })).toThrow(/true or false/);
  });

  it('the delivery lease defaults to 60 s and must outlast an attempt', () => {
    expect(loadConfig({}).webhooks.leaseMs).toBe(60_000);
    expect(loadConfig({ WEBHOOK_LEASE_SECONDS: '6' }).webhooks.leaseMs).toBe(6000);
    expect(() => loadConfig({ WEBHOOK_LEASE_SECONDS: '5' })).toThrow(
      /WEBHOOK_LEASE_SECONDS must be longer than an attempt/,
    );
  });

  it("verify answers valid only for a signature made with the endpoint's secret over the exact payload", async () => {
    const ep = (await create(admin, { url: URL_OK })).body.data;
    const payload = '{"id":"evt_1","type":"task.created"}';
    const timestamp = '1795000000';
    const signature = computeSignature(ep.secret, timestamp, payload);
    const verify = (body: Record<string, unknown>) =>
      h.request('POST', '/api/v1/webhooks/verify/', { token: admin.token, body });

    const good = await verify({ endpoint: ep.id, timestamp, signature, payload });
    expect(good.status).toBe(200);
    expect(good.body.data).toEqual({ valid: true });
    for (const changed of [
      { payload: `${payload} ` },
      { timestamp: '1795000001' },
      { signature: signature.replace(/.$/, (c: string) => (c === '0' ? '1' : '0')) },
      { signature: `${signature}00` },
      { signature: signature.toUpperCase() },
      { signature: signature.slice(7) },
      { signature: 'sha256=zz' },
    ]) {
      const res = await verify({ endpoint: ep.id, timestamp, signature, payload, ...changed });
      expect(res.body.data, JSON.stringify(changed)).toEqual({ valid: false });
    }
    const otherOrg = await h.actor();
    expect(
      (
        await h.request('POST', '/api/v1/webhooks/verify/', {
          token: otherOrg.token,
          body: { endpoint: ep.id, timestamp, signature, payload },
        })
      ).status,
    ).toBe(404);
  });

  it('scopes: reading needs webhooks:read, writing webhooks:write', async () => {
    const { token } = await h.tokenFor(admin.accountId, ['webhooks:read']);
    expect((await h.request('GET', '/api/v1/webhooks/endpoints/', { token })).status).toBe(200);
    const res = await h.request('POST', '/api/v1/webhooks/endpoints/', { token, body: { url: URL_OK } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'webhooks:write' } });
  });
});
