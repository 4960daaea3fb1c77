import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { createLogger } from '../../src/logger.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import { secondConnection } from '../helpers/database.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { removeMember } from '../helpers/factory.ts';
import { createWebhookHarness, deliveriesOf, endpointRow, type WebhookHarness } from '../helpers/webhooks.ts';

/**
 * What an outside probe found, each over the real app: who may steer webhook endpoints spanning
 * projects, concurrent removal of a project's admins, fair rate limits, idempotent replays after
 * access is lost, tokens in logged URLs, refused requests counting, custom fields of hidden
 * projects, and the smaller front-door answers.
 */
describe('webhook endpoints spanning projects (docs/api/access.md)', () => {
  let h: WebhookHarness;
  let owner: Actor;
  let admin: Actor;
  let secret: { id: number };
  let open: { id: number };
  let spanning: number;

  beforeAll(async () => {
    h = await createWebhookHarness({ allowPrivate: true });
    owner = await h.actor({ role: 'admin' });
    admin = await h.actor({ org: owner.org, role: 'admin' });
    secret = await h.project(owner, 'SECRET');
    open = await h.project(owner, 'OPEN');
    await h.addMember('OPEN', admin.accountId, 'admin');
    const created = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: owner.token,
      body: { url: 'https://hooks.test/owner' },
    });
    expect(created.status, created.text).toBe(201);
    spanning = created.body.data.id;
    await h.request('POST', '/api/v1/projects/SECRET/tasks/', { token: owner.token, body: { title: 'secret plan' } });
    await fanOut(h.ctx);
  });
  afterAll(() => h.close());

  it('a workspace admin who does not see every project it delivers can neither read, change, test nor list its deliveries', async () => {
    const req = (method: 'GET' | 'PATCH' | 'POST' | 'DELETE', url: string, body?: unknown) =>
      h.request(method, url, { token: admin.token, body });
    expect(
      (await req('PATCH', `/api/v1/webhooks/endpoints/${spanning}/`, { url: 'https://hooks.test/attacker' })).status,
    ).toBe(404);
    expect((await req('GET', `/api/v1/webhooks/endpoints/${spanning}/`)).status).toBe(404);
    expect((await req('POST', `/api/v1/webhooks/endpoints/${spanning}/test/`)).status).toBe(404);
    expect((await req('DELETE', `/api/v1/webhooks/endpoints/${spanning}/`)).status).toBe(404);
    const deliveries = await req('GET', '/api/v1/webhooks/deliveries/');
    expect(deliveries.body.data).toEqual([]);
    const [delivery] = await deliveriesOf(h, { endpoint: spanning });
    expect((await req('GET', `/api/v1/webhooks/deliveries/${delivery!.id}/`)).status).toBe(404);
    expect((await req('POST', `/api/v1/webhooks/deliveries/${delivery!.id}/replay/`)).status).toBe(404);
    const { url, governed_by } = await endpointRow(h, spanning);
    expect({ url, governed_by }).toEqual({ url: 'https://hooks.test/owner', governed_by: owner.accountId });
  });

  it('an endpoint spanning projects delivers only events of projects visible to the account that last set its URL', async () => {
    const own = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: admin.token,
      body: { url: 'https://hooks.test/admin' },
    });
    expect(own.status).toBe(201);
    // The owner (who sees both projects) may manage the admin's endpoint; setting its URL makes the owner answer for it.
    await h.request('POST', '/api/v1/projects/SECRET/tasks/', { token: owner.token, body: { title: 'before' } });
    await fanOut(h.ctx);
    const projectsOf = async (endpoint: number) => (await deliveriesOf(h, { endpoint })).map((r) => r.project_id);
    expect(await projectsOf(own.body.data.id)).not.toContain(secret.id);
    const patched = await h.request('PATCH', `/api/v1/webhooks/endpoints/${own.body.data.id}/`, {
      token: owner.token,
      body: { url: 'https://hooks.test/owner2' },
    });
    expect(patched.status, patched.text).toBe(200);
    await h.request('POST', '/api/v1/projects/SECRET/tasks/', { token: owner.token, body: { title: 'after' } });
    await fanOut(h.ctx);
    expect(await projectsOf(own.body.data.id)).toContain(secret.id);
    // Now it delivers SECRET, the admin who created it no longer sees it.
    expect(
      (await h.request('GET', `/api/v1/webhooks/endpoints/${own.body.data.id}/`, { token: admin.token })).status,
    ).toBe(404);
  });

  it('a project-bound endpoint is managed by project admins; viewers get 403 before any state (a pending replay)', async () => {
    const viewer = await h.actor({ org: owner.org, role: 'member' });
    const member = await h.actor({ org: owner.org, role: 'member' });
    await h.addMember('OPEN', viewer.accountId, 'viewer');
    await h.addMember('OPEN', member.accountId, 'member');
    expect(
      (
        await h.request('POST', '/api/v1/webhooks/endpoints/', {
          token: member.token,
          body: { url: 'https://hooks.test/m', project: open.id },
        })
      ).status,
    ).toBe(403);
    const ep = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: admin.token,
      body: { url: 'https://hooks.test/p', project: open.id },
    });
    expect(ep.status).toBe(201);
    await h.request('POST', '/api/v1/projects/OPEN/tasks/', { token: admin.token, body: { title: 'x' } });
    await fanOut(h.ctx);
    const [pending] = await deliveriesOf(h, { endpoint: ep.body.data.id, status: 'pending' });
    const replay = await h.request('POST', `/api/v1/webhooks/deliveries/${pending!.id}/replay/`, {
      token: viewer.token,
    });
    expect([replay.status, replay.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect(
      (await h.request('POST', `/api/v1/webhooks/deliveries/${pending!.id}/replay/`, { token: admin.token })).body.error
        .code,
    ).toBe('DELIVERY_PENDING');
    expect(
      (
        await h.request('PATCH', `/api/v1/webhooks/endpoints/${ep.body.data.id}/`, {
          token: member.token,
          body: { description: 'x' },
        })
      ).status,
    ).toBe(403);
  });
});

