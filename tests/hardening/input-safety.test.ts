import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, TestHarness } from '../helpers/harness.ts';
import { createHarness } from '../helpers/harness.ts';
import { rowCount } from '../helpers/storage.ts';

describe('U+0000 is refused in every body string and URL, on both databases (VALIDATION_ERROR)', () => {
  let h: TestHarness;
  let owner: Actor;

  beforeAll(async () => {
    h = await createHarness();
    owner = await h.actor();
    await h.project(owner, 'NUL');
  });
  afterAll(() => h.close());

  const tasks = () => rowCount(h, 'tasks');

  it('a task title with U+0000 is a 400 naming the field, and nothing is written (regression: a 500 on PostgreSQL)', async () => {
    const before = Number(await tasks());
    const res = await h.request('POST', '/api/v1/projects/NUL/tasks/', {
      token: owner.token,
      body: { title: 'a\u0000b' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Invalid body: title.',
        details: { location: 'body', fields: { title: 'must not contain U+0000 or a lone surrogate' } },
      },
    });
    expect(Number(await tasks())).toBe(before);
  });

  it('nested strings and object keys are checked too, with their field path', async () => {
    const nested = await h.request('POST', '/api/v1/projects/NUL/tasks/bulk/', {
      token: owner.token,
      body: { tasks: [{ title: 'ok' }, { title: 'x', labels: ['a', '\u0000'] }] },
    });
    expect(nested.status).toBe(400);
    expect(nested.body.error.details.fields).toEqual({
      'tasks[1].labels[1]': 'must not contain U+0000 or a lone surrogate',
    });
    const key = await h.request('POST', '/api/v1/projects/NUL/tasks/', {
      token: owner.token,
      body: { title: 'x', custom_fields: { 'a\u0000': 1 } },
    });
    expect(key.status).toBe(400);
    expect(key.body.error.details.fields).toEqual({
      'custom_fields.a\u0000': 'must not contain U+0000 or a lone surrogate',
    });
  });

  it('fuzz regression: a body nested deeper than 32 levels is a 400, with or without an Idempotency-Key (was a 500: stack overflow)', async () => {
    for (const body of [
      `${'['.repeat(10000)}${']'.repeat(10000)}`,
      `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
      `{"title":"x","custom_fields":${'['.repeat(40)}${']'.repeat(40)}}`,
    ]) {
      for (const key of [{}, { 'idempotency-key': `deep-${body.length}` }] as Array<Record<string, string>>) {
        const res = await h.request('POST', '/api/v1/projects/NUL/tasks/', {
          token: owner.token,
          body,
          headers: { 'content-type': 'application/json', ...key },
        });
        expect(res.status).toBe(400);
        expect(res.body.error).toEqual({
          code: 'VALIDATION_ERROR',
          message: 'The body is nested more than 32 levels deep.',
          details: { location: 'body' },
        });
      }
    }
  });

  it('a body over the size limit is a 413 in the error shape, and nothing is written', async () => {
    const before = Number(await tasks());
    const body = JSON.stringify({ title: 'x', description: 'y'.repeat(h.ctx.config.bodyLimitBytes) });
    const res = await h.request('POST', '/api/v1/projects/NUL/tasks/', {
      token: owner.token,
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'PAYLOAD_TOO_LARGE', message: expect.any(String), details: {} },
    });
    expect(Number(await tasks())).toBe(before);
  });

  it('%00 in a path segment or a query value is a 400 before any lookup', async () => {
    for (const url of [
      '/api/v1/tasks/NUL-1%00/',
      '/api/v1/search/?q=a%00b',
      '/api/v1/projects/NUL/tasks/?assignee=%00',
      '/api/v1/changes/tasks/?since=%00',
    ]) {
      const res = await h.request('GET', url, { token: owner.token });
      expect(res.status, url).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { location: 'url' } });
    }
  });

  it('fuzz regression: ordering=__proto__ (or any Object.prototype name) is an unknown field, not a 500', async () => {
    for (const field of ['__proto__', 'constructor', 'toString', '-hasOwnProperty']) {
      const res = await h.request('GET', `/api/v1/projects/?ordering=${field}`, { token: owner.token });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { fields: { ordering: expect.stringContaining('unknown field') } },
      });
    }
  });

  it('fuzz regression: a path that is not valid percent-encoding answers in the error shape', async () => {
    const res = await h.request('GET', '/api/v1/projects/%ZZ/', { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'The URL is not valid percent-encoding.',
        details: { location: 'url' },
      },
    });
  });

  it('fuzz regression: an integer beyond 32 bits in a body or query is a 400 naming the field (was a 500 on PostgreSQL)', async () => {
    const verify = await h.request('POST', '/api/v1/webhooks/verify/', {
      token: owner.token,
      body: { endpoint: 6.2e86, timestamp: '1', signature: 'x', payload: '' },
    });
    expect(verify.status).toBe(400);
    expect(verify.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: { endpoint: 'must be <= 2147483647' } },
    });
    const assign = await h.request('POST', '/api/v1/projects/NUL/tasks/', {
      token: owner.token,
      body: { title: 'x', assignee: 2 ** 31 },
    });
    expect(assign.status).toBe(400);
    const list = await h.request('GET', `/api/v1/memberships/?project=${2 ** 40}`, { token: owner.token });
    expect(list.status).toBe(400);
  });

  it('other unusual text is stored and read back exactly (RTL, emoji, NFD); a lone surrogate, which has no UTF-8 form, is a 400 (was stored as one U+FFFD on PostgreSQL, three on SQLite)', async () => {
    const title = 'שלום \u202e مرحبا 🚀👩🏽‍💻 e\u0301 \u2028';
    const res = await h.request('POST', '/api/v1/projects/NUL/tasks/', { token: owner.token, body: { title } });
    expect(res.status).toBe(201);
    expect(
      (await h.request('GET', `/api/v1/tasks/${res.body.data.key}/`, { token: owner.token })).body.data.title,
    ).toBe(title);
    for (const text of [
      '{"title":"a\\ud800b"}',
      '{"title":"a\\udfffb"}',
      '{"title":"x","labels":["\\udc00\\ud800"]}',
    ]) {
      const surrogate = await h.request('POST', '/api/v1/projects/NUL/tasks/', {
        token: owner.token,
        body: text,
        headers: { 'content-type': 'application/json' },
      });
      expect(surrogate.status, text).toBe(400);
      expect(surrogate.body.error.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('security headers for a JSON API', () => {
  let h: TestHarness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it('/api/ responses forbid rendering, framing, sniffing, caching and referrers, errors included', async () => {
    const actor = await h.actor();
    for (const [url, token] of [
      ['/api/v1/me/', actor.token],
      ['/api/v1/me/', undefined],
      ['/api/v1/nowhere/', actor.token],
    ] as const) {
      const res = await h.request('GET', url, { token });
      expect(res.headers, url).toMatchObject({
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        'x-frame-options': 'DENY',
        'cross-origin-resource-policy': 'same-origin',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
      });
    }
  });

  it('the API reference keeps working: its page is not under the API policy that would block its scripts', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/docs/reference/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy'] ?? '').not.toContain("default-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('the API reference serves its own assets and nothing outside them, however the path is spelled', async () => {
    const bundle = await h.app.inject({ method: 'GET', url: '/docs/reference/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toContain('javascript');
    for (const url of [
      '/docs/reference/static/../../package.json',
      '/docs/reference/static/..%2f..%2fpackage.json',
      '/docs/reference/static/%2e%2e/%2e%2e/package.json',
      '/docs/reference/static/..%5c..%5cpackage.json',
      '/docs/reference/static/%252e%252e%252fpackage.json',
      '/docs/reference/static//etc/passwd',
    ]) {
      const res = await h.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.body, url).not.toContain('"dependencies"');
      expect(res.body, url).not.toContain('root:');
    }
  });
});