describe('a project always keeps one admin, under real concurrency (two connections)', () => {
  let h: TestHarness;
  afterAll(() => h.close());

  it('concurrent demotions and removals of every admin leave exactly one', async () => {
    h = await createHarness();
    // PostgreSQL: a second app on its own pool, as a second process would be. SQLite: one process
    // has one connection (a second would block the event loop while it waits for the lock), and
    // its transactions are serialized by that connection.
    const second = h.ctx.dialect === 'postgres' ? secondConnection(h.ctx.database) : null;
    const other = second ? await buildApp({ ...h.ctx, database: second, db: second.db }, { logger: false }) : h.app;
    await other.ready();
    try {
      const owner = await h.actor();
      for (let round = 0; round < 6; round++) {
        const key = `RACE${round}`;
        const project = await h.project(owner, key);
        const admins = [
          owner,
          await h.actor({ org: owner.org, role: 'member' }),
          await h.actor({ org: owner.org, role: 'member' }),
        ];
        for (const a of admins.slice(1)) await h.addMember(key, a.accountId, 'admin');
        const memberships = (
          await h.request('GET', `/api/v1/memberships/?project=${project.id}`, { token: owner.token })
        ).body.data as Array<{ id: number }>;
        const results = await Promise.all(
          memberships.map((m, i) => {
            const options = {
              method: i % 2 ? ('DELETE' as const) : ('PATCH' as const),
              url: `/api/v1/memberships/${m.id}/`,
              headers: { authorization: `Bearer ${owner.token}` },
              ...(i % 2 ? {} : { payload: { role: 'member' } }),
            };
            return (i === 1 ? other : h.app).inject(options);
          }),
        );
        const codes = results.map((r) => r.statusCode).sort();
        expect(
          codes.filter((c) => c === 409),
          JSON.stringify(results.map((r) => r.body)),
        ).toHaveLength(1);
        const after = await h.request('GET', `/api/v1/memberships/?project=${project.id}`, { token: owner.token });
        const left = (after.body.data as Array<{ role: string }>).filter((m) => m.role === 'admin');
        expect(left).toHaveLength(1);
      }
    } finally {
      if (second) {
        await other.close();
        await second.close();
      }
    }
  }, 120_000);
});

describe('fair rate limits; every authenticated request counts', () => {
  let h: TestHarness;
  afterAll(() => h.close());

  it('one account cannot spend more than its share of the organization budget, whatever its tokens; 403s count', async () => {
    h = await createHarness({
      config: { rateLimit: { tokenBurst: 1000, orgHourly: 10, accountHourlySharePercent: 50 } },
    });
    const greedy = await h.actor({ scopes: ['projects:read'] });
    const other = await h.actor({ org: greedy.org, scopes: ['projects:read'] });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await h.request('GET', '/api/v1/me/', { token: greedy.token })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    // Another account still has the rest of the organization's hour; another token of the same account does not.
    for (let i = 0; i < 5; i++)
      expect((await h.request('GET', '/api/v1/projects/', { token: other.token })).status).toBe(200);
    const third = await h.tokenFor(greedy.accountId, ['projects:read']);
    expect((await h.request('GET', '/api/v1/projects/', { token: third.token })).status).toBe(429);
  });

  it('answers refused for scope (403) are rate limited too', async () => {
    const scoped = await h.actor({ scopes: ['projects:read'] });
    const statuses = new Set<number>();
    for (let i = 0; i < 7; i++)
      statuses.add((await h.request('GET', '/api/v1/webhooks/endpoints/', { token: scoped.token })).status);
    expect([...statuses]).toEqual([403, 429]);
  });
});

describe('idempotent replays, logs, custom fields and the front door', () => {
  let h: TestHarness;
  let owner: Actor;
  let member: Actor;
  const lines: string[] = [];

  beforeAll(async () => {
    h = await createHarness();
    owner = await h.actor();
    member = await h.actor({ org: owner.org, role: 'member' });
    await h.project(owner, 'KEPT');
    await h.project(owner, 'HIDE');
    await h.addMember('KEPT', member.accountId, 'admin');
  });
  afterAll(() => h.close());

  it('a replay answers only while the caller could still make the request', async () => {
    const send = () =>
      h.request('POST', '/api/v1/projects/KEPT/tasks/', {
        token: member.token,
        body: { title: 'once' },
        headers: { 'idempotency-key': 'replay-after-removal' },
      });
    expect((await send()).status).toBe(201);
    expect((await send()).headers['idempotent-replayed']).toBe('true');
    await h.addMember('KEPT', member.accountId, 'viewer');
    const asViewer = await send();
    expect([asViewer.status, asViewer.body.error.code]).toEqual([403, 'FORBIDDEN']);
    await removeMember(h, owner, 'KEPT', member.accountId);
    const removed = await send();
    expect([removed.status, removed.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(removed.text).not.toContain('once');
  });

  it('a token sent in the query string never reaches the request log', async () => {
    const log = createLogger('info', {
      write: (line: string) => void lines.push(line),
    } as unknown as Writable) as unknown as FastifyBaseLogger;
    const app = await buildApp(h.ctx, { logger: log });
    await app.ready();
    try {
      const res = await app.inject({
        method: 'GET',
        url: `/api/v1/me/?access_token=${owner.token}&token=${owner.token}`,
      });
      expect(res.statusCode).toBe(401);
    } finally {
      await app.close();
    }
    expect(lines.join('')).toContain('/api/v1/me/?[redacted]');
    expect(lines.join('')).not.toContain(owner.token);
  });

  it('a custom field applying only to projects the caller cannot see is a 404, and a 409 counts only visible tasks', async () => {
    const hide = await h.request('GET', '/api/v1/projects/', { token: owner.token });
    const hidden = hide.body.data.find((p: { key: string }) => p.key === 'HIDE').id;
    const field = await h.request('POST', '/api/v1/custom-fields/', {
      token: owner.token,
      body: { name: 'Hidden field', type: 'text', projects: [hidden] },
    });
    expect(field.status).toBe(201);
    const admin = await h.actor({ org: owner.org, role: 'admin' });
    await h.project(admin, 'MINE');
    for (const [method, body] of [['GET'], ['PUT', { description: 'x' }], ['DELETE']] as const) {
      const res = await h.request(method, `/api/v1/custom-fields/${field.body.data.id}/`, { token: admin.token, body });
      expect([res.status, method]).toEqual([404, method]);
    }
    const list = await h.request('GET', '/api/v1/custom-fields/', { token: admin.token });
    expect(list.body.data.map((f: { id: number }) => f.id)).not.toContain(field.body.data.id);

    const everywhere = await h.request('POST', '/api/v1/custom-fields/', {
      token: owner.token,
      body: { name: 'Everywhere', type: 'text' },
    });
    const task = await h.request('POST', '/api/v1/projects/HIDE/tasks/', {
      token: owner.token,
      body: { title: 't', custom_fields: { [everywhere.body.data.id]: 'v' } },
    });
    expect(task.status, task.text).toBe(201);
    const mine = (await h.request('GET', '/api/v1/projects/', { token: admin.token })).body.data[0].id;
    // Narrowing to MINE keeps the field on HIDE, which the admin cannot see: nothing to refuse, nothing counted.
    const narrowed = await h.request('PUT', `/api/v1/custom-fields/${everywhere.body.data.id}/`, {
      token: admin.token,
      body: { projects: [mine] },
    });
    expect(narrowed.status, narrowed.text).toBe(200);
    expect(narrowed.body.data.projects).toEqual([mine]);
    expect(
      (await h.request('GET', `/api/v1/tasks/${task.body.data.key}/`, { token: owner.token })).body.data.custom_fields,
    ).toEqual({ [everywhere.body.data.id]: 'v' });
  });

  it('unknown body fields are named whatever their name', async () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty']) {
      const res = await h.request('POST', '/api/v1/projects/KEPT/tasks/', {
        token: owner.token,
        body: `{"title":"x","${name}":1}`,
        headers: { 'content-type': 'application/json' },
      });
      expect([res.status, res.body.error.details.fields]).toEqual([400, { [name]: 'is not a known field' }]);
    }
    const proto = await h.request('POST', '/api/v1/projects/KEPT/tasks/', {
      token: owner.token,
      body: '{"title":"x","__proto__":{"a":1}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.status).toBe(400);
    expect(proto.body.error.message).toContain('__proto__');
    expect(Object.keys(proto.body.error.details.fields)).toEqual(['__proto__']);
  });

  it('an integer id in a path has one spelling', async () => {
    const project = (await h.request('GET', '/api/v1/projects/', { token: owner.token })).body.data[0].id;
    expect((await h.request('GET', `/api/v1/projects/${project}/`, { token: owner.token })).status).toBe(200);
    for (const spelling of [
      `0x${project.toString(16)}`,
      `0b${project.toString(2)}`,
      `${project}e0`,
      `+${project}`,
      `0${project}`,
      `${project}.0`,
    ]) {
      const res = await h.request('GET', `/api/v1/projects/${spelling}/`, { token: owner.token });
      expect([res.status, res.body.error.code, spelling]).toEqual([400, 'VALIDATION_ERROR', spelling]);
    }
  });

  it('only UTF-8 JSON is read: other media types and charsets are 415, invalid UTF-8 is 400', async () => {
    const post = (body: string | Buffer, contentType: string) =>
      h.request('POST', '/api/v1/projects/KEPT/tasks/', {
        token: owner.token,
        body,
        headers: { 'content-type': contentType },
      });
    expect((await post('{"title":"x"}', 'text/plain')).status).toBe(415);
    expect((await post('{"title":"x"}', 'application/json; charset=utf-16')).status).toBe(415);
    expect((await post('{"title":"x"}', 'application/json; charset=UTF-8')).status).toBe(201);
    const invalid = await post(
      Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
      'application/json',
    );
    expect([invalid.status, invalid.body.error.code]).toEqual([400, 'MALFORMED_JSON']);
  });

  it('a title of only invisible characters is blank', async () => {
    for (const title of ['\u200b', '\u200b\u200c\u200d\u2060', '\ufeff ', '\u3164']) {
      const res = await h.request('POST', '/api/v1/projects/KEPT/tasks/', { token: owner.token, body: { title } });
      expect([res.status, Object.keys(res.body.error.details.fields)]).toEqual([400, ['title']]);
    }
  });

  it('status and code agree for answers from plugins; reflected input is capped', async () => {
    const docs = await h.request('GET', '/docs/reference/static/%2e%2e/%2e%2e/package.json');
    expect(docs.status).toBeGreaterThanOrEqual(400);
    const expected = { 400: 'VALIDATION_ERROR', 403: 'FORBIDDEN', 404: 'NOT_FOUND' } as Record<number, string>;
    expect(docs.body.error.code).toBe(expected[docs.status]);

    const name = 'n'.repeat(1024 * 1024);
    const boundary = 'xyz';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\nv\r\n--${boundary}--\r\n`;
    const task = await h.request('POST', '/api/v1/projects/KEPT/tasks/', {
      token: owner.token,
      body: { title: 'files' },
    });
    const res = await h.request('POST', `/api/v1/tasks/${task.body.data.key}/attachments/`, {
      token: owner.token,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.text.length).toBeLessThan(2000);
  });

  it('webhook URLs use port 443 unless WEBHOOK_ALLOWED_PORTS lists another', async () => {
    const { parseEndpointUrl } = await import('../../src/modules/webhooks/delivery/url-guard.ts');
    expect(parseEndpointUrl('https://hooks.example/', false).port).toBe('');
    expect(parseEndpointUrl('https://hooks.example:443/', false).port).toBe('');
    expect(() => parseEndpointUrl('https://hooks.example:8443/', false)).toThrow(/port 443/);
    expect(() => parseEndpointUrl('https://hooks.example:22/', false, [8443])).toThrow(/port 443 or one of 8443/);
    expect(parseEndpointUrl('https://hooks.example:8443/', false, [8443]).port).toBe('8443');
    const { loadConfig } = await import('../../src/config.ts');
    expect(loadConfig({}).webhooks.allowedPorts).toEqual([]);
    expect(loadConfig({ WEBHOOK_ALLOWED_PORTS: '8443, 9443' }).webhooks.allowedPorts).toEqual([8443, 9443]);
    expect(() => loadConfig({ WEBHOOK_ALLOWED_PORTS: '0' })).toThrow(/WEBHOOK_ALLOWED_PORTS/);
  });

  it('/metrics is closed unless METRICS_TOKEN is set or METRICS_PUBLIC opts out', async () => {
    const closed = await h.request('GET', '/metrics');
    expect([closed.status, closed.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const open = await createHarness({ config: { metricsPublic: true } });
    try {
      expect((await open.request('GET', '/metrics')).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
